/**
 * The history tables partitioned by block range (migration 0023, db/queries/partitions.ts): an
 * insert makes the partition its block needs, concurrent writers make it once, lists and
 * balances read across partitions, and retention drops whole partitions.
 */
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { expect, it } from "vitest";
import {
  accountSwaps,
  accountTransfers,
  balanceAt,
  dropPartitionsBefore,
  holdingsAt,
  insertSwaps,
  insertTransfers,
  partitionsOf,
  poolSwaps,
  pruneHistory,
  pruneTransfers,
  recordBalances,
  rowsOf,
  setCheckpoint,
  tokenTransfers,
  type Database,
  type NewTransfer,
} from "../../db/index.js";
import { describeDb } from "../support/db.js";
import { explaining } from "../support/explain.js";

const transfer = (blockNumber: number, eventIndex = 0): NewTransfer => ({
  blockNumber,
  eventIndex,
  timestamp: 1_700_000_000 + blockNumber * 6,
  tokenId: 1984,
  fromAccount: "alice",
  toAccount: "bob",
  amount: String(blockNumber + 1),
  kind: "transfer",
  event: "assets.Transferred",
});

const count = async (db: Database, table: string) => Number(rowsOf<{ n: string | number }>(await db.execute(sql.raw(`select count(*) as n from "${table}"`)))[0]!.n);

describeDb("block partitions", (ctx) => {
  it("an insert far ahead makes its partition of 1,000,000 blocks, and its rows land there", async () => {
    await insertTransfers(ctx.db, [transfer(5), transfer(18_400_000), transfer(18_400_000, 1)]);
    const parts = (await partitionsOf(ctx.db, "transfers")).filter((p) => p.from === 0 || p.from === 18_000_000);
    expect(parts).toEqual([
      { name: "transfers_p0", from: 0, to: 1_000_000 },
      { name: "transfers_p18", from: 18_000_000, to: 19_000_000 },
    ]);
    expect(await count(ctx.db, "transfers_p18")).toBe(2);
    const page = await accountTransfers(ctx.db, "alice", undefined, {}, 10);
    expect(page.rows.map((r) => [r.blockNumber, r.eventIndex])).toEqual([[18_400_000, 1], [18_400_000, 0], [5, 0]]);
    // Written again (a replay): the same keys, nothing twice.
    await insertTransfers(ctx.db, [transfer(18_400_000)]);
    expect(await count(ctx.db, "transfers_p18")).toBe(2);
  });

  it("writers inserting into the same new ranges at once (backfill workers) make each partition once, and every row lands", async () => {
    const writers = Array.from({ length: 8 }, (_, i) =>
      ctx.db.transaction(async (tx) => insertTransfers(tx as unknown as Database, [transfer(7_000_000 + i), transfer(8_999_999 - i), transfer(9_000_000 + i)])),
    );
    await Promise.all(writers);
    const made = (await partitionsOf(ctx.db, "transfers")).filter((p) => p.from >= 7_000_000 && p.from < 10_000_000);
    expect(made.map((p) => p.name)).toEqual(["transfers_p7", "transfers_p8", "transfers_p9"]);
    expect([await count(ctx.db, "transfers_p7"), await count(ctx.db, "transfers_p8"), await count(ctx.db, "transfers_p9")]).toEqual([8, 8, 8]);
  });

  it("a balance as of a block is found partitions below it, and prune-history keeps it", async () => {
    await setCheckpoint(ctx.db, { blockNumber: 5_000_000, blockHash: "0x01", chainFinalized: 5_000_000 });
    await recordBalances(ctx.db, [
      { lp: false, tokenId: 7, account: "alice", blockNumber: 10, balance: "100" },
      { lp: false, tokenId: 7, account: "alice", blockNumber: 2_500_000, balance: "250" },
      { lp: false, tokenId: 7, account: "bob", blockNumber: 20, balance: "5" },
    ]);
    expect(await balanceAt(ctx.db, false, 7, "alice", 4_999_999)).toEqual({ balance: "250", blockNumber: 2_500_000 });
    expect(await balanceAt(ctx.db, false, 7, "alice", 2_499_999)).toEqual({ balance: "100", blockNumber: 10 });
    expect(await balanceAt(ctx.db, false, 7, "bob", 4_999_999)).toEqual({ balance: "5", blockNumber: 20 });
    // History from block 3,000,000: alice's older row is superseded and goes, bob's stays (still his balance).
    expect(await pruneHistory(ctx.db, 3_000_000)).toEqual({ balances: 1, tokens: 0 });
    expect(await balanceAt(ctx.db, false, 7, "bob", 4_999_999)).toEqual({ balance: "5", blockNumber: 20 });
    expect(await balanceAt(ctx.db, false, 7, "alice", 4_999_999)).toEqual({ balance: "250", blockNumber: 2_500_000 });
  });

  it("an account's holdings as of a block read only the partitions at or below its own, and in its own not the rows after it", async () => {
    const row = (tokenId: number, blockNumber: number, balance: string, account = "alice") => ({ lp: false, tokenId, account, blockNumber, balance });
    // Token 20 is first held after the block, by 20,000 accounts in its partition; token 21 by alice after it too.
    const later = Array.from({ length: 20_000 }, (_, i) => row(20, 1_600_000 + i, "1", `holder-${String(i).padStart(5, "0")}`));
    await recordBalances(ctx.db, [row(7, 10, "100"), row(8, 1_200_000, "50"), row(21, 1_700_000, "3"), row(9, 3_500_000, "9"), row(7, 3_600_000, "0"), ...later]);
    await ctx.db.execute(sql`analyze balance_history`);
    const at = 1_500_000;
    const seen: SQL[] = [];
    expect(await holdingsAt(recording(ctx.db, seen), false, "alice", at, 10)).toEqual([
      { tokenId: 7, balance: "100", blockNumber: 10 },
      { tokenId: 8, balance: "50", blockNumber: 1_200_000 },
    ]);
    const [row0] = rowsOf<Record<string, unknown>>(await ctx.db.execute(sql`explain (format json) ${seen[0]!}`));
    const raw = Object.values(row0!)[0];
    const plan = JSON.stringify(typeof raw === "string" ? JSON.parse(raw) : raw);
    const read = [...new Set([...plan.matchAll(/"Relation Name":\s*"(balance_history_p\d+)"/g)].map((m) => m[1]!))].sort();
    const parts = await partitionsOf(ctx.db, "balance_history");
    expect(parts.some((p) => p.from > at)).toBe(true);
    expect(read).toEqual(parts.filter((p) => p.from <= at).map((p) => p.name).sort());
    // The walk does not step through token 20's 20,000 index entries after the block (≈ 100 pages).
    const counted = explaining(ctx.db, "balance_history");
    await holdingsAt(counted.db, false, "alice", at, 10);
    expect(counted.work().buffers).toBeLessThan(60);
  });

  it("prune-history --transfers drops the partitions wholly before the block and deletes only in the one it falls in", async () => {
    const blocks = [10, 1_500_000, 1_500_001, 2_100_000, 2_900_000, 3_000_001];
    await insertTransfers(ctx.db, blocks.map((b) => transfer(b)));
    await setCheckpoint(ctx.db, { blockNumber: 3_000_001, blockHash: "0x02", chainFinalized: 3_000_001 });
    expect(await pruneTransfers(ctx.db, 2_500_000)).toEqual({ partitions: 2, dropped: 3, deleted: 1 });
    const left = (await partitionsOf(ctx.db, "transfers")).filter((p) => p.from < 4_000_000).map((p) => p.name);
    expect(left).toEqual(["transfers_p2", "transfers_p3"]);
    const page = await accountTransfers(ctx.db, "alice", undefined, {}, 10);
    expect(page.rows.map((r) => r.blockNumber)).toEqual([3_000_001, 2_900_000]);
    expect(await pruneTransfers(ctx.db, 2_500_000)).toEqual({ partitions: 0, dropped: 0, deleted: 0 });
    // Rows written again into the dropped range make its partition again (a backfill run later).
    await insertTransfers(ctx.db, [transfer(1_500_000)]);
    expect(await count(ctx.db, "transfers_p1")).toBe(1);
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default

  it("a partition an interrupted prune left detached: a write to its range says so (no row lost in silence), and the next prune drops it", async () => {
    await insertTransfers(ctx.db, [transfer(7_000_005)]);
    // Killed between its detach and its drop: transfers_p7 is a table of its own.
    await ctx.db.execute(sql.raw(`alter table transfers detach partition transfers_p7`));
    const refused = await insertTransfers(ctx.db, [transfer(7_000_006)]).then(() => undefined, (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ""}`);
    expect(refused).toMatch(/transfers_p7 is a partition detached by an interrupted prune-history: run tokenpool prune-history again/);
    const { partitions } = await dropPartitionsBefore(ctx.db, "transfers", 8_000_000);
    expect(partitions).toBeGreaterThanOrEqual(1);
    expect(rowsOf(await ctx.db.execute(sql`select to_regclass('transfers_p7') as t`))[0]).toEqual({ t: null });
    await insertTransfers(ctx.db, [transfer(7_000_006)]);
    expect(await count(ctx.db, "transfers_p7")).toBe(1);
  });

  it("a list reads its partitions newest first, a statement per slice, only those its bounds and cursor allow", async () => {
    await dropPartitionsBefore(ctx.db, "transfers", Number.MAX_SAFE_INTEGER); // other tests' (empty: the tables are emptied, not their partitions)
    await insertTransfers(ctx.db, [0, 1, 2, 3].flatMap((p) => Array.from({ length: 30 }, (_, i) => transfer(p * 1_000_000 + 100 + i))));
    await insertTransfers(ctx.db, [{ ...transfer(50), fromAccount: "carol" }]);
    await ctx.db.execute(sql`analyze transfers`);
    // The partitions each list statement's plan reads, in the order the statements ran.
    const scans = async (read: (db: Database) => Promise<unknown>) => {
      const seen: SQL[] = [];
      await read(recording(ctx.db, seen));
      const lists = seen.filter((q) => /from transfers/.test(new PgDialect().sqlToQuery(q).sql));
      const relations: string[][] = [];
      for (const list of lists) {
        const [row] = rowsOf<Record<string, unknown>>(await ctx.db.execute(sql`explain (format json) ${list}`));
        const raw = Object.values(row!)[0];
        const plan = JSON.stringify(typeof raw === "string" ? JSON.parse(raw) : raw);
        relations.push([...new Set([...plan.matchAll(/"Relation Name":\s*"([^"]+)"/g)].map((m) => m[1]!))].sort());
      }
      return relations;
    };
    const inRange = await scans((db) => accountTransfers(db, "alice", "out", { kind: "transfer", fromBlock: 1_000_050, toBlock: 1_999_999 }, 10));
    expect(inRange).toEqual([["transfers_p1"]]);
    // A first page filled by the newest partition reads only that one.
    expect(await scans((db) => accountTransfers(db, "alice", undefined, {}, 10))).toEqual([["transfers_p3"]]);
    const deep = await scans((db) => accountTransfers(db, "alice", "out", { kind: "transfer", before: { blockNumber: 1_000_110, eventIndex: 0 } }, 12));
    expect(deep).toEqual([["transfers_p1"], ["transfers_p0"]]);
    const page = await accountTransfers(ctx.db, "alice", "out", { kind: "transfer", before: { blockNumber: 1_000_110, eventIndex: 0 } }, 12);
    expect(page.rows.map((r) => r.blockNumber)).toEqual([...Array.from({ length: 10 }, (_, i) => 1_000_109 - i), 129, 128]);
    // A sparse list: the newest partition, then two, then the rest (log2(partitions) + 1 statements).
    expect(await scans((db) => accountTransfers(db, "carol", undefined, {}, 10))).toEqual([["transfers_p3"], ["transfers_p1", "transfers_p2"], ["transfers_p0"]]);
    expect((await accountTransfers(ctx.db, "carol", undefined, {}, 10)).rows.map((r) => r.blockNumber)).toEqual([50]);
    // A token's list, and an account's filtered by token (its scan bound counted across slices).
    expect((await tokenTransfers(ctx.db, { tokenId: 1984 }, { before: { blockNumber: 2_000_101, eventIndex: 0 } }, 4)).map((r) => r.blockNumber)).toEqual([2_000_100, 1_000_129, 1_000_128, 1_000_127]);
    const scanned = await accountTransfers(ctx.db, "alice", undefined, { asset: { tokenId: 7 }, before: { blockNumber: 2_000_105, eventIndex: 0 } }, 10, 40);
    expect(scanned).toEqual({ rows: [], stoppedAt: { blockNumber: 125, eventIndex: 0 } });
  });

  it("a pool's and a trader's swaps page newest first across partitions, exact from any cursor", async () => {
    const blocks = [10, 20, 1_000_010, 3_000_010, 3_000_020];
    const swap = { eventIndex: 1, hop: 0, token0Id: 0, token1Id: 1984, tokenIn: 0, tokenOut: 1984, amountIn: "1000", amountOut: "990", fee: "3", volumeUsd: "1", feeUsd: "0.003", account: "alice" };
    await insertSwaps(ctx.db, blocks.map((b) => ({ ...swap, blockNumber: b, timestamp: 1_700_000_000 + b * 6 })));
    const pool = { token0Id: 0, token1Id: 1984 };
    const first = await poolSwaps(ctx.db, pool, 3);
    expect(first.map((r) => r.blockNumber)).toEqual([3_000_020, 3_000_010, 1_000_010]);
    const rest = await poolSwaps(ctx.db, pool, 3, { blockNumber: 1_000_010, eventIndex: 1, hop: 0 });
    expect(rest.map((r) => r.blockNumber)).toEqual([20, 10]);
    const mine = await accountSwaps(ctx.db, "alice", 10, { fromBlock: 15, toBlock: 3_000_015 });
    expect(mine.map((r) => r.blockNumber)).toEqual([3_000_010, 1_000_010, 20]);
  });
});

/** `db` with every statement it runs (its transactions' too) added to `seen`. */
function recording(db: Database, seen: SQL[]): Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "execute") return (q: SQL) => (seen.push(q), target.execute(q));
      if (prop === "transaction") return (run: (tx: Database) => Promise<unknown>) => target.transaction((tx) => run(recording(tx as unknown as Database, seen)));
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
