/**
 * A portfolio and a pair as of a block (GET /accounts/{address}?at=, /pool/stats/{a}/{b}?at=) on a
 * store written the way the indexer writes it: token, balance, pool and price rows per block through
 * the indexer's Batch, a snapshot floor at 100. Every figure is worked out here by hand from the
 * rows written (the comments show the arithmetic), never read back from the code under test.
 */
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { CHAIN_TASK, insertPrices, setTask, snapshotTaken, type Database } from "../../db/index.js";
import { createSnapshot } from "../../api/services/snapshots.js";
import { SNAPSHOT_LIMITS } from "../../api/app.js";
import { Batch } from "../../indexer/writer.js";
import type { SnapshotRunner } from "../../api/snapshot-runner.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { ALICE, BOB, USDT } from "../support/fixtures.js";

const KSM = 0;
const TEN = 10;
const LP = 7;
const LP_TEN = 8;
const time = (n: number) => 1_700_000_000 + n * 12;
const KSM_UNIT = 10n ** 12n;

interface PoolRow {
  t1: number;
  lp: number;
  r0: bigint;
  r1: bigint;
  supply: string;
}

interface BlockRows {
  n: number;
  tokens?: Array<[number, string, number]>;
  reads?: Array<[number, string, string]>;
  lp?: Array<[number, string, string]>;
  pools?: PoolRow[];
  destroy?: number[];
}

async function commit(db: Database, blocks: BlockRows[]) {
  const batch = new Batch();
  for (const b of blocks) {
    for (const [id, symbol, decimals] of b.tokens ?? [])
      batch.token({ id, name: symbol, symbol, decimals, supply: "1000000000000000", owner: null, kind: id === KSM ? "native" : "asset", assetId: id === KSM ? null : id, blockNumber: b.n });
    for (const id of b.destroy ?? []) batch.destroy(id, b.n);
    for (const [tokenId, account, balance] of b.reads ?? []) batch.holder({ tokenId, account, balance, blockNumber: b.n, free: null, reserved: null, frozen: null, transferable: null, status: null });
    for (const [lpTokenId, account, balance] of b.lp ?? []) batch.lpHolder({ lpTokenId, account, balance, blockNumber: b.n });
    for (const p of b.pools ?? []) {
      const reserves = { token0Id: KSM, token1Id: p.t1, reserve0: p.r0.toString(), reserve1: p.r1.toString() };
      batch.pool({ ...reserves, lpTokenId: p.lp, account: `pool${p.lp}`, lpSupply: p.supply, lpFeePpm: 3_000, createdBlock: b.n, blockNumber: b.n });
      batch.reserves.push({ ...reserves, blockNumber: b.n, timestamp: time(b.n), lpSupply: p.supply, lpFeePpm: 3_000 });
    }
    batch.blocks.push({ number: b.n, hash: `0x${b.n.toString(16)}`, timestamp: time(b.n) });
  }
  const last = blocks[blocks.length - 1]!.n;
  await batch.commit(db, { blockNumber: last, blockHash: `0x${last.toString(16)}`, chainFinalized: last });
}

describeDb("a portfolio and a pair as of a block", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const get = async (path: string) => {
    const res = await t.get(path, auth);
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };

  beforeEach(async () => {
    await setTask(ctx.db, CHAIN_TASK, { ss58: 2, genesisHash: "0x" + "00".repeat(32), specName: "statemine" });
    // 100: the snapshot. KSM/T1984 pool: 1 KSM and 20 USDt, LP supply 100, ALICE holds 40 of it.
    await commit(ctx.db, [
      {
        n: 100,
        tokens: [[KSM, "KSM", 12], [USDT, "USDt", 6], [TEN, "TEN", 6]],
        reads: [[USDT, ALICE, "500"], [TEN, ALICE, "5"], [USDT, BOB, "9"]],
        lp: [[LP, ALICE, "40"]],
        pools: [{ t1: USDT, lp: LP, r0: KSM_UNIT, r1: 20_000_000n, supply: "100" }],
      },
    ]);
    await snapshotTaken(ctx.db, "holders", 100);
    await snapshotTaken(ctx.db, "lp", 100);
    await insertPrices(ctx.db, [
      { tokenId: KSM, blockNumber: 100, priceUsd: "30" },
      { tokenId: USDT, blockNumber: 100, priceUsd: "1.5" },
      { tokenId: KSM, blockNumber: 101, priceUsd: "40" },
      { tokenId: USDT, blockNumber: 101, priceUsd: "2" },
      { tokenId: USDT, blockNumber: 105, priceUsd: null },
    ]);
    // 101: liquidity doubled (2 KSM, 40 USDt, LP 200), ALICE 50 LP and 300 USDt.
    await commit(ctx.db, [{ n: 101, reads: [[USDT, ALICE, "300"]], lp: [[LP, ALICE, "50"]], pools: [{ t1: USDT, lp: LP, r0: 2n * KSM_UNIT, r1: 40_000_000n, supply: "200" }] }]);
    // 102: a second pool, KSM/TEN, created. 103: TEN destroyed. 104–105 in one batch: a swap moves
    // the KSM/USDt reserves to 2 KSM / 30 USDt at 105, and ALICE leaves the pool there.
    await commit(ctx.db, [{ n: 102, pools: [{ t1: TEN, lp: LP_TEN, r0: KSM_UNIT, r1: 1_000n, supply: "10" }] }]);
    await commit(ctx.db, [{ n: 103, destroy: [TEN] }]);
    await commit(ctx.db, [
      { n: 104, reads: [[USDT, ALICE, "301"]] },
      { n: 105, reads: [[USDT, ALICE, "302"]], lp: [[LP, ALICE, "0"]], pools: [{ t1: USDT, lp: LP, r0: 2n * KSM_UNIT, r1: 30_000_000n, supply: "200" }] },
    ]);
    t = buildApp(ctx.db);
    auth = await authHeader(t);
  });

  it("the portfolio as of each block: balances, LP positions at that block's pool, prices of that block", async () => {
    // 100: USDt 500 × 1.5 / 10^6 = 0.00075; TEN unpriced; LP 40/100 of (1 KSM, 20 USDt) = 0.4 KSM × 30 + 8 USDt × 1.5 = 24.
    expect(await get(`/accounts/${ALICE}?at=100`)).toMatchObject({
      tokens: [
        { tokenId: USDT, balance: "500", valueUsd: "0.00075", blockNumber: 100, free: null, status: null },
        { tokenId: TEN, balance: "5", valueUsd: null },
      ],
      lpPositions: [
        {
          lpTokenId: LP,
          balance: "40",
          lpSupply: "100",
          share: "0.4",
          tokenA: { tokenId: KSM, amount: "400000000000", valueUsd: "12" },
          tokenB: { tokenId: USDT, amount: "8000000", valueUsd: "12" },
          valueUsd: "24",
          blockNumber: 100,
        },
      ],
      totalValueUsd: "24.00075",
      blockNumber: 100,
      timestamp: time(100),
      asOf: { blockNumber: 100, timestamp: time(100) },
    });
    // 102 (by time): USDt 300 × 2 = 0.0006; LP 50/200 of (2 KSM, 40 USDt) = 0.5 × 40 + 10 × 2 = 40.
    const at102 = await get(`/accounts/${ALICE}?atTime=${time(102) + 3}`);
    expect(at102).toMatchObject({ totalValueUsd: "40.0006", asOf: { blockNumber: 102 }, lpPositions: [{ balance: "50", lpSupply: "200", valueUsd: "40", blockNumber: 101 }] });
    expect((at102.tokens as unknown[]).length).toBe(2);
    // 103: TEN is gone (destroyed: ALICE's balance went to 0).
    expect(((await get(`/accounts/${ALICE}?at=103`)).tokens as Array<{ tokenId: number }>).map((x) => x.tokenId)).toEqual([USDT]);
    // 105: no position left; USDt's price expired there, so nothing is valued.
    expect(await get(`/accounts/${ALICE}?at=105`)).toMatchObject({ tokens: [{ tokenId: USDT, balance: "302", valueUsd: null }], lpPositions: [], totalValueUsd: "0", asOf: { blockNumber: 105 } });
    // 104 in the same batch as 105: its own value, not the batch's last.
    expect(await get(`/accounts/${ALICE}?at=104`)).toMatchObject({ tokens: [{ balance: "301" }], lpPositions: [{ balance: "50" }] });
    // Without at: the current answer, with its balance parts' keys and without asOf.
    const now = await get(`/accounts/${ALICE}`);
    expect(now).not.toHaveProperty("asOf");
    expect(now).toMatchObject({ tokens: [{ tokenId: USDT, balance: "302" }], lpPositions: [], blockNumber: 105 });
  });

  it("the pair as of each block: reserves, LP supply, fee and prices there, the 24 h change to it", async () => {
    // 100: 20 USDt per KSM; TVL 1 × 30 + 20 × 1.5 = 60.
    expect(await get(`/pool/stats/KSM/${USDT}?at=100`)).toMatchObject({
      tokenA: { tokenId: KSM, reserve: "1000000000000", priceUsd: "30" },
      tokenB: { tokenId: USDT, reserve: "20000000", priceUsd: "1.5" },
      price: "20",
      totalValueLocked: "60",
      lpSupply: "100",
      feeRate: "0.003",
      priceChange24h: "0",
      blockNumber: 100,
      asOf: { blockNumber: 100, timestamp: time(100) },
    });
    // 101: 2 KSM × 40 + 40 USDt × 2 = 160; oriented as asked.
    expect(await get(`/pool/stats/${USDT}/${KSM}?at=101`)).toMatchObject({ tokenA: { reserve: "40000000", priceUsd: "2" }, tokenB: { reserve: "2000000000000" }, price: "0.05", totalValueLocked: "160", lpSupply: "200" });
    // 105: 15 USDt per KSM (−25 % from 20 at the window's start); USDt unpriced, so TVL counts KSM only: 2 × 40.
    expect(await get(`/pool/stats/KSM/USDt?at=105`)).toMatchObject({ price: "15", priceChange24h: "-25", totalValueLocked: "80", tokenB: { priceUsd: null } });
    const now = await get(`/pool/stats/KSM/USDt`);
    expect(now).not.toHaveProperty("asOf");
    expect(now).toMatchObject({ price: "15", blockNumber: 105 });
    // Asked by ids, the pool is read beside the block and the tokens (api/services/pools.ts):
    // the same answers as asked by symbols, which are resolved first.
    for (const q of ["?at=100", "?at=101", "?at=104", "?at=105", `?atTime=${time(103)}`, ""]) {
      expect(await get(`/pool/stats/${KSM}/${USDT}${q}`), q).toEqual(await get(`/pool/stats/KSM/USDt${q}`));
      expect(await get(`/pool/stats/${USDT}/${KSM}${q}`), q).toEqual(await get(`/pool/stats/USDt/KSM${q}`));
    }
  });

  it("an answer needing balance and LP history is refused before the later of their floors, and without either", async () => {
    const err = (path: string) => t.get(path, auth);
    // LP history from 102 only: holders-only answers start at 100, those with LP positions at 102.
    await ctx.db.execute(sql`update history_floors set block_number = 102 where kind = 'lp'`);
    for (const path of [`/accounts/${ALICE}?at=101`, `/pool/stats/${KSM}/${USDT}?at=101`, `/pool/stats/KSM/USDt?at=101`])
      expect(await expectError(await err(path), 404, "BLOCK_BEFORE_HISTORY"), path).toContain("starts at block 102");
    expect(await get(`/accounts/${ALICE}/balances/${USDT}?at=101`)).toMatchObject({ asOf: { blockNumber: 101 } });
    expect(await get(`/assets/metadata/${USDT}?at=101`)).toMatchObject({ asOf: { blockNumber: 101 } });
    expect(await get(`/accounts/${ALICE}?at=102`)).toMatchObject({ asOf: { blockNumber: 102 } });
    // No LP history at all: those answers have no floor to start from; the holders-only ones still answer.
    await ctx.db.execute(sql`delete from history_floors where kind = 'lp'`);
    for (const path of [`/accounts/${ALICE}?at=103`, `/pool/stats/${KSM}/${USDT}?at=103`])
      expect(await expectError(await err(path), 404, "BLOCK_BEFORE_HISTORY"), path).toContain("no balance history yet");
    expect(await get(`/accounts/${ALICE}/balances/${USDT}?at=103`)).toMatchObject({ asOf: { blockNumber: 103 } });
    expect(await get(`/assets/metadata/${USDT}?at=103`)).toMatchObject({ asOf: { blockNumber: 103 } });
  });

  it("a backfill's upgrade block reads a pool twice at one block: one row, the last read (review)", async () => {
    const batch = new Batch();
    const row = (r0: bigint) => ({ token0Id: KSM, token1Id: USDT, blockNumber: 50, timestamp: time(50), reserve0: r0.toString(), reserve1: "1", lpSupply: "7", lpFeePpm: 3_000 });
    batch.reserves.push(row(1n), row(2n));
    batch.blocks.push({ number: 50, hash: "0x32", timestamp: time(50) });
    await batch.commitHistory(ctx.db);
    const rows = await ctx.db.execute(sql`select reserve0::text as r from pool_reserves where block_number = 50`);
    expect((Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows)).toEqual([{ r: "2" }]);
  });

  it("refuses what it cannot answer exactly: a pool not yet created, a token destroyed, before the floor, after the head, a pool's LP supply not on record", async () => {
    const err = (path: string) => t.get(path, auth);
    expect(await expectError(await err(`/pool/stats/KSM/${TEN}?at=101`), 404, "POOL_NOT_FOUND")).toContain("at block 101");
    expect(await get(`/pool/stats/KSM/${TEN}?at=102`)).toMatchObject({ tokenB: { tokenId: TEN, reserve: "1000" }, lpSupply: "10" });
    expect(await expectError(await err(`/pool/stats/KSM/${TEN}?at=103`), 404, "TOKEN_NOT_FOUND")).toContain("did not exist at block 103");
    // The same refusals asked by ids (the pool read beside the checks, not after them).
    expect(await expectError(await err(`/pool/stats/${KSM}/${TEN}?at=101`), 404, "POOL_NOT_FOUND")).toContain("at block 101");
    expect(await expectError(await err(`/pool/stats/${KSM}/${TEN}?at=103`), 404, "TOKEN_NOT_FOUND")).toContain("did not exist at block 103");
    expect(await expectError(await err(`/pool/stats/${KSM}/${TEN}?at=99`), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 100");
    await expectError(await err(`/pool/stats/${KSM}/${KSM}?at=100`), 400, "VALIDATION_ERROR");
    for (const path of [`/accounts/${ALICE}?at=99`, `/pool/stats/KSM/USDt?at=99`]) expect(await expectError(await err(path), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 100");
    for (const path of [`/accounts/${ALICE}?at=106`, `/pool/stats/KSM/USDt?atTime=${time(105) + 1}`]) await expectError(await err(path), 404, "BLOCK_NOT_INDEXED");
    for (const q of ["at=x", "at=01", "at=100&atTime=1700000000"]) {
      await expectError(await err(`/accounts/${ALICE}?${q}`), 400, "VALIDATION_ERROR");
      await expectError(await err(`/pool/stats/KSM/USDt?${q}`), 400, "VALIDATION_ERROR");
    }
    await expectError(await t.get(`/accounts/${ALICE}?at=100`), 401, "UNAUTHORIZED");
    // Single balances agree (review): the KSM/TEN pool, and so its LP token, did not exist at 101.
    expect(await expectError(await err(`/accounts/${ALICE}/lp-balances/${LP_TEN}?at=101`), 404, "TOKEN_NOT_FOUND")).toContain("did not exist at block 101");
    expect(await get(`/accounts/${ALICE}/lp-balances/${LP_TEN}?at=102`)).toMatchObject({ balance: "0", pool: { token0Id: KSM, token1Id: TEN } });
    // A block whose state is being read again (a runtime upgrade at 104): answers from it on wait.
    await setTask(ctx.db, "reread", { block: 104, hash: "0x68", scope: "all", reasons: ["runtime upgrade"], index: 0, lastKey: null, rows: 0 });
    for (const path of [`/accounts/${ALICE}?at=104`, `/pool/stats/KSM/USDt?at=105`, `/accounts/${ALICE}/balances/${USDT}?at=104`, `/assets/metadata/${USDT}?at=105`])
      expect(await expectError(await err(path), 404, "BLOCK_NOT_INDEXED"), path).toContain("being verified against chain storage");
    expect(await get(`/accounts/${ALICE}?at=103`)).toMatchObject({ asOf: { blockNumber: 103 } });
    expect(await get(`/accounts/${ALICE}`)).toMatchObject({ blockNumber: 105 }); // "now" answers as the current rows do
    // A kept answer (a holder snapshot at the newest block) must be final too.
    await expect(createSnapshot(ctx.db, {} as SnapshotRunner, { tokenId: USDT, userId: "u", clientKey: "203.0.113.7" }, SNAPSHOT_LIMITS)).rejects.toMatchObject({ code: "BLOCK_NOT_INDEXED" });
    await ctx.db.execute(sql`delete from indexer_tasks where name = 'reread'`);
    // The verification pass a runtime upgrade at 104 owes (its migrations announce nothing): the same.
    await setTask(ctx.db, "sweep-upgrade", { block: 104, specName: "statemine", specVersion: 1_009_004 });
    for (const path of [`/accounts/${ALICE}?at=104`, `/pool/stats/KSM/USDt?at=105`, `/accounts/${ALICE}/balances/${USDT}?at=104`, `/assets/metadata/${USDT}?at=105`])
      expect(await expectError(await err(path), 404, "BLOCK_NOT_INDEXED"), path).toContain("being verified against chain storage");
    expect(await get(`/accounts/${ALICE}?at=103`)).toMatchObject({ asOf: { blockNumber: 103 } });
    await ctx.db.execute(sql`delete from indexer_tasks where name = 'sweep-upgrade'`);
    // A store indexed before pool history (migration 0016): rows before 101 carry no LP supply.
    await ctx.db.execute(sql`update pool_reserves set lp_supply = null, lp_fee_ppm = null where block_number < 101`);
    t = buildApp(ctx.db);
    auth = await authHeader(t, "again@example.com");
    expect(await expectError(await err(`/pool/stats/KSM/USDt?at=100`), 404, "BLOCK_BEFORE_HISTORY")).toContain("from block 101");
    expect(await expectError(await err(`/accounts/${ALICE}?at=100`), 404, "BLOCK_BEFORE_HISTORY")).toContain("from block 101");
    expect(await get(`/pool/stats/KSM/USDt?at=101`)).toMatchObject({ lpSupply: "200" });
  });
});
