/**
 * `tokenpool backfill` runs (db/schema/chain.ts, backfill_runs) and what the store's history
 * covers while they run: what `tokenpool status`, /health and the indexer's metrics show.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../database.js";
import { backfillRuns } from "../schema/index.js";
import { eventCoverage } from "./coverage.js";
import { loadingStages } from "./transfer-stages.js";

/** A run that has not written for this long is a process that died (it writes every few seconds). */
export const BACKFILL_STALLED_SECONDS = 60;

export interface BackfillRunStart {
  fromBlock: number;
  toBlock: number;
  runtimes: number;
  chunksTotal: number;
  chunksDone: number;
  blocksTotal: number;
  blocksDone: number;
}

export interface BackfillRunUpdate {
  chunksDone: number;
  blocksDone: number;
  blocksPerSecond: number;
  state?: "running" | "done" | "interrupted" | "failed";
  error?: string | null;
}

export async function startBackfillRun(db: Database, run: BackfillRunStart): Promise<number> {
  const [row] = await db
    .insert(backfillRuns)
    .values({ ...run, blocksPerSecond: 0, state: "running" })
    .returning({ id: backfillRuns.id });
  return row!.id;
}

export async function updateBackfillRun(db: Database, id: number, u: BackfillRunUpdate): Promise<void> {
  await db
    .update(backfillRuns)
    .set({ ...u, updatedAt: sql`now()` })
    .where(eq(backfillRuns.id, id));
}

/** The store's history: its first event block and the gaps after it (count and blocks). */
export interface HistoryCoverage {
  historyFrom: number | null;
  gaps: number;
  gapBlocks: number;
  /** More gaps than listed (coverage.ts MAX_GAPS): gaps and gapBlocks count the newest only. */
  moreGaps: boolean;
}

export async function historyCoverage(db: Database): Promise<HistoryCoverage> {
  const c = await eventCoverage(db);
  return {
    historyFrom: c.first?.number ?? null,
    gaps: c.gaps.length,
    gapBlocks: c.gaps.reduce((n, g) => n + g.toBlock - g.fromBlock + 1, 0),
    moreGaps: c.moreGaps,
  };
}

export interface BackfillProgress extends HistoryCoverage {
  from: number;
  to: number;
  runtimes: number;
  chunksDone: number;
  chunksTotal: number;
  blocksDone: number;
  blocksTotal: number;
  blocksPerSecond: number;
  /** Seconds left at that rate; null when unknown or not running. */
  etaSeconds: number | null;
  /** running, stalled (running, but no write for BACKFILL_STALLED_SECONDS: the process is gone), done, interrupted, failed. */
  state: "running" | "stalled" | "done" | "interrupted" | "failed";
  error: string | null;
  startedAt: string;
  updatedAt: string;
  /**
   * Partitions of transfers loading in bulk (db/queries/transfer-stages.ts): their blocks are
   * written but held (in historyFrom and the gaps) only once the stage is attached.
   */
  bulkLoading: { partitionStart: number; fromBlock: number; toBlock: number }[];
}

/** The newest backfill run with the store's coverage now; null when no backfill ever ran. */
export async function latestBackfill(db: Database): Promise<BackfillProgress | null> {
  const [run] = await db
    .select({ r: backfillRuns, age: sql<number>`extract(epoch from (now() - ${backfillRuns.updatedAt}))::float8` })
    .from(backfillRuns)
    .orderBy(desc(backfillRuns.id))
    .limit(1);
  if (!run) return null;
  const r = run.r;
  const stalled = r.state === "running" && Number(run.age) > BACKFILL_STALLED_SECONDS;
  const left = r.blocksTotal - r.blocksDone;
  return {
    from: r.fromBlock,
    to: r.toBlock,
    runtimes: r.runtimes,
    chunksDone: r.chunksDone,
    chunksTotal: r.chunksTotal,
    blocksDone: r.blocksDone,
    blocksTotal: r.blocksTotal,
    blocksPerSecond: Math.round(r.blocksPerSecond * 10) / 10,
    etaSeconds: r.state === "running" && !stalled && r.blocksPerSecond > 0 ? Math.ceil(left / r.blocksPerSecond) : null,
    state: stalled ? "stalled" : (r.state as BackfillProgress["state"]),
    error: r.error,
    startedAt: r.startedAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    ...(await historyCoverage(db)),
    bulkLoading: await loadingStages(db),
  };
}

/**
 * What the backfill and history gauges show: the latest run, or before any run zeros beside the
 * store's own coverage (a store that was never backfilled still has a history: from its first start).
 */
export async function backfillMetricSource(db: Database): Promise<HistoryCoverage & { blocksDone: number; blocksTotal: number; blocksPerSecond: number; chunksDone: number; chunksTotal: number; state: string }> {
  const run = await latestBackfill(db);
  if (run) return run;
  return { blocksDone: 0, blocksTotal: 0, blocksPerSecond: 0, chunksDone: 0, chunksTotal: 0, state: "none", ...(await historyCoverage(db)) };
}
