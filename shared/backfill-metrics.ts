/**
 * The backfill's gauges for the indexer's metrics (shared/metrics.ts, IndexerMetrics).
 */
import { Gauge, type Registry } from "prom-client";

/** The latest `tokenpool backfill` run and the store's history coverage, as the store has them (db/queries/backfill-runs.ts). */
export interface BackfillMetricSource {
  blocksDone: number;
  blocksTotal: number;
  blocksPerSecond: number;
  chunksDone: number;
  chunksTotal: number;
  state: string;
  historyFrom: number | null;
  gapBlocks: number;
}

/**
 * The backfill gauges, read from the store at a scrape (one read serves all of them): a
 * backfill is a separate process, often on another machine, that records its progress there.
 * Before any run (or without a store to read) they are 0.
 */
export function backfillGauges(registry: Registry, source: (() => Promise<BackfillMetricSource | null>) | undefined): void {
  // A scrape collects every gauge at once: they share the read in flight.
  let inFlight: Promise<BackfillMetricSource | null> | undefined;
  const read = () => {
    if (!source) return Promise.resolve(null);
    inFlight ??= source()
      .catch(() => null)
      .finally(() => (inFlight = undefined));
    return inFlight;
  };
  const gauge = (name: string, help: string, value: (b: BackfillMetricSource) => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.reset();
        const b = await read();
        const v = b ? value(b) : null;
        if (v !== null) this.set(v);
      },
    });
  gauge("tokenpool_backfill_blocks_done", "Blocks of the latest backfill run's range indexed (including those it found done)", (b) => b.blocksDone);
  gauge("tokenpool_backfill_blocks_total", "Blocks in the latest backfill run's range", (b) => b.blocksTotal);
  gauge("tokenpool_backfill_blocks_per_second", "Blocks per second of the latest backfill run", (b) => b.blocksPerSecond);
  gauge("tokenpool_backfill_chunks_done", "Chunks of the latest backfill run done", (b) => b.chunksDone);
  gauge("tokenpool_backfill_chunks_total", "Chunks of the latest backfill run", (b) => b.chunksTotal);
  gauge("tokenpool_backfill_running", "1 while the latest backfill run is writing progress, 0 once it ended or stalled", (b) => (b.state === "running" ? 1 : 0));
  gauge("tokenpool_history_from_block", "The store's first block with events: where history starts", (b) => b.historyFrom);
  gauge("tokenpool_history_gap_blocks", "Blocks after that whose events the store lacks", (b) => b.gapBlocks);
}
