/**
 * Runtime upgrades as an operator meets them (issue 24's attack), on the fake Polkadot Asset Hub
 * node: statemint 2,000,000 (A) → 2,003,001 (B) applied by block 21, so block 22 is B's first —
 * and its migrations change state without any event: a native balance, the pool's reserve (its
 * price moves), a frozen part, an asset account removed. Whatever the order of things, a store
 * must end equal to the chain's state at its checkpoint (the plain values the chain was built
 * from), the first block of B must be handled, and the new snapshot taken once:
 *
 * - the upgrade while a bootstrap is in progress (pinned before it, finished after it), and a
 *   bootstrap pinned at the applying block or at B's first;
 * - a restart whose checkpoint is the applying block (B's first is the first block it meets);
 * - two upgrades in consecutive blocks (B's first block applies C);
 * - a node whose version or metadata lags at the upgrade for good: never decoded with the wrong
 *   types, confirmed where the node answers right (the finalized head);
 * - a node that prunes the block a re-read is pinned at: a fatal error naming it, or with
 *   INDEXER_REBOOTSTRAP=auto one new snapshot at the head (not one more after it).
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { Writable } from "node:stream";
import { Follower, type FollowerOptions } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { getHeartbeat, getTask, type Database } from "../../db/index.js";
import { REREAD_TASK, type RereadTask } from "../../indexer/reread.js";
import { account, assetHubRuntimes, type BlockOps, type FakeChain, type RuntimeId } from "../support/fake-chain.js";
import { ACTORS, marketChain, PINK, type MarketOptions } from "../support/fake-market.js";
import { startFakeNode, type FakeNode, type FakeNodeOptions } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { startRpcRelay, type RpcRelay } from "../support/rpc-relay.js";
import { describeDb, oneStore } from "../support/db.js";
import { expectStoreEqualsChain } from "../support/upgrade-store.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const HEAD = 50;
/** Applies B; block 22, B's first, touches no pool (only its migration moves the pool's reserve). */
const UPGRADE = 21;
const FIRST = UPGRADE + 1;
const BOUND_MS = 30_000;
const DOT = 10_000_000_000n;
const FRANK = account("frank");

let runtimes: Record<RuntimeId, RuntimeCodec>;
beforeAll(async () => {
  runtimes = await assetHubRuntimes();
});

/** A runtime's migration in block `n`: state written without any event. */
function migrate(b: BlockOps): void {
  const s = b.state;
  s.nativeOf(ACTORS.erin).free += 3n * DOT;
  s.nativeOf(ACTORS.pool).free += 100n * DOT;
  s.nativeOf(ACTORS.alice).frozen = 0n;
  s.mustAsset(PINK).balances.delete(FRANK);
}

/** The market chain with B's migration in its first block (and C's, when there is a second upgrade). */
function chain(options: Partial<MarketOptions> = {}): FakeChain {
  const migrations = new Set([FIRST, ...(options.secondUpgradeAt ? [options.secondUpgradeAt + 1] : [])]);
  return marketChain(runtimes, {
    blocks: HEAD,
    upgradeAt: UPGRADE,
    extra: (n, b) => {
      // Frank gets PINK with an event; B's migration takes it away without one.
      if (n === 1) b.assetTransfer(PINK, ACTORS.alice, FRANK, 5n * DOT);
      if (migrations.has(n)) migrate(b);
    },
    ...options,
  });
}

interface Run {
  follower: Follower;
  /** Log lines (parsed) so far. */
  records: Record<string, any>[];
}

const open: { node?: FakeNode; relay?: RpcRelay; follower?: Follower }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) {
    await o.follower?.stop();
    await o.relay?.close();
    await o.node?.close();
  }
});

async function node(c: FakeChain, options: FakeNodeOptions): Promise<FakeNode> {
  const n = await startFakeNode(c, options);
  open.push({ node: n });
  return n;
}

/** A follower of `url`; `onLine` sees each log line as it is written (before the code after it runs). */
function follow(db: Database, url: string, options: Partial<FollowerOptions> = {}, onLine?: (line: Record<string, any>) => void): Run {
  const records: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) {
        const line = JSON.parse(l) as Record<string, any>;
        records.push(line);
        onLine?.(line);
      }
      done();
    },
  });
  const follower = new Follower(db, { oracle: oracleSettings(config), batchBlocks: 4, logger: createLogger("debug", "indexer", stream), nativeTokenId: 0, wsUrl: url, historyHours: 0, retryMs: 50, heartbeatMs: 1_000, prefetchBlocks: 32, ...options });
  open.push({ follower });
  follower.start();
  return { follower, records };
}

const count = (run: Run, msg: string) => run.records.filter((r) => r.msg === msg).length;
const why = (run: Run) =>
  `block ${run.follower.status.block}, ${run.follower.status.sessions} sessions; warnings and errors:\n${[...new Set(run.records.filter((r) => r.level >= 40).map((r) => `${r.msg}: ${r.err?.message ?? r.err ?? r.reason ?? ""}`))].slice(0, 6).join("\n")}`;

/** Waits for the head (or a third session: two failures in a row on a node that never drops one). */
async function reachHead(run: Run): Promise<void> {
  await until(`the follower at block ${HEAD}`, () => run.follower.status.block === HEAD || run.follower.status.sessions >= 3 || run.follower.status.fatal !== null, BOUND_MS).catch(() => {});
  expect(run.follower.status.block, why(run)).toBe(HEAD);
  expect(run.follower.status.sessions, `a faithful node never makes the follower fail: ${why(run)}`).toBe(1);
}

describeDb("runtime upgrades under attack, on a fake Asset Hub node", (ctx) => {
  it("an upgrade while the bootstrap is in progress (pinned before it, finished after it): B's first block is handled and its migration read", async () => {
    const c = chain();
    // Slow enough pages that the bootstrap is seen unfinished (2 ms pages of 2 could finish between polls).
    const n = await node(c, { finalized: 5, latencyMs: 15 });
    const run = follow(ctx.db, n.url, { bootstrapPageSize: 1 });
    await until("a page of the bootstrap written", () => (run.follower.status.progress.bootstrap?.done ?? 0) > 0, BOUND_MS);
    expect(run.follower.status.progress.bootstrap?.finished).toBe(false);
    n.finalize(HEAD);
    await reachHead(run);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    // The bootstrap, and the new snapshot at B's first block: two, no more.
    expect(count(run, "bootstrap: done")).toBe(2);
    expect(run.records.filter((r) => r.msg === "indexer: runtime upgrade; reading state again after this block").map((r) => r.block)).toEqual([FIRST]);
  });

  it("while the new snapshot after the upgrade runs, the heartbeat keeps beating (/health not stale) and the re-read is on record", async () => {
    const c = chain();
    const n = await node(c, { finalized: 5, latencyMs: 15 });
    const run = follow(ctx.db, n.url, { bootstrapPageSize: 1, heartbeatMs: 200 });
    await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
    n.finalize(HEAD);
    const ages: number[] = [];
    while (run.follower.status.block !== HEAD && run.follower.status.sessions < 3) {
      const reread = await getTask<RereadTask>(ctx.db, REREAD_TASK);
      if (reread?.scope === "all") ages.push((await getHeartbeat(ctx.db))!.ageSeconds);
      await new Promise((r) => setTimeout(r, 100));
    }
    await reachHead(run);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    // Sampled through the snapshot (a page per account at 30 ms a round trip: seconds).
    expect(ages.length).toBeGreaterThan(5);
    expect(Math.max(...ages), `heartbeat ages during the snapshot: ${ages.join(", ")}`).toBeLessThan(2);
  });

  for (const pinned of [UPGRADE, FIRST]) {
    it(`a bootstrap pinned at block ${pinned} (${pinned === UPGRADE ? "the applying block, still A's state" : "B's first block"}), then following across: equal to the chain`, async () => {
      const c = chain();
      const n = await node(c, { finalized: pinned });
      const run = follow(ctx.db, n.url);
      await until("the bootstrap", () => run.follower.status.block === pinned, BOUND_MS);
      n.finalize(HEAD);
      await reachHead(run);
      expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
      // At the applying block the snapshot is A's state: B's first block calls for another.
      expect(count(run, "bootstrap: done")).toBe(pinned === UPGRADE ? 2 : 1);
    });
  }

  it("a restart whose checkpoint is the applying block: B's first block is the first it meets, and is handled", async () => {
    const c = chain();
    const n = await node(c, { finalized: 5 });
    const first = follow(ctx.db, n.url);
    await until("the bootstrap", () => first.follower.status.block === 5, BOUND_MS);
    n.finalize(UPGRADE);
    await until(`block ${UPGRADE}`, () => first.follower.status.block === UPGRADE, BOUND_MS);
    await first.follower.stop();
    n.finalize(HEAD);
    const second = follow(ctx.db, n.url);
    await reachHead(second);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    expect(second.records.filter((r) => r.msg === "indexer: runtime upgrade; reading state again after this block").map((r) => r.block)).toEqual([FIRST]);
  });

  it("two upgrades in consecutive blocks (B's first block applies C): each first block ends a batch and is read again", async () => {
    const c = chain({ secondUpgradeAt: FIRST });
    expect([c.blocks[FIRST]!.executedBy, c.blocks[FIRST]!.code, c.blocks[FIRST + 1]!.executedBy]).toEqual(["B", "C", "C"]);
    const n = await node(c, { finalized: 5 });
    const run = follow(ctx.db, n.url);
    await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
    n.finalize(HEAD);
    await reachHead(run);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    const upgrades = run.records.filter((r) => r.msg === "indexer: runtime upgrade; reading state again after this block");
    expect(upgrades.map((r) => [r.block, r.specVersion])).toEqual([
      [FIRST, 2_003_001],
      [FIRST + 1, 2_003_002],
    ]);
  });

  it.each([
    ["whose metadata lags its version at the applying block and B's first: B's types are never taken from A's metadata; they are", { lateMetadata: true }],
    ["that answers the old version at the applying block and B's first for good: B's types are", { lateVersion: true }],
  ] as const)("a node %s confirmed at the finalized head, and the follower reaches it", async (_, lag) => {
    const c = chain();
    const n = await node(c, { finalized: 5, ...lag });
    const run = follow(ctx.db, n.url);
    await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
    n.finalize(HEAD);
    await reachHead(run);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    expect(count(run, "bootstrap: done")).toBe(2);
  });

  for (const rebootstrap of ["off", "auto"] as const) {
    it(`a node that prunes the block a re-read is pinned at (INDEXER_REBOOTSTRAP=${rebootstrap}): ${rebootstrap === "off" ? "a fatal error naming it, no retry loop" : "one new snapshot at the head, not two"}`, async () => {
      const c = chain();
      const n = await node(c, { finalized: 5 });
      const relay = await startRpcRelay(n.url);
      open.push({ relay });
      // The state of B's first block and every block before it is pruned the moment the
      // re-read it called for is scheduled (a snapshot slower than the node's pruning window).
      const prune = (line: Record<string, any>) => {
        if (line.msg === "indexer: state changed without events: reading it again" && line.block === FIRST) for (let b = 0; b <= FIRST + 1; b++) relay.discarded.add(c.blocks[b]!.hash);
      };
      const run = follow(ctx.db, relay.url, { rebootstrap }, prune);
      await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
      n.finalize(HEAD);
      if (rebootstrap === "off") {
        await until("a fatal error", () => run.follower.status.fatal !== null || run.follower.status.sessions >= 4, BOUND_MS).catch(() => {});
        expect(run.follower.status.fatal, why(run)).toMatch(new RegExp(`no longer has the state of block ${FIRST}\\b`));
        expect(run.follower.status.sessions, why(run)).toBe(1);
        return;
      }
      await reachHead(run);
      expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
      expect(count(run, "bootstrap: done"), "the first bootstrap and one new snapshot at the head").toBe(2);
    });
  }
}, oneStore("pglite"));
