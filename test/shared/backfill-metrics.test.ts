/** The backfill's metrics are read from the store at a scrape: the backfill is another process, which records its progress there. */
import { expect, it } from "vitest";
import { backfillMetricSource, insertBlocks, startBackfillRun, updateBackfillRun } from "../../db/index.js";
import { IndexerMetrics } from "../../shared/metrics.js";
import { describeDb, oneStore } from "../support/db.js";

describeDb("backfill metrics", (ctx) => {
  it("expose the latest run's blocks done and total, blocks/s, chunks, whether it runs, and where history starts and how many blocks it lacks", async () => {
    const metrics = new IndexerMetrics(undefined, undefined, () => backfillMetricSource(ctx.db));
    const text = () => metrics.registry.metrics();
    // No run yet: the gauges are there (a dashboard may query them), at 0.
    expect(await text()).toContain("\ntokenpool_backfill_blocks_total 0\n");
    expect(await text()).toContain("\ntokenpool_backfill_running 0\n");
    expect(await text()).toContain("\ntokenpool_history_from_block 0\n"); // no history at all yet

    // History: blocks 101–110 and 121–130 (a gap of 10 in between).
    const block = (number: number) => ({ number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: 1_700_000_000 + number * 6 });
    await insertBlocks(ctx.db, [...Array.from({ length: 10 }, (_, i) => block(101 + i)), ...Array.from({ length: 10 }, (_, i) => block(121 + i))]);
    // A store that was never backfilled has a history all the same (from its first start).
    expect(await text()).toContain("\ntokenpool_history_from_block 101\n");
    expect(await text()).toContain("\ntokenpool_history_gap_blocks 10\n");
    const run = await startBackfillRun(ctx.db, { fromBlock: 1, toBlock: 130, runtimes: 2, chunksTotal: 13, chunksDone: 1, blocksTotal: 130, blocksDone: 10 });
    await updateBackfillRun(ctx.db, run, { chunksDone: 2, blocksDone: 20, blocksPerSecond: 12.5 });
    const out = await text();
    for (const line of [
      "tokenpool_backfill_blocks_done 20",
      "tokenpool_backfill_blocks_total 130",
      "tokenpool_backfill_blocks_per_second 12.5",
      "tokenpool_backfill_chunks_done 2",
      "tokenpool_backfill_chunks_total 13",
      "tokenpool_backfill_running 1",
      "tokenpool_history_from_block 101",
      "tokenpool_history_gap_blocks 10",
    ]) {
      expect(out).toContain(`\n${line}\n`);
    }
    await updateBackfillRun(ctx.db, run, { chunksDone: 13, blocksDone: 130, blocksPerSecond: 12, state: "done" });
    expect(await text()).toContain("\ntokenpool_backfill_running 0\n");
  });
}, oneStore("pglite"));
