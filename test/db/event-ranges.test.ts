/**
 * event_ranges (db/queries/coverage.ts): merged as blocks are written in any order, and built by
 * migration 0021 from the blocks a store already had, its bootstrap's block left out unless a
 * backfill chunk covered it.
 */
import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { insertBlocks, markChunkDone, rowsOf, setTask } from "../../db/index.js";
import { describeDb } from "../support/db.js";

const block = (n: number) => ({ number: n, hash: `0x${n.toString(16)}`, timestamp: 1_700_000_000 + n * 12 });

describeDb("event ranges", (ctx) => {
  const ranges = async () => rowsOf<{ f: string | number; t: string | number }>(await ctx.db.execute(sql`select from_block as f, to_block as t from event_ranges order by from_block`)).map((r) => [Number(r.f), Number(r.t)]);

  it("blocks written in any order, a snapshot's left out, become one row per run", async () => {
    await insertBlocks(ctx.db, [block(10)], 10); // a bootstrap's block: its state, not its events
    await insertBlocks(ctx.db, [block(14), block(12)]);
    await insertBlocks(ctx.db, [block(11)]);
    expect(await ranges()).toEqual([[11, 12], [14, 14]]);
    await insertBlocks(ctx.db, [block(20), block(13)]);
    expect(await ranges()).toEqual([[11, 14], [20, 20]]);
    await insertBlocks(ctx.db, [block(10)]); // a backfill reaches the bootstrap's block
    await insertBlocks(ctx.db, [block(12)], 12); // a snapshot at a block already held removes nothing
    expect(await ranges()).toEqual([[10, 14], [20, 20]]);
  });

  it("writers committing neighbouring blocks at once (follower, backfill workers) leave one row, not overlapping ones", async () => {
    const order = Array.from({ length: 40 }, (_, i) => (i * 17) % 40);
    await Promise.all(order.map((i) => ctx.db.transaction(async (tx) => insertBlocks(tx as unknown as typeof ctx.db, [block(100 + i)]))));
    expect(await ranges()).toEqual([[100, 139]]);
  });

  it("migration 0021 builds them from the blocks on record", async () => {
    const text = await readFile(new URL("../../db/migrations/0021_event_ranges.sql", import.meta.url), "utf8");
    const backfill = text.split("--> statement-breakpoint")[1]!;
    const store = async (numbers: number[]) => {
      await ctx.db.execute(sql`truncate blocks, event_ranges, backfill_chunks`);
      for (const n of numbers) await ctx.db.execute(sql`insert into blocks (number, hash, timestamp) values (${n}, ${`0x${n}`}, ${n})`);
      await ctx.db.execute(sql.raw(backfill));
      return ranges();
    };
    await setTask(ctx.db, "bootstrap", { number: 100, finished: true });
    const blocks = [...Array.from({ length: 11 }, (_, i) => 100 + i), 120, 121, 122];
    expect(await store(blocks)).toEqual([[101, 110], [120, 122]]);
    await store([]);
    await markChunkDone(ctx.db, { fromBlock: 90, toBlock: 100, swaps: 0 });
    await ctx.db.execute(sql`truncate blocks, event_ranges`);
    for (const n of [...Array.from({ length: 11 }, (_, i) => 90 + i), 101]) await ctx.db.execute(sql`insert into blocks (number, hash, timestamp) values (${n}, ${`0x${n}`}, ${n})`);
    await ctx.db.execute(sql.raw(backfill));
    expect(await ranges()).toEqual([[90, 101]]); // a backfill covered the bootstrap's block
  });
});
