/**
 * Holder snapshots for the API: asking for one (checked against the store's history and the
 * token as of the block, bounded in number), its state, its ranked pages and its CSV.
 */
import { sql } from "drizzle-orm";
import { getSnapshot, requestSnapshot, rowsOf, snapshotCsvBatch, snapshotPage, tokenAt, unfinishedCounts, type Database, type Snapshot } from "../../db/index.js";
import { formatFixed, ratio } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import type { SnapshotRunner } from "../../shared/snapshots.js";
import { resolveAsOf } from "./balances.js";

export async function snapshotView(db: Database, id: number, known?: Snapshot) {
  const s = known ?? (await getSnapshot(db, id));
  if (!s) throw new AppError("SNAPSHOT_NOT_FOUND", `Holder snapshot ${id} was not found.`);
  const [block] = rowsOf<{ timestamp: string | number }>(await db.execute(sql`select timestamp from blocks where number = ${s.blockNumber}`));
  const total = s.accountsEstimate;
  return {
    id: s.id,
    tokenId: s.tokenId,
    blockNumber: s.blockNumber,
    timestamp: block ? Number(block.timestamp) : null,
    state: s.state,
    progress: {
      accountsRead: s.accountsDone,
      accountsTotal: total ?? null,
      fraction: s.state === "done" ? "1" : total ? formatFixed(ratio(BigInt(Math.min(s.accountsDone, total)), BigInt(total), 4), 4) : "0",
    },
    holders: s.holders ?? null,
    totalBalance: s.total ?? null,
    error: s.error ?? null,
    createdAt: s.createdAt.toISOString(),
    finishedAt: s.finishedAt?.toISOString() ?? null,
    links: { holders: `/snapshots/${s.id}/holders`, csv: `/snapshots/${s.id}/holders.csv` },
  };
}

/**
 * The snapshot of a token as of a block (`block`, `atTime`, or the newest): the existing one, or
 * a new one queued — refused past `limits` unfinished snapshots in all or of this user. The
 * count and the insert are one transaction under an advisory lock, so concurrent requests
 * cannot both pass the last free place.
 */
export async function createSnapshot(
  db: Database,
  runner: SnapshotRunner | undefined,
  q: { tokenId: number; block?: number | undefined; atTime?: number | undefined; userId: string },
  limits: { queued: number; perUser: number },
) {
  if (!runner) throw new AppError("SERVICE_UNAVAILABLE", "Holder snapshots are not running in this process.");
  const block = await resolveAsOf(db, { at: q.block, atTime: q.atTime, field: "body" }, "holders", { kept: true });
  if (!(await tokenAt(db, q.tokenId, block.number))) throw new AppError("TOKEN_NOT_FOUND", `Token ${q.tokenId} did not exist at block ${block.number}.`);
  const { snapshot, created } = await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(sql`select pg_advisory_xact_lock(7157001)`);
    const [existing] = rowsOf<{ state: string }>(await t.execute(sql`select state from holder_snapshots where token_id = ${q.tokenId} and block_number = ${block.number}`));
    // New work (a new snapshot, or a failed one asked for again) is counted against the limits.
    if (!existing || existing.state === "failed") {
      const { all, mine } = await unfinishedCounts(t, q.userId);
      if (mine >= limits.perUser) throw new AppError("TOO_MANY_SNAPSHOTS", `You have ${mine} holder snapshots queued or running (at most ${limits.perUser}); ask again when one has finished.`, { "Retry-After": "30" });
      if (all >= limits.queued) throw new AppError("TOO_MANY_SNAPSHOTS", `${all} holder snapshots are queued or running (at most ${limits.queued}); ask again when one has finished.`, { "Retry-After": "30" });
    }
    return requestSnapshot(t, q.tokenId, block.number, q.userId);
  });
  if (created) await runner.enqueue(snapshot.id);
  return snapshotView(db, snapshot.id, snapshot);
}

async function finished(db: Database, id: number): Promise<Snapshot> {
  const s = await getSnapshot(db, id);
  if (!s) throw new AppError("SNAPSHOT_NOT_FOUND", `Holder snapshot ${id} was not found.`);
  if (s.state !== "done") throw new AppError("SNAPSHOT_NOT_READY", `Holder snapshot ${id} is ${s.state}${s.state === "failed" ? ` (${s.error ?? "no reason kept"})` : ": poll GET /snapshots/" + id + " until its state is done"}.`);
  return s;
}

/** A cursor is the last rank of the page before, in one spelling (`r` and the rank). */
function rankOfCursor(cursor: string): number {
  const m = /^r([1-9]\d{0,14})$/.exec(cursor);
  if (!m) throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": not a cursor returned by this endpoint (use nextCursor).');
  return Number(m[1]);
}

export async function snapshotHolderPage(db: Database, id: number, q: { page?: number | undefined; limit: number; cursor?: string | undefined }) {
  const s = await finished(db, id);
  const after = q.cursor !== undefined ? rankOfCursor(q.cursor) : ((q.page ?? 1) - 1) * q.limit;
  const rows = await snapshotPage(db, id, after, q.limit);
  const total = s.holders ?? 0;
  const last = rows[rows.length - 1];
  return {
    snapshotId: s.id,
    tokenId: s.tokenId,
    blockNumber: s.blockNumber,
    page: Math.min(Math.floor(after / q.limit) + 1, Math.ceil(total / q.limit) + 1),
    limit: q.limit,
    totalHolders: total,
    totalPages: Math.ceil(total / q.limit),
    holders: rows.map((r) => ({ rank: r.rank, address: r.account, balance: r.balance, share: formatFixed(ratio(BigInt(r.balance), BigInt(s.total ?? "0"), 18), 18) })),
    nextCursor: last && last.rank < total ? `r${last.rank}` : null,
  };
}

/** Rows per query of a CSV stream: one batch is held at a time, whatever the client's speed (1,500: four streams peak ≈ 20 MB lower than with 10,000, at half the speed of one; docs/performance.md). */
const CSV_BATCH = 1_500;

/**
 * A finished snapshot's holders as CSV, pulled batch by batch (keyset on rank: a finished
 * snapshot never changes, so no transaction is held open) as the client reads. `release` is
 * called once when the stream ends, fails or is cancelled.
 */
export async function snapshotCsv(db: Database, id: number, release: () => void, maxMs: number): Promise<{ body: ReadableStream<Uint8Array>; tokenId: number; blockNumber: number }> {
  const { tokenId, blockNumber } = await finished(db, id);
  // A client that reads just fast enough to pass the write deadline still gives its place back.
  const deadline = setTimeout(() => {
    done();
    controllerRef?.error(new Error("the download passed its deadline"));
  }, maxMs);
  deadline.unref();
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const encoder = new TextEncoder();
  let after = 0;
  let header = true;
  let released = false;
  const done = () => {
    clearTimeout(deadline);
    if (!released) (released = true), release();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
      },
      async pull(controller) {
        if (released) return;
        try {
          const batch = await snapshotCsvBatch(db, id, after, CSV_BATCH);
          const text = header ? `rank,address,balance\n${batch.text}` : batch.text;
          header = false;
          if (text) controller.enqueue(encoder.encode(text));
          if (batch.rows < CSV_BATCH) {
            controller.close();
            done();
          } else after = batch.last;
        } catch (err) {
          done();
          controller.error(err);
        }
      },
      cancel() {
        done();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, tokenId: Number(tokenId), blockNumber: Number(blockNumber) };
}

/**
 * CSV streams at once: in all and per client. Each holds no database connection between batches,
 * but each batch is a query and each open stream a socket: `take` refuses past either bound, and
 * is synchronous (checked and counted before anything awaits).
 */
export class CsvStreams {
  private open = 0;
  private readonly byClient = new Map<string, number>();
  constructor(private readonly limits: { total: number; perClient: number }) {}

  take(client: string): () => void {
    const mine = this.byClient.get(client) ?? 0;
    if (this.open >= this.limits.total || mine >= this.limits.perClient) {
      throw new AppError("RATE_LIMITED", `Too many CSV downloads at once (at most ${this.limits.perClient} per client, ${this.limits.total} in all); retry when one has finished.`, { "Retry-After": "5" });
    }
    this.open += 1;
    this.byClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open -= 1;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }

  get size(): number {
    return this.open;
  }
}
