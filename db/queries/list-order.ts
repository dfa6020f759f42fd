import { sql } from "drizzle-orm";
import type { Database } from "../client.js";

const SCANS_OFF = sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`;
/** Back to the session's values: a released savepoint hands its `set local` on to the read's transaction. */
const SCANS_BACK = sql`select set_config(name, reset_val, true) from pg_settings where name in ('enable_bitmapscan', 'enable_seqscan')`;

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
    await t.execute(SCANS_OFF);
    const result = await run(t);
    await t.execute(SCANS_BACK);
    return result;
  });
}
