/**
 * Runtime upgrades as an operator meets them (issue 24's attack), on the fake Polkadot Asset Hub
 * node: statemint 2,000,000 (A) → 2,003,001 (B) applied by block 21, so block 22 is B's first —
 * and its migrations change state without any event: a native balance, the pool's reserve (its
 * price moves), a frozen part, an asset account removed. Whatever the order of things, a store
 * must end equal to the chain's state at its checkpoint (the plain values the chain was built
 * from) once the verification pass the upgrade owes has ended, the first block of B must be
 * handled, and following must never stop for it:
 *
 * - the upgrade while a bootstrap is in progress (pinned before it, finished after it), and a
 *   bootstrap pinned at the applying block or at B's first;
 * - a restart whose checkpoint is the applying block (B's first is the first block it meets);
 * - two upgrades in consecutive blocks (B's first block applies C);
 * - a node whose version or metadata lags at the upgrade for good: never decoded with the wrong
 *   types, confirmed where the node answers right (the finalized head);
 * - a node that prunes every state but the newest few: the verification reads each page at the
 *   checkpoint, never at a pinned old block, so nothing fails.
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { Writable } from "node:stream";
import { Follower, type FollowerOptions } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { getHeartbeat, getTask, type Database } from "../../db/index.js";
import { UPGRADE_SWEEP_TASK } from "../../indexer/sweep.js";
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

/**
 * Waits for the head (or a third session: two failures in a row on a node that never drops one),
 * then for the end of the verification pass the upgrade at `upgrade` owes.
 */
async function reachHead(run: Run, upgrade = FIRST): Promise<void> {
  await until(`the follower at block ${HEAD}`, () => run.follower.status.block === HEAD || run.follower.status.sessions >= 3 || run.follower.status.fatal !== null, BOUND_MS).catch(() => {});
  expect(run.follower.status.block, why(run)).toBe(HEAD);
  await until(`the verification pass of the upgrade at block ${upgrade}`, () => verifiedAfter(run, upgrade), BOUND_MS).catch(() => {});
  expect(verifiedAfter(run, upgrade), why(run)).toBe(true);
  expect(run.follower.status.sessions, `a faithful node never makes the follower fail: ${why(run)}`).toBe(1);
}

/** A pass started by the upgrade at `block` (or a later one) has ended. */
const verifiedAfter = (run: Run, block: number) => run.records.some((r) => r.msg === "indexer: verification pass done: the store was compared with chain storage in full" && r.upgrade >= block);
const UPGRADE_MSG = "indexer: runtime upgrade; the store is verified against chain storage from this block while following goes on";

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
    // The bootstrap only: no new snapshot after the upgrade, a verification pass from B's first block.
    expect(count(run, "bootstrap: done")).toBe(1);
    expect(run.records.filter((r) => r.msg === UPGRADE_MSG).map((r) => r.block)).toEqual([FIRST]);
  });

  it("following never stops for the upgrade: the follower passes B's first block while its verification is owed, the heartbeat keeps beating, and the pass is on record", async () => {
    const c = chain();
    const n = await node(c, { finalized: 5, latencyMs: 15 });
    // A slow budget (a page of 2 entries, 20 a second): the pass outlasts the catch-up.
    const run = follow(ctx.db, n.url, { heartbeatMs: 200, sweepReadsPerSecond: 20, sweepPageSize: 2 });
    await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
    n.finalize(HEAD);
    const seen: { block: number; age: number }[] = [];
    await until(
      `the follower at block ${HEAD} while the upgrade's pass is owed`,
      async () => {
        const owed = await getTask<{ block: number }>(ctx.db, UPGRADE_SWEEP_TASK);
        if (owed?.block === FIRST) seen.push({ block: run.follower.status.block ?? 0, age: (await getHeartbeat(ctx.db))!.ageSeconds });
        return run.follower.status.block === HEAD && seen.length > 0;
      },
      BOUND_MS,
    );
    // Following went on past B's first block while its verification was on record.
    expect(Math.max(...seen.map((s) => s.block)), why(run)).toBe(HEAD);
    expect(Math.max(...seen.map((s) => s.age)), `heartbeat ages: ${seen.map((s) => s.age).join(", ")}`).toBeLessThan(2);
    await reachHead(run);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    expect(await getTask(ctx.db, UPGRADE_SWEEP_TASK), "the pass done, its marker gone").toBeUndefined();
  });

  for (const pinned of [UPGRADE, FIRST]) {
    it(`a bootstrap pinned at block ${pinned} (${pinned === UPGRADE ? "the applying block, still A's state" : "B's first block"}), then following across: equal to the chain`, async () => {
      const c = chain();
      const n = await node(c, { finalized: pinned });
      const run = follow(ctx.db, n.url);
      await until("the bootstrap", () => run.follower.status.block === pinned, BOUND_MS);
      n.finalize(HEAD);
      // Pinned at B's first block, the bootstrap is B's state: no upgrade to verify, a pass from it.
      await reachHead(run, pinned === UPGRADE ? FIRST : 0);
      expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
      // At the applying block the snapshot is A's state: B's first block calls for a verification pass.
      expect(count(run, "bootstrap: done")).toBe(1);
      expect(run.records.filter((r) => r.msg === UPGRADE_MSG).map((r) => r.block)).toEqual(pinned === UPGRADE ? [FIRST] : []);
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
    expect(second.records.filter((r) => r.msg === UPGRADE_MSG).map((r) => r.block)).toEqual([FIRST]);
  });

  it("two upgrades in consecutive blocks (B's first block applies C): each first block ends a batch, the second's pass replaces the first's", async () => {
    const c = chain({ secondUpgradeAt: FIRST });
    expect([c.blocks[FIRST]!.executedBy, c.blocks[FIRST]!.code, c.blocks[FIRST + 1]!.executedBy]).toEqual(["B", "C", "C"]);
    const n = await node(c, { finalized: 5 });
    const run = follow(ctx.db, n.url);
    await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
    n.finalize(HEAD);
    await reachHead(run, FIRST + 1);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    const upgrades = run.records.filter((r) => r.msg === UPGRADE_MSG);
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
    expect(count(run, "bootstrap: done")).toBe(1);
  });

  it("a node that prunes every state older than the checkpoint's from the upgrade on: the verification reads at the checkpoint, nothing fails", async () => {
    const c = chain();
    const n = await node(c, { finalized: 5 });
    const relay = await startRpcRelay(n.url);
    open.push({ relay });
    // The state of B's first block and every block before it is pruned the moment the upgrade is met.
    const prune = (line: Record<string, any>) => {
      if (line.msg === UPGRADE_MSG && line.block === FIRST) for (let b = 0; b <= FIRST; b++) relay.discarded.add(c.blocks[b]!.hash);
    };
    const run = follow(ctx.db, relay.url, {}, prune);
    await until("the bootstrap", () => run.follower.status.block === 5, BOUND_MS);
    n.finalize(HEAD);
    await reachHead(run);
    expect(await expectStoreEqualsChain(ctx.db, c)).toBe(HEAD);
    expect(run.follower.status.fatal).toBeNull();
  });
}, oneStore("pglite"));
