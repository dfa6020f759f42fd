/**
 * A backfill across a runtime upgrade writes the history rows a follower wrote (issue 24's
 * attack), on the fake Polkadot Asset Hub node: statemint 2,000,000 → 2,003,001 applied by block
 * 21; block 22, B's first, touches no pool, but its migration moves the pool's native reserve
 * without an event (so the price moves). A follower that saw every block reads all state again
 * at block 22 (a new snapshot: the pool's reserves and the price there); stores bootstrapped at
 * the head then backfill blocks 6–49 in one chunk and in chunks that start before, at and after
 * the applying block and B's first block, and must hold exactly the follower's rows.
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { type Database, type DbHandle } from "../../db/index.js";
import { runLocal, type BackfillOptions, type BlockRange } from "../../indexer/backfill.js";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { assetHubRuntimes, type FakeChain, type RuntimeId } from "../support/fake-chain.js";
import { ACTORS, marketChain } from "../support/fake-market.js";
import { startFakeNode, type FakeNode } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { captureLog } from "../support/log.js";
import { describeDb, memoryStore, oneStore } from "../support/db.js";
import { historyRows } from "../support/chain-history.js";
import { expectStoreEqualsChain } from "../support/upgrade-store.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const HEAD = 50;
const UPGRADE = 21;
const FIRST = UPGRADE + 1;
const RANGE: BlockRange = { from: 6, to: HEAD - 1 };
const BOUND_MS = 30_000;

let runtimes: Record<RuntimeId, RuntimeCodec>;
let chain: FakeChain;
beforeAll(async () => {
  runtimes = await assetHubRuntimes();
  chain = marketChain(runtimes, {
    blocks: HEAD,
    upgradeAt: UPGRADE,
    extra: (n, b) => {
      if (n === FIRST) b.state.nativeOf(ACTORS.pool).free += 700n * 10_000_000_000n;
    },
  });
});

const open: { node?: FakeNode; follower?: Follower; store?: DbHandle }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) {
    await o.follower?.stop();
    await o.store?.close();
    await o.node?.close();
  }
});

function follower(db: Database, url: string): Follower {
  const f = new Follower(db, { oracle: oracleSettings(config), batchBlocks: 4, logger: captureLog().logger, nativeTokenId: 0, wsUrl: url, historyHours: 0, retryMs: 50, heartbeatMs: 1_000, prefetchBlocks: 32 });
  open.push({ follower: f });
  f.start();
  return f;
}

/** A new store bootstrapped at the head, then backfilled over RANGE in `chunks`. */
async function backfilled(url: string, chunks: BlockRange[], prefetchBlocks: number): Promise<Database> {
  const store = await memoryStore();
  open.push({ store });
  const late = follower(store.db, url);
  await until("a bootstrap at the head", () => late.status.block === HEAD, BOUND_MS);
  await late.stop();
  const log = captureLog();
  const options: BackfillOptions = { oracle: oracleSettings(config), nativeTokenId: 0, batchBlocks: 3, logger: log.logger, prefetchBlocks };
  const done = await runLocal({ db: store.db, wsUrl: url, chunks, workers: 2, options, onBlocks: () => {} }).catch((err: Error) => err);
  expect(done, `backfill — its log:\n${log.lines.slice(-6).join("")}`).not.toBeInstanceOf(Error);
  return store.db;
}

const split = (...starts: number[]): BlockRange[] => starts.map((from, i) => ({ from, to: (starts[i + 1] ?? RANGE.to + 1) - 1 }));

describeDb("a backfill across a runtime upgrade whose migration moves a pool without an event", (ctx) => {
  it("writes the history rows of a follower that saw every block, in one chunk or in chunks starting before, at and after the upgrade", async () => {
    const node = await startFakeNode(chain, { finalized: 5 });
    open.push({ node });
    const reference = follower(ctx.db, node.url);
    await until("the bootstrap", () => reference.status.block === 5, BOUND_MS);
    node.finalize(HEAD);
    await until(`the follower at block ${HEAD}`, () => reference.status.block === HEAD, BOUND_MS);
    expect(await expectStoreEqualsChain(ctx.db, chain)).toBe(HEAD);
    const expected = await historyRows(ctx.db, RANGE);
    expect(expected.blocks.length).toBe(RANGE.to - RANGE.from + 1);
    // The migration's reserve and price at B's first block are in the follower's history.
    expect(expected.reserves.filter((r) => r.blockNumber === FIRST).map((r) => r.reserve0)).toEqual([String(chain.blocks[FIRST]!.state.reserves(1984).native)]);
    expect(expected.prices.filter((p) => p.blockNumber === FIRST).length).toBeGreaterThan(0);

    const layouts: [string, BlockRange[], number][] = [
      ["one chunk, 32 ahead", [RANGE], 32],
      ["one chunk, block by block", [RANGE], 1],
      ["chunks starting at the block before the upgrade, B's first and the one after it", split(RANGE.from, UPGRADE - 1, FIRST, FIRST + 1), 32],
      ["chunks starting at the applying block and at B's first", split(RANGE.from, UPGRADE, FIRST), 32],
      ["chunks of one block around the upgrade", split(RANGE.from, UPGRADE - 1, UPGRADE, FIRST, FIRST + 1, FIRST + 2), 32],
    ];
    for (const [name, chunks, prefetch] of layouts) {
      const db = await backfilled(node.url, chunks, prefetch);
      const rows = await historyRows(db, RANGE);
      expect.soft(rows.reserves.filter((r) => r.blockNumber >= UPGRADE && r.blockNumber <= FIRST + 1), `${name}: reserves around the upgrade`).toEqual(expected.reserves.filter((r) => r.blockNumber >= UPGRADE && r.blockNumber <= FIRST + 1));
      expect.soft(rows, `${name}: every history row`).toEqual(expected);
    }
  }, 180_000);
}, oneStore("pglite"));
