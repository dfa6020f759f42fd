/**
 * Inserts of the ingestion hot path as `select * from unnest(…)` (db/queries/bulk.ts) store what
 * drizzle's VALUES list stored: the same values, NULLs, quotes and backslashes, the column's
 * default for a value left out, the same conflicts and returned rows.
 */
import { asc, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { ensurePartitions, schema } from "../../db/index.js";
import { unnestRows } from "../../db/queries/bulk.js";
import { describeDb } from "../support/db.js";

const swap = (eventIndex: number, extra: Partial<typeof schema.swaps.$inferInsert> = {}): typeof schema.swaps.$inferInsert => ({
  blockNumber: 7,
  eventIndex,
  hop: 0,
  token0Id: 0,
  token1Id: 4_294_967_296_123,
  tokenIn: 0,
  tokenOut: 4_294_967_296_123,
  amountIn: "340282366920938463463374607431768211455",
  amountOut: "1",
  fee: "0",
  volumeUsd: "12.345678901234567891",
  feeUsd: "0",
  account: 'a "quoted\\ account", {NULL}',
  timestamp: 1_780_000_000,
  ...extra,
});

describeDb("unnest inserts", (ctx) => {
  it("store exactly the rows a VALUES list stores, with NULLs, defaults, conflicts and returning", async () => {
    const { swaps, poolCandles } = schema;
    const rows = [swap(1), swap(2, { account: null, extrinsicIndex: null, hops: 2 }), swap(3, { account: "NULL", extrinsicIndex: 4 })];
    await ensurePartitions(ctx.db, "swaps", [7]); // what insertSwaps does before its insert
    const returned = await ctx.db.insert(swaps).select(unnestRows(swaps, rows)).onConflictDoNothing().returning({ eventIndex: swaps.eventIndex, token1Id: swaps.token1Id, volumeUsd: swaps.volumeUsd });
    expect(returned).toEqual(rows.map((r) => ({ eventIndex: r.eventIndex, token1Id: r.token1Id, volumeUsd: r.volumeUsd })));
    // A conflict inserts and returns nothing, as with VALUES.
    expect(await ctx.db.insert(swaps).select(unnestRows(swaps, [swap(1, { amountOut: "2" })])).onConflictDoNothing().returning()).toEqual([]);
    const viaUnnest = await ctx.db.select().from(swaps).orderBy(asc(swaps.eventIndex));
    await ctx.db.execute(sql`truncate swaps`);
    await ctx.db.insert(swaps).values(rows);
    expect(await ctx.db.select().from(swaps).orderBy(asc(swaps.eventIndex))).toEqual(viaUnnest);
    expect(viaUnnest.map((r) => [r.account, r.hops])).toEqual([[rows[0]!.account, 1], [null, 2], ["NULL", 1]]);

    // Columns left out take their defaults (a pool candle written from reserves has no volume yet).
    const candle = { token0Id: 0, token1Id: 1, res: 60, bucket: 120, openBlock: 3, openReserve0: "10", openReserve1: null };
    await ctx.db.insert(poolCandles).select(unnestRows(poolCandles, [candle]));
    const [row] = await ctx.db.select().from(poolCandles);
    expect(row).toMatchObject({ ...candle, closeBlock: null, volume0: "0", volumeUsd: "0", swaps: 0 });
  });
});
