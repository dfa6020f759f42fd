/**
 * A finished holder snapshot as CSV (GET /snapshots/{id}/holders.csv): read in keyset batches as
 * the client takes them — a finished snapshot never changes, so no transaction and no connection
 * is held between batches — and sent at the client's pace (api/services/csv-pace.ts).
 *
 * It holds no scarce download slot: what one download costs is a socket, one batch in memory
 * (≈ 120 KB) and one short query at a time (docs/performance.md: ≈ 2 ms per 1,500 rows). Each
 * batch is a read of the download's client in the read budget (api/middleware/read-budget.ts),
 * so a client's downloads share its reads with its pages, round-robin with every other client,
 * and together never take more of the pool than the budget's total.
 */
import { CSV_HEADER, snapshotCsvBatch, type Database } from "../../db/index.js";
import type { ReadBudget } from "../middleware/read-budget.js";
import { pacedStream, type DownloadHooks, type PaceLimits } from "./csv-pace.js";

/** Rows per query: one batch is held at a time, whatever the client's speed (1,500: four streams peak ≈ 20 MB lower than with 10,000, at half the speed of one; docs/performance.md). */
export const CSV_BATCH = 1_500;

/** How long a batch may wait for its turn in the read budget before the download is cut as failed (the server's wait: not held against the client's rate). */
const READ_WAIT_MS = 30_000;

/** The download's reads in the read budget, under its client's key; unset = not budgeted (tests without one). */
export interface BudgetedReads {
  budget: ReadBudget;
  key: string;
}

/** Runs `fn` as one read of `reads.key`, waiting its turn (a refusal — the client's queue full — is waited out too). */
async function asRead<T>(reads: BudgetedReads | undefined, fn: () => Promise<T>): Promise<T> {
  if (!reads) return fn();
  const until = performance.now() + READ_WAIT_MS;
  for (;;) {
    const slot = reads.budget.enter(reads.key);
    if (slot) {
      try {
        if (await slot.ready) return await fn();
      } finally {
        slot.release();
      }
    }
    if (performance.now() > until) throw new Error("the database had no turn for this download's next batch");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The CSV of finished snapshot `id` (`holders` rows in all; `bytes` in all when known: its
 * Content-Length), as a stream. A snapshot deleted while it is read (SNAPSHOTS_MAX_ROWS,
 * SNAPSHOTS_MAX_AGE_HOURS) ends the stream with an error, never with a shorter list passed as
 * whole. `hooks.end` is called once, when the stream ends.
 */
export function snapshotCsvStream(db: Database, id: number, holders: number, opts: { pace: PaceLimits; reads?: BudgetedReads | undefined; hooks: DownloadHooks; bytes?: number | undefined }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let rows = 0;
  let header = true;
  let last = false;
  const next = async (): Promise<Uint8Array | null> => {
    if (last) return null;
    const batch = await asRead(opts.reads, () => snapshotCsvBatch(db, id, after, CSV_BATCH));
    rows += batch.rows;
    after = batch.last;
    if (batch.rows < CSV_BATCH) {
      if (rows !== holders) throw new Error(`holder snapshot ${id} was deleted while it was downloaded (${rows} of ${holders} rows sent)`);
      last = true;
    }
    const text = header ? `${CSV_HEADER}${batch.text}` : batch.text;
    header = false;
    return encoder.encode(text);
  };
  return pacedStream(next, opts.pace, opts.hooks, opts.bytes);
}
