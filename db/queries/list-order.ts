import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { readsOf } from "./partitions.js";

/**
 * Bitmap and sequential scans off, for the rest of the transaction (or savepoint) it runs in, and
 * the value of `first` (a scalar subquery the list needs before its walk: an account's id) in
 * the same round trip. `first` is planned before the settings change: it must not need them.
 */
const scansOff = (first: SQL | undefined) => sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true), ${first ?? sql`null`} as first`;

/** How `inListOrder` hands its answer out of the transaction it rolls back. */
class Answer<T> {
  constructor(readonly value: T) {}
}

/**
 * Runs a list's statements with bitmap and sequential scans off, in a transaction of their own (a
 * savepoint inside a read's snapshot), and rolls it back after: a list only reads, and a rollback
 * undoes its `set local`s with it, in the round trip that would have ended it anyway (restoring
 * the settings by a statement of its own cost one more: ≈ 0.3–1.5 ms of a list's ≈ 5, issue 40).
 * Left free, the planner reads every row of a key it expects few rows of (a bitmap scan, then a
 * sort), however many the key has: a busy account the column's statistics do not name (a chain's
 * 101st busiest) is such a key, and so is one whose kinds they get wrong (measured: a page that
 * may read 2,000 rows read all 5,000 of the account's; test/api/list-attacks.test.ts). With
 * bitmap and sequential scans off it walks the list's index in its order and stops at the LIMIT.
 */
export async function inListOrder<T, F = unknown>(db: Database, run: (tx: Database, first: F | null) => Promise<T>, first?: SQL): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      readsOf(t, db);
      const [row] = rowsOf<{ first: F | null }>(await t.execute(scansOff(first)));
      throw new Answer(await run(t, row!.first));
    });
  } catch (err) {
    if (err instanceof Answer) return err.value as T;
    throw err;
  }
  throw new Error("inListOrder: the list's transaction ended without an answer");
}
