/**
 * A real runtime upgrade under chopsticks (issue 24): Rococo Asset Hub statemine 900 (v14, no
 * AssetConversion) is seeded, then upgraded to statemine 1,000,000 (v15, AssetConversion,
 * PoolAssets, new Balances and DispatchInfo layouts) through PendingValidationCode, and gets
 * pools, liquidity, swaps and transfers only the new runtime has. The applying block emits
 * parachainSystem.ValidationFunctionApplied only, no system.CodeUpdated. The chain is built once;
 * followers and backfills only read it:
 * - one follows live across the upgrade (stopped and compared before it, then restarted);
 * - two are stopped before it and resume ≥ 32 blocks behind (catch-up, prefetch 32 and 1);
 * - backfills over a range that spans it, into stores bootstrapped after it.
 * Each must end equal to chain storage at its checkpoint, with every block, no skipped event and
 * the chain's own swaps. On Postgres when TEST_DATABASE_URL is set, else on PGlite.
 *
 * Measured (2 cores): idle — devnet 3.5 s, seed (2 blocks) 1.4 s, upgrade (2 blocks) 1.7 s,
 * pools + swaps + removal (3 blocks) 5.5 s, a new-runtime block with a swap ≈ 1.5 s, an empty
 * one 0.8 s; under load (load average ≈ 10) the chain takes ≈ 105 s to build, a catch-up of the
 * 36 blocks with prefetch 1 ≈ 11 s, a backfill of them with prefetch 1 ≈ 20 s.
 * On the code before issue 24 the prefetch-32 cases fail: the catch-up follower stays at its
 * checkpoint (the block before the upgrade), its batch failing at the first block of the new
 * runtime ("Unable to decode storage system.events … findMetaEvent"), reconnecting for ever; the
 * backfills give up after their retries with the same error.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balancesAt, getCheckpoint, historyFloor, listPools, poolsAt, requestSnapshot, snapshotPage, tokensAt, type DbHandle } from "../../db/index.js";
import { runSnapshot } from "../../api/snapshot-runner.js";
import { runLocal, splitRange, type BackfillOptions } from "../../indexer/backfill.js";
import { ChainReader } from "../../indexer/chain/reader.js";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { verifyStore } from "../../indexer/verify.js";
import { loadConfig } from "../../shared/config.js";
import { chainSnapshot, dbSnapshot, type Snapshot } from "../support/chain.js";
import { captureLog, chainBlocks, chainSwaps, chainTransfers, historyRows, skippedEvents, storeBlocks, storeSwaps, storeTransfers, type BlockRange, type CapturedLog } from "../support/chain-history.js";
import { oneStore, type DbTarget } from "../support/db.js";
import { actors, activity, emptyBlocksUntil, fundAccounts, seedAfterUpgrade, seedBeforeUpgrade, shippedRuntimeCode, startRococoDevnet, transferRound, upgradeRuntime, type RococoDevnet, type Upgrade } from "../support/upgrade.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const base = { oracle: oracleSettings(config), batchBlocks: 4, nativeTokenId: 0, historyHours: 0 };
/** Blocks the resuming followers are behind: at least the default prefetch depth, 32. */
const BEHIND = 36;
/** Blocks with swaps or transfers after the upgrade's own; the rest of the gap is empty blocks. */
const ACTIVE_BLOCKS = 9;
/** A follower not at the head this long after the chain stopped is stuck. */
const REACH_MS = 60_000;
const LONG = 300_000;
// One store (Postgres where it runs): the followers' work across the upgrade is the store's
// least part, and the suite is CPU-bound on 2 cores. PGlite across an upgrade is upgrade-kill's
// (a real `tokenpool indexer` on a PGlite directory) and the fake-node suites'.
const targets = [oneStore("postgres")];

/** A store and the follower that writes it, with what it logged and where it was compared. */
interface Run {
  name: string;
  handle: DbHandle & { drop(): Promise<void> };
  prefetch: number;
  log: CapturedLog;
  follower: Follower;
  /** Chain and store at the checkpoint before the upgrade. */
  before?: { block: number; chain: Snapshot; db: Snapshot };
  /** Whether it reached the head, and in how long. */
  reached?: { ok: boolean; ms: number };
}

function startFollower(run: Pick<Run, "handle" | "prefetch" | "log">, wsUrl: string): Follower {
  const follower = new Follower(run.handle.db, { ...base, wsUrl, logger: run.log.logger, prefetchBlocks: run.prefetch });
  follower.start();
  return follower;
}

async function open(target: DbTarget, name: string, prefetch: number, wsUrl: string): Promise<Run> {
  const handle = await target.open();
  const log = captureLog();
  return { name: `${name} [${target.name}]`, handle, prefetch, log, follower: startFollower({ handle, prefetch, log }, wsUrl) };
}

/** Waits for the follower to commit `block`; false after `ms` (stuck or failing). */
async function reach(run: Run, block: number, ms = REACH_MS): Promise<{ ok: boolean; ms: number }> {
  const started = Date.now();
  const ok = await until(`${run.name} to reach block ${block}`, () => (run.follower.status.block ?? 0) >= block, ms).then(
    () => true,
    () => false,
  );
  return { ok, ms: Date.now() - started };
}

/** Stops the follower and compares its store with chain storage at its checkpoint. */
async function stopAndCompare(api: ApiPromise, run: Run): Promise<NonNullable<Run["before"]>> {
  await run.follower.stop();
  const cp = (await getCheckpoint(run.handle.db))!;
  const [chain, db] = await Promise.all([chainSnapshot(api, cp.blockHash), dbSnapshot(run.handle.db)]);
  return { block: cp.blockNumber, chain, db };
}

/** What a failed expectation should say about a follower: where it is and what it last logged. */
function state(run: Run): string {
  const s = run.follower.status;
  return `${run.name}: block ${s.block}, finalized ${s.finalized}, sessions ${s.sessions}, fatal ${s.fatal}; last log lines:\n${run.log.tail(6).join("\n")}`;
}

describe("a runtime upgrade on the devnet: statemine 900 → 1,000,000 (PendingValidationCode, no CodeUpdated)", () => {
  let chain: RococoDevnet;
  /** Reads the chain for the checks; opened once the chain is built (see RococoDevnet.connect). */
  let api: ApiPromise;
  let upgrade: Upgrade;
  /** The head once the chain is built (it stays idle after). */
  let head: number;
  const runs: Record<string, { live: Run; catch32: Run; catch1: Run }> = {};
  const extra: Array<{ drop(): Promise<void> }> = [];

  beforeAll(async () => {
    chain = await startRococoDevnet();
    const { api: builder } = chain;
    const wasm = await shippedRuntimeCode();
    await fundAccounts(builder); // no event: before any follower starts
    const url = chain.devnet.wsUrl;
    for (const t of targets) runs[t.name] = { live: await open(t, "live follower", 32, url), catch32: await open(t, "catch-up prefetch 32", 32, url), catch1: await open(t, "catch-up prefetch 1", 1, url) };
    const all = Object.values(runs).flatMap((r) => [r.live, r.catch32, r.catch1]);
    await seedBeforeUpgrade(builder);
    const who = await actors(builder);
    const before = (await transferRound(builder, who, 0)).number;
    for (const run of all) if (!(await reach(run, before)).ok) throw new Error(`before the upgrade, not at block ${before}: ${state(run)}`);
    for (const run of all) run.before = await stopAndCompare(builder, run);
    for (const { live } of Object.values(runs)) live.follower = startFollower(live, url);

    upgrade = await upgradeRuntime(builder, wasm);
    await seedAfterUpgrade(builder, who);
    await activity(builder, who, ACTIVE_BLOCKS);
    head = await emptyBlocksUntil(builder, before + BEHIND);
    await Promise.all(
      Object.values(runs).flatMap(({ live, catch32, catch1 }) => [
        reach(live, head).then((r) => (live.reached = r)),
        ...[catch32, catch1].map(async (run) => {
          run.follower = startFollower(run, url);
          run.reached = await reach(run, head);
        }),
      ]),
    );
    for (const run of all) await run.follower.stop();
    api = await chain.connect();
  }, LONG);

  afterAll(async () => {
    for (const r of Object.values(runs)) for (const run of [r.live, r.catch32, r.catch1]) await run.follower.stop().finally(() => run.handle.drop());
    for (const h of extra) await h.drop();
    await chain?.close();
  }, 60_000);

  /** Every check of a follower's store against the chain; soft, so one run reports all it got wrong. */
  async function expectExact(run: Run): Promise<void> {
    expect(run.before, `${run.name} was compared before the upgrade`).toBeDefined();
    expect(run.before!.block).toBeLessThan(upgrade.applied.number);
    expect.soft(run.before!.db, `${run.name}: store = chain at block ${run.before!.block}, before the upgrade`).toEqual(run.before!.chain);
    expect.soft(run.reached?.ok, `reached the head (${head}) within ${REACH_MS} ms — ${state(run)}`).toBe(true);
    // On a local devnet nothing fails: a block that decodes only after a reconnect is a bug too.
    // (Warnings are allowed: an upgrade is worth one.)
    expect.soft({ sessions: run.follower.status.sessions, errors: run.log.at(50) }, `${run.name} never reconnected and logged no error`).toEqual({ sessions: 1, errors: [] });
    const cp = (await getCheckpoint(run.handle.db))!;
    expect.soft(cp.blockNumber, `checkpoint — ${state(run)}`).toBe(head);
    const [onChain, inStore] = await Promise.all([chainSnapshot(api, cp.blockHash), dbSnapshot(run.handle.db)]);
    expect(Object.keys(onChain.pools)).toHaveLength(cp.blockNumber > upgrade.first.number ? 2 : 0);
    expect.soft(inStore, `${run.name}: store = chain at its checkpoint ${cp.blockNumber}`).toEqual(onChain);
    expect.soft(await skippedEvents(run.handle.db), `${run.name}: skipped_events`).toEqual([]);
    // History up to the head, whatever the checkpoint: a follower that stopped short misses rows.
    const blocks = await storeBlocks(run.handle.db);
    expect(blocks.length).toBeGreaterThan(0);
    const range: BlockRange = { from: blocks[0]!.number, to: head };
    expect.soft(blocks, `${run.name}: one blocks row per block, the chain's hash`).toEqual(await chainBlocks(api, range));
    const expected = await chainSwaps(api, range);
    expect(expected.length).toBeGreaterThan(ACTIVE_BLOCKS);
    expect.soft(await storeSwaps(run.handle.db, range), `${run.name}: swaps = the chain's SwapExecuted, block by block`).toEqual(expected);
    const transfers = await chainTransfers(api, range);
    // Both runtimes, and every kind of token: native, asset, LP; sent, minted and burned.
    const seen = (pred: (t: (typeof transfers)[number]) => boolean) => transfers.some(pred);
    expect({
      beforeUpgrade: seen((t) => t.blockNumber < upgrade.applied.number && t.kind === "transfer"),
      afterUpgrade: seen((t) => t.blockNumber > upgrade.first.number && t.kind === "transfer"),
      native: seen((t) => t.tokenId === 0 && t.kind === "transfer"),
      asset: seen((t) => t.tokenId !== null && t.tokenId > 0 && t.kind === "transfer"),
      lp: seen((t) => t.lpTokenId !== null && t.kind === "mint") && seen((t) => t.lpTokenId !== null && t.kind === "burn"),
      mint: seen((t) => t.tokenId !== null && t.kind === "mint"),
      // Signed extrinsics' fees: a fee row each, and no Withdraw row left in its extrinsic.
      fee: seen((t) => t.tokenId === 0 && t.kind === "fee" && t.event === "transactionPayment.TransactionFeePaid" && t.tip !== null),
      feeWithdrawals: seen((t) => t.kind === "withdraw" && transfers.some((f) => f.kind === "fee" && f.blockNumber === t.blockNumber && f.extrinsicIndex === t.extrinsicIndex && f.from === t.from)),
    }).toEqual({ beforeUpgrade: true, afterUpgrade: true, native: true, asset: true, lp: true, mint: true, fee: true, feeWithdrawals: false });
    expect.soft(await storeTransfers(run.handle.db, range), `${run.name}: transfers = the chain's events, block by block`).toEqual(transfers);
    // Balance and token history: as of every block from the floor to the head — across the
    // restart and the upgrade — holders, LP positions and tokens equal chain storage there.
    const floors = { holders: await historyFloor(run.handle.db, "holders"), lp: await historyFloor(run.handle.db, "lp") };
    expect(floors.holders, `${run.name}: a history floor`).toBeDefined();
    expect(floors.holders!).toBeLessThan(upgrade.applied.number);
    expect(floors.lp!).toBeLessThan(upgrade.applied.number);
    for (let n = floors.holders!; n <= head; n++) {
      const atChain = await chainAt(n);
      const [holders, lp] = await Promise.all([balancesAt(run.handle.db, false, n), balancesAt(run.handle.db, true, n)]);
      const asMap = (rows: typeof holders) => Object.fromEntries(rows.map((r) => [`${r.tokenId}|${r.account}`, r.balance]));
      expect.soft({ block: n, holders: asMap(holders) }, `${run.name}: holders as of block ${n} = chain storage there`).toEqual({ block: n, holders: atChain.holders });
      const tokens = Object.fromEntries((await tokensAt(run.handle.db, n)).map((t) => [t.id, { name: t.name, symbol: t.symbol, decimals: t.decimals, supply: t.supply, owner: t.owner, status: t.status, kind: t.kind, assetId: t.assetId }]));
      expect.soft({ block: n, tokens }, `${run.name}: tokens as of block ${n} = chain storage there`).toEqual({ block: n, tokens: atChain.tokens });
      if (n >= floors.lp!) expect.soft({ block: n, lp: asMap(lp) }, `${run.name}: LP positions as of block ${n} = chain storage there`).toEqual({ block: n, lp: atChain.lpHolders });
      // Pools as of the block (what /pool/stats/{a}/{b}?at= and a portfolio's positions read):
      // none before the upgrade, then each one's reserves and LP supply from its creation on.
      const known = await listPools(run.handle.db);
      const lpToken = new Map(known.map((p) => [`${p.token0Id}/${p.token1Id}`, p.lpTokenId]));
      const pools = Object.fromEntries(
        (await poolsAt(run.handle.db, known, n)).map((p) => [`${p.token0Id}/${p.token1Id}`, { reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply, lpTokenId: lpToken.get(`${p.token0Id}/${p.token1Id}`) }]),
      );
      expect.soft({ block: n, pools }, `${run.name}: pools as of block ${n} = chain storage there`).toEqual({ block: n, pools: atChain.pools });
      if (n === head) expect(Object.keys(pools)).toHaveLength(2);
    }
    // Holder snapshots (the job POST /snapshots and `tokenpool snapshot` run), before the upgrade
    // and at the head: every token's ranked list = chain storage at that block.
    for (const n of [upgrade.applied.number - 1, head]) {
      const atChain = await chainAt(n);
      const ids = [...new Set(Object.keys(atChain.holders).map((k) => Number(k.split("|")[0])))];
      const snapped: Record<string, string> = {};
      for (const id of ids) {
        const { snapshot } = await requestSnapshot(run.handle.db, id, n, null);
        const done = await runSnapshot(run.handle.db, snapshot.id, { batch: 3 });
        expect(done.state).toBe("done");
        for (const r of await snapshotPage(run.handle.db, snapshot.id, 0, 10_000)) snapped[`${id}|${r.account}`] = r.balance;
      }
      expect.soft({ block: n, holders: snapped }, `${run.name}: holder snapshots at block ${n} = chain storage there`).toEqual({ block: n, holders: atChain.holders });
    }
  }

  /** Chain storage at block `n` (the chain is idle once built: read once, shared by every run). */
  const chainAtBlock = new Map<number, Promise<Snapshot>>();
  function chainAt(n: number): Promise<Snapshot> {
    let snap = chainAtBlock.get(n);
    if (!snap) chainAtBlock.set(n, (snap = api.rpc.chain.getBlockHash(n).then((hash) => chainSnapshot(api, hash.toHex()))));
    return snap;
  }

  it("the chain upgraded for real: another spec, new pallets, no CodeUpdated, and the resuming followers were ≥ 32 blocks behind", async () => {
    expect({ before: upgrade.specBefore, after: upgrade.specAfter }).toEqual({ before: 900, after: 1_000_000 });
    expect(upgrade.first.number).toBe(upgrade.applied.number + 1);
    const events = (await (await api.at(upgrade.applied.hash)).query.system.events()).map(({ event }) => `${event.section}.${event.method}`);
    expect(events).toContain("parachainSystem.ValidationFunctionApplied");
    expect(events).not.toContain("system.CodeUpdated");
    expect((await api.at(upgrade.applied.hash)).query.assetConversion).toBeUndefined();
    expect((await api.at(upgrade.first.hash)).query.assetConversion).toBeDefined();
    for (const r of Object.values(runs)) expect(head - r.catch32.before!.block).toBeGreaterThanOrEqual(32);
  });

  for (const t of targets) {
    describe(t.name, () => {
      it("a follower that follows live across the upgrade (prefetch 32) equals chain storage before and after it", async () => {
        await expectExact(runs[t.name]!.live);
      }, LONG);

      it("a follower ≥ 32 blocks behind catches up across the upgrade with prefetch 32, and equals chain storage", async () => {
        await expectExact(runs[t.name]!.catch32);
      }, LONG);

      it("a follower ≥ 32 blocks behind catches up across the upgrade with prefetch 1, and equals chain storage", async () => {
        await expectExact(runs[t.name]!.catch1);
      }, LONG);

      it("tokenpool verify finds no drift at the head in the followers' stores after the upgrade", async () => {
        const reader = new ChainReader(await chain.connect(), 0);
        const r = runs[t.name]!;
        for (const run of [r.live, r.catch32, r.catch1]) {
          const report = await verifyStore(run.handle.db, reader);
          expect.soft({ store: run.name, block: report.block, pools: report.checked.pools, counts: report.counts, drift: report.drift.slice(0, 5) }).toEqual({ store: run.name, block: head, pools: 2, counts: {}, drift: [] });
        }
      }, LONG);

      /** A store bootstrapped at the head (after the upgrade), then backfilled over a range across it. */
      async function backfilled(chunks: (range: BlockRange) => BlockRange[], workers: number, prefetchBlocks: number) {
        const reference = runs[t.name]!.live;
        const store = await t.open();
        extra.push(store);
        const log = captureLog();
        const late = startFollower({ handle: store, prefetch: 32, log }, chain.devnet.wsUrl);
        await until("a bootstrap at the head", () => late.status.block !== null);
        await late.stop();
        const first = (await storeBlocks(reference.handle.db))[0]!.number;
        const range = { from: first + 1, to: late.status.block! - 1 };
        expect(range.from).toBeLessThan(upgrade.applied.number);
        expect(range.to).toBeGreaterThan(upgrade.first.number);
        const options: BackfillOptions = { oracle: base.oracle, nativeTokenId: 0, batchBlocks: 3, logger: log.logger, prefetchBlocks };
        const done = await runLocal({ db: store.db, wsUrl: chain.devnet.wsUrl, chunks: chunks(range), workers, options, onBlocks: () => {} }).catch((err: Error) => err);
        expect(done, `backfill — last log lines:\n${log.tail(6).join("\n")}`).not.toBeInstanceOf(Error);
        expect((await getCheckpoint(reference.handle.db))!.blockNumber, `the reference has every block of the range — ${state(reference)}`).toBeGreaterThanOrEqual(range.to);
        const expected = await historyRows(reference.handle.db, range);
        expect(expected.swaps.length).toBeGreaterThan(0);
        expect(expected.reserves.length).toBeGreaterThan(0);
        expect(expected.transfers.length).toBeGreaterThan(0);
        expect(await historyRows(store.db, range)).toEqual(expected);
        expect(await skippedEvents(store.db)).toEqual([]);
      }

      it("a backfill in one chunk (prefetch 32) across the upgrade writes the live follower's history rows", async () => {
        await backfilled((range) => [range], 1, 32);
      }, LONG);

      it("a backfill in one chunk (prefetch 1) across the upgrade writes the live follower's history rows", async () => {
        await backfilled((range) => [range], 1, 1);
      }, LONG);

      it("a backfill in chunks of 5 on two workers (prefetch 32) across the upgrade writes the live follower's history rows", async () => {
        await backfilled((range) => splitRange(range, 5).reverse(), 2, 32);
      }, LONG);
    });
  }
});
