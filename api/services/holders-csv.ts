/**
 * The current holder list of a token as CSV (GET /assets/holders/{id} with Accept: text/csv):
 * every holder at the store's newest block, streamed as the client reads.
 *
 * The list must be one block's: it is read through a cursor inside one REPEATABLE READ READ ONLY
 * transaction, which holds a database connection for the length of the download. So these
 * downloads have their own small budget (api/services/snapshots.ts's CsvStreams: a quarter of
 * the pool on Postgres, one at a time on the embedded store, one per client) and a deadline
 * (`maxMs`), past which the download is cut (the client sees a truncated chunked answer, never
 * a wrong one). A list too long for that is what holder snapshots are for: a finished snapshot
 * is read without any transaction.
 */
import { sql } from "drizzle-orm";
import { getToken, latestBlock, readOnlySnapshot, rowsOf, type Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";

/** Holders per FETCH. */
const BATCH = 10_000;

export interface CurrentCsvLimits {
  total: number;
  perClient: number;
  maxMs: number;
}

/**
 * Opens the transaction and the cursor, checks the token, and returns the stream (its block
 * number beside it). `release` (idempotent) is called when the stream ends or the transaction
 * does, whichever comes first.
 */
export async function currentHoldersCsv(store: Database, tokenId: number, release: () => void, maxMs: number, logger: Logger): Promise<{ body: ReadableStream<Uint8Array>; block: number }> {
  let opened!: (v: { tx: Database; block: number }) => void;
  let failed!: (err: unknown) => void;
  const ready = new Promise<{ tx: Database; block: number }>((res, rej) => ((opened = res), (failed = rej)));
  let finish!: (err?: unknown) => void;
  const finished = new Promise<void>((res, rej) => (finish = (err) => (err === undefined ? res() : rej(err))));
  finished.catch(() => {});
  const tx = readOnlySnapshot(store, async (db) => {
    const [token, head] = await Promise.all([getToken(db, tokenId), latestBlock(db)]);
    if (!token) throw new AppError("TOKEN_NOT_FOUND", `Token ${tokenId} was not found.`);
    await db.execute(sql`declare holders_csv no scroll cursor for
          select h.account, h.balance::text as amount from holders h where h.token_id = ${tokenId} and h.balance > 0 order by h.balance desc, h.account`);
    opened({ tx: db, block: head?.number ?? 0 });
    await finished;
  })
    .catch((err: unknown) => failed(err))
    .finally(release);
  void tx;
  let open: { tx: Database; block: number };
  try {
    open = await ready;
  } catch (err) {
    throw err instanceof AppError ? err : new AppError("SERVICE_UNAVAILABLE", "The holder list could not be read; retry.", { "Retry-After": "5" });
  }
  const encoder = new TextEncoder();
  let rank = 0;
  let header = true;
  const deadline = setTimeout(() => {
    logger.warn({ tokenId, rows: rank, ms: maxMs }, "holders CSV: download cut at its deadline");
    stop(new Error("the download passed its deadline"));
  }, maxMs);
  deadline.unref();
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  let stopped = false;
  function stop(err?: Error): void {
    if (stopped) return;
    stopped = true;
    clearTimeout(deadline);
    finish(); // commits the read-only transaction: nothing to keep either way
    release(); // the place is free once the last row is sent (the commit follows at once)
    if (err) controllerRef?.error(err);
  }
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
      },
      async pull(controller) {
        if (stopped) return;
        try {
          const rows = rowsOf<{ account: string; amount: string }>(await open.tx.execute(sql.raw(`fetch ${BATCH} from holders_csv`)));
          let text = header ? "rank,address,balance\n" : "";
          header = false;
          for (const r of rows) text += `${++rank},${r.account},${r.amount}\n`;
          if (text) controller.enqueue(encoder.encode(text));
          if (rows.length < BATCH) {
            stop();
            controller.close();
          }
        } catch (err) {
          stop(err as Error);
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, block: open.block };
}
