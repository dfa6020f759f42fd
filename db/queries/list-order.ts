import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";

/**
 * Bitmap and sequential scans off, answering the values they had (read first: a materialized CTE
 * is evaluated before the select list that sets them).
 */
const SCANS_OFF = sql`
  with was as materialized (select current_setting('enable_bitmapscan') as bitmap, current_setting('enable_seqscan') as seq)
  select bitmap, seq, set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true) from was`;

/**
 * Back to the values before: a released savepoint hands its `set local` on to the read's
 * transaction. By name, not from pg_settings (that view builds a row for every setting: ≈ 1 ms
 * of a list's ≈ 5, issue 40).
 */
const scansBack = (was: { bitmap: string; seq: string }) => sql`select set_config('enable_bitmapscan', ${was.bitmap}, true), set_config('enable_seqscan', ${was.seq}, true)`;

/**
 * Runs a list's statements with bitmap and sequential scans off, in a transaction of their own (a
 * savepoint inside a read's snapshot), and turns them back on after: the planner is then left to
 * walk the list's index in its order and stop at the LIMIT. Left free, it reads every row of a
 * key it expects few rows of (a bitmap scan, then a sort), however many the key has: a busy
 * account the column's statistics do not name (a chain's 101st busiest) is such a key, and so is
 * one whose kinds they get wrong (measured: a page that may read 2,000 rows read all 5,000 of the
 * account's; test/api/list-attacks.test.ts).
 */
export function inListOrder<T>(db: Database, run: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const [was] = rowsOf<{ bitmap: string; seq: string }>(await t.execute(SCANS_OFF));
    const result = await run(t);
    await t.execute(scansBack(was!));
    return result;
  });
}
