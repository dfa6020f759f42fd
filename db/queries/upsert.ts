import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * `set` clause of an upsert that takes every non-key column from the incoming row, so one
 * insert statement writes a whole batch.
 */
export function excludedSet<T extends PgTable>(table: T, keys: PgColumn[]): Record<string, SQL> {
  const keyNames = new Set(keys.map((k) => k.name));
  const set: Record<string, SQL> = {};
  for (const [prop, column] of Object.entries(getTableColumns(table))) {
    if (!keyNames.has(column.name)) set[prop] = sql.raw(`excluded."${column.name}"`);
  }
  return set;
}

/** "Latest block wins": an upsert only replaces a row read at the same or an older block. */
export function notOlder(blockColumn: PgColumn): SQL {
  return sql`excluded."block_number" >= ${blockColumn}`;
}
