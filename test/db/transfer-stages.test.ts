/**
 * The bulk path of a backfill (db/queries/transfer-stages.ts): an empty partition of transfers
 * loaded as a table without indexes, invisible and not held until completed chunks cover what the
 * run asked for, then attached with its five indexes and its blocks held in one step; a chunk
 * loaded twice is kept once; a partition made row by row meanwhile takes the stage's rows; a
 * chunk done after the attach holds its own blocks. Each test uses partitions of its own.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  accountIds,
  completeChunk,
  finishStages,
  insertStagedTransfers,
  insertTransfers,
  latestBackfill,
  loadingStages,
  markChunkDone,
  missingIn,
  partitionsOf,
  planStages,
  pruneTransfers,
  recordEventRanges,
  resetIndexedData,
  rowsOf,
  setCheckpoint,
  stageFor,
  startBackfillRun,
  tokenTransfers,
  transferAddresses,
  type Database,
  type NewTransfer,
} from "../../db/index.js";
import { backfillLine } from "../../cli/status-lines.js";
import { describeDb } from "../support/db.js";
import { loadChunk, transfersOf } from "../support/stages.js";

const M = 1_000_000;

describeDb("the bulk path of a backfill: transfer stages", (ctx) => {
  const listed = async (from: number, to: number) =>
    (await tokenTransfers(ctx.db, { tokenId: 1984 }, { fromBlock: from, toBlock: to }, 100)).map((r) => `${r.blockNumber}/${r.eventIndex}:${r.fromAccount}>${r.toAccount}:${r.amount}:${r.kind}`);
  const indexesOf = async (table: string) =>
    rowsOf<{ def: string }>(await ctx.db.execute(sql`select regexp_replace(pg_get_indexdef(indexrelid), '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ', '\\1') as def from pg_index where indrelid = ${table}::regclass order by 1`)).map((r) => r.def);

  it("a stage is opened only for an empty partition the run asks enough of; the rows and blocks appear together when its last chunk completes, with the partition's five indexes", async () => {
    const base = 40 * M;
    // Partition 41 already holds rows, 42 has held blocks (no transfers), 43 is asked too little of.
    await insertTransfers(ctx.db, transfersOf(41 * M, 41 * M));
    await recordEventRanges(ctx.db, [{ fromBlock: 42 * M + 5, toBlock: 42 * M + 5 }]);
    const chunks = [
      { from: base + 11, to: base + 20 },
      { from: base + 1, to: base + 10 },
      { from: 41 * M + 1, to: 41 * M + 20 },
      { from: 42 * M + 1, to: 42 * M + 20 },
      { from: 43 * M + 1, to: 43 * M + 5 },
    ];
    expect(await planStages(ctx.db, chunks, 0)).toEqual([]);
    expect(await planStages(ctx.db, chunks, 10)).toEqual([base]);
    expect(await loadingStages(ctx.db)).toContainEqual({ partitionStart: base, fromBlock: base + 1, toBlock: base + 20 });
    // Operators see it (status, /health): the blocks are written but not yet held.
    await startBackfillRun(ctx.db, { fromBlock: base + 1, toBlock: base + 20, runtimes: 1, chunksTotal: 2, chunksDone: 0, blocksTotal: 20, blocksDone: 0 });
    const seen = `transfers of blocks ${base + 1}–${base + 20} loading in bulk (held once attached)`;
    const progress = (await latestBackfill(ctx.db))!;
    expect(backfillLine(progress)).toContain(seen);
    // A whole chain's 18 partitions are one segment, not 18.
    const many = Array.from({ length: 18 }, (_, i) => ({ partitionStart: i * M, fromBlock: Math.max(1, i * M), toBlock: i * M + M - 1 }));
    expect(backfillLine({ ...progress, bulkLoading: many })).toMatch(/; transfers of 18 partitions \(blocks 1–17999999\) loading in bulk \(held once attached\)\n$/);
    const stage = await stageFor(ctx.db, chunks[0]!);
    expect(stage).toBe("transfers_s40");
    expect(await stageFor(ctx.db, chunks[2]!)).toBeUndefined();

    await loadChunk(ctx.db, stage!, base + 11, base + 20);
    expect(await completeChunk(ctx.db, { fromBlock: base + 11, toBlock: base + 20, swaps: 0 }, true)).toBeUndefined();
    // Completed again (--redo): its blocks count twice, reaching the 20 asked for, but the completed chunks do not cover them.
    expect(await completeChunk(ctx.db, { fromBlock: base + 11, toBlock: base + 20, swaps: 0 }, true)).toBeUndefined();
    // Loaded and completed, but not yet attached: nothing listed, and the blocks said missing.
    expect(await listed(base, base + M - 1)).toEqual([]);
    expect(await missingIn(ctx.db, base + 1, base + 20)).toEqual({ fromBlock: base + 1, toBlock: base + 20 });
    await loadChunk(ctx.db, stage!, base + 1, base + 10);
    const finished = await completeChunk(ctx.db, { fromBlock: base + 1, toBlock: base + 10, swaps: 0 }, true);
    expect(finished).toMatchObject({ partitionStart: base, how: "attached", rows: 40, duplicates: 0 });

    const expected = transfersOf(base + 1, base + 20)
      .reverse()
      .map((r) => `${r.blockNumber}/${r.eventIndex}:${r.fromAccount}>${r.toAccount}:${r.amount}:${r.kind}`);
    expect(await listed(base, base + M - 1)).toEqual(expected);
    expect(await missingIn(ctx.db, base + 1, base + 20)).toBeUndefined();
    expect((await partitionsOf(ctx.db, "transfers")).find((p) => p.from === base)).toEqual({ name: "transfers_p40", from: base, to: base + M });
    // The same five indexes as a partition made row by row (41), and the stage's table is gone.
    expect(await indexesOf("transfers_p40")).toEqual(await indexesOf("transfers_p41"));
    expect(await indexesOf("transfers_p40")).toHaveLength(5);
    expect(rowsOf<{ t: string | null }>(await ctx.db.execute(sql`select to_regclass('transfers_s40')::text as t`))[0]!.t).toBeNull();
    expect(await loadingStages(ctx.db)).not.toContainEqual(expect.objectContaining({ partitionStart: base }));
    expect(backfillLine(await latestBackfill(ctx.db))).not.toContain(seen);
    // The key holds from now on: the per-row path writes into the partition, once.
    await insertTransfers(ctx.db, transfersOf(base + 20, base + 21));
    expect(await listed(base + 20, base + 21)).toHaveLength(4);
  });

  it("a chunk loaded twice (a retry, a job taken over) is kept once: the duplicates go before the key is built", async () => {
    const base = 44 * M;
    expect(await planStages(ctx.db, [{ from: base, to: base + 9 }], 1)).toEqual([base]);
    await loadChunk(ctx.db, "transfers_s44", base, base + 4); // the first attempt's first batch
    await loadChunk(ctx.db, "transfers_s44", base, base + 9); // the retry, whole
    const finished = await completeChunk(ctx.db, { fromBlock: base, toBlock: base + 9, swaps: 0 }, true);
    expect(finished).toMatchObject({ how: "attached", rows: 20, duplicates: 10 });
    expect(await listed(base, base + 9)).toHaveLength(20);
    expect(Number(rowsOf<{ n: string }>(await ctx.db.execute(sql`select count(*) as n from transfers_p44`))[0]!.n)).toBe(20);
  });

  it("a partition made row by row meanwhile takes the stage's rows under its key; a chunk completed after the attach holds its own blocks", async () => {
    const base = 45 * M;
    expect(await planStages(ctx.db, [{ from: base + 1, to: base + 10 }], 1)).toEqual([base]);
    await loadChunk(ctx.db, "transfers_s45", base + 1, base + 10);
    // Another run on the per-row path wrote blocks 9–12 meanwhile (9 and 10 are the stage's too).
    await insertTransfers(ctx.db, transfersOf(base + 9, base + 12));
    expect(await completeChunk(ctx.db, { fromBlock: base + 1, toBlock: base + 10, swaps: 0 }, true)).toMatchObject({ how: "merged", rows: 20 });
    expect(await listed(base, base + 20)).toHaveLength(24);
    expect(rowsOf<{ t: string | null }>(await ctx.db.execute(sql`select to_regclass('transfers_s45')::text as t`))[0]!.t).toBeNull();
    expect(await missingIn(ctx.db, base + 1, base + 10)).toBeUndefined();

    // A chunk that started on the stage before the attach completes after it: its blocks held.
    await insertTransfers(ctx.db, transfersOf(base + 30, base + 31));
    await recordEventRanges(ctx.db, [{ fromBlock: base + 50, toBlock: base + 50 }]); // held after them: they are a gap, not the future
    expect(await missingIn(ctx.db, base + 30, base + 31)).toEqual({ fromBlock: base + 30, toBlock: base + 31 });
    expect(await completeChunk(ctx.db, { fromBlock: base + 30, toBlock: base + 31, swaps: 0 }, true)).toBeUndefined();
    expect(await missingIn(ctx.db, base + 30, base + 31)).toBeUndefined();
  });

  it("a stage whose last completion was lost (a crash between marking and attaching) is finished by the next run", async () => {
    const base = 46 * M;
    await planStages(ctx.db, [{ from: base + 1, to: base + 4 }], 1);
    await loadChunk(ctx.db, "transfers_s46", base + 1, base + 4);
    await markChunkDone(ctx.db, { fromBlock: base + 1, toBlock: base + 4, swaps: 0 });
    expect(await listed(base, base + 4)).toEqual([]);
    expect((await finishStages(ctx.db)).map((f) => [f.partitionStart, f.how])).toContainEqual([base, "attached"]);
    expect(await listed(base, base + 4)).toHaveLength(8);
    expect(await missingIn(ctx.db, base + 1, base + 4)).toBeUndefined();
    // Planned again after retention dropped it, the stage starts over.
    await ctx.db.execute(sql`alter table transfers detach partition transfers_p46`);
    await ctx.db.execute(sql`drop table transfers_p46`);
    await ctx.db.execute(sql`delete from event_ranges where from_block >= ${base}`);
    expect(await planStages(ctx.db, [{ from: base + 1, to: base + 4 }], 1)).toEqual([base]);
    expect(await stageFor(ctx.db, { from: base + 1, to: base + 4 })).toBe("transfers_s46");
    // Its old completed chunk was done before the stage opened again: it is not taken as loaded.
    expect((await finishStages(ctx.db)).map((f) => f.partitionStart)).not.toContain(base);
  });

  it("a reset of the indexed data (a devnet started again) leaves no stage behind: the new chain's run loads a stage of its own rows only", async () => {
    const base = 47 * M;
    expect(await planStages(ctx.db, [{ from: base + 1, to: base + 10 }], 1)).toEqual([base]);
    await loadChunk(ctx.db, "transfers_s47", base + 1, base + 10); // the old chain's rows
    await resetIndexedData(ctx.db);
    expect(await stageFor(ctx.db, { from: base + 1, to: base + 10 })).toBeUndefined();
    expect(await loadingStages(ctx.db)).toEqual([]);
    // The new chain's run asks blocks 1–5 of the partition: only its rows are attached and held.
    expect(await planStages(ctx.db, [{ from: base + 1, to: base + 5 }], 1)).toEqual([base]);
    await loadChunk(ctx.db, "transfers_s47", base + 1, base + 5);
    expect(await completeChunk(ctx.db, { fromBlock: base + 1, toBlock: base + 5, swaps: 0 }, true)).toMatchObject({ how: "attached", rows: 10, duplicates: 0 });
    expect(await listed(base, base + 20)).toHaveLength(10);
    expect(await missingIn(ctx.db, base + 1, base + 5)).toBeUndefined();
  });
  it("a migration of transfers while a stage loads (a column added) does not wedge it: its rows are merged into the partition by name", async () => {
    const base = 48 * M;
    expect(await planStages(ctx.db, [{ from: base + 1, to: base + 4 }], 1)).toEqual([base]);
    await loadChunk(ctx.db, "transfers_s48", base + 1, base + 4);
    await ctx.db.execute(sql`alter table transfers add column note text`);
    try {
      expect(await completeChunk(ctx.db, { fromBlock: base + 1, toBlock: base + 4, swaps: 0 }, true)).toMatchObject({ how: "merged", rows: 8 });
      expect(await listed(base, base + 4)).toHaveLength(8);
      expect(await missingIn(ctx.db, base + 1, base + 4)).toBeUndefined();
    } finally {
      await ctx.db.execute(sql`alter table transfers drop column note`);
    }
  });

  it("retention drops the stages of partitions it gives up, table and row: attached later, they would bring those rows back", async () => {
    const base = 49 * M;
    await planStages(ctx.db, [{ from: base + 1, to: base + 4 }, { from: 50 * M + 1, to: 50 * M + 4 }], 1);
    await loadChunk(ctx.db, "transfers_s49", base + 1, base + 4);
    await setCheckpoint(ctx.db, { blockNumber: 51 * M, blockHash: "0x51", chainFinalized: 51 * M });
    await pruneTransfers(ctx.db, 50 * M);
    expect((await loadingStages(ctx.db)).map((s) => s.partitionStart)).toEqual([50 * M]);
    expect(rowsOf<{ t: string | null }>(await ctx.db.execute(sql`select to_regclass('transfers_s49')::text as t`))[0]!.t).toBeNull();
    expect(await stageFor(ctx.db, { from: 50 * M + 1, to: 50 * M + 4 })).toBe("transfers_s50");
  });
  it("every column of every row comes out of a stage as the per-row path writes it, whatever its text holds; a batch rolled back leaves none", async () => {
    const [staged, perRow] = [47 * M, 48 * M];
    // Every column set or null, a u128 amount, and text that COPY's format must escape.
    const odd = (base: number): NewTransfer[] => [
      { blockNumber: base + 1, eventIndex: 0, extrinsicIndex: 3, timestamp: 6, tokenId: 1984, fromAccount: "alice", toAccount: "bob", amount: "340282366920938463463374607431768211455", kind: "fee", event: "assets.Transferred", valueUsd: "0.000001", tip: "7" },
      { blockNumber: base + 1, eventIndex: 1, extrinsicIndex: null, timestamp: 6, tokenId: null, lpTokenId: 5, fromAccount: null, toAccount: "carol", amount: "1", kind: "mint", event: "pool\tAssets.\\Issued\n\r\\N", valueUsd: null, tip: null },
      { blockNumber: base + 2, eventIndex: 0, timestamp: 12, tokenId: 7, fromAccount: "bob", toAccount: null, amount: "0", kind: "burn", event: "x\ty\u00e9\\", valueUsd: "12.5" },
    ];
    expect(await planStages(ctx.db, [{ from: staged + 1, to: staged + 2 }], 1)).toEqual([staged]);
    const rows = odd(staged);
    const ids = await accountIds(ctx.db, transferAddresses(rows));
    // A batch that fails after its transfers are appended takes them back with it.
    await expect(
      ctx.db.transaction(async (tx) => {
        await insertStagedTransfers(tx as unknown as Database, "transfers_s47", rows, ids);
        throw new Error("the batch fails");
      }),
    ).rejects.toThrow("the batch fails");
    expect(Number(rowsOf<{ n: string }>(await ctx.db.execute(sql`select count(*) as n from transfers_s47`))[0]!.n)).toBe(0);
    await insertStagedTransfers(ctx.db, "transfers_s47", rows, ids);
    await markChunkDone(ctx.db, { fromBlock: staged + 1, toBlock: staged + 2, swaps: 0 });
    expect(await completeChunk(ctx.db, { fromBlock: staged + 1, toBlock: staged + 2, swaps: 0 }, true)).toMatchObject({ how: "attached", rows: 3 });
    await insertTransfers(ctx.db, odd(perRow));
    const all = async (base: number) =>
      rowsOf<Record<string, unknown>>(await ctx.db.execute(sql`select block_number - ${base} as block, event_index, extrinsic_index, timestamp, token_id, lp_token_id, from_id, to_id, amount::text, kind, event, value_usd::text, tip::text from transfers where block_number between ${base} and ${base + M - 1} order by 1, 2`));
    const stagedRows = await all(staged);
    expect(stagedRows).toHaveLength(3);
    expect(stagedRows).toEqual(await all(perRow));
    expect(stagedRows.map((r) => r.event)).toEqual(rows.map((r) => r.event));
  });
});

