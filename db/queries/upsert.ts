import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * `set` clause of an upsert that takes every non-key column from the incoming row, so one
 * insert statement writes a whole batch.
 */
export function excludedSet<T extends PgTable>(table: T, keys: PgColumn[]): Record<string, SQL> {
  // The client maps property names to snake_case columns (casing: "snake_case"), and so must we.
  const dbName = (c: PgColumn) => (c.keyAsName ? toSnakeCase(c.name) : c.name);
  const keyNames = new Set(keys.map(dbName));
  const set: Record<string, SQL> = {};
  for (const [prop, column] of Object.entries(getTableColumns(table))) {
    const name = dbName(column);
    if (!keyNames.has(name)) set[prop] = sql.raw(`excluded."${name}"`);
  }
  return set;
}

/** "Latest block wins": an upsert only replaces a row read at the same or an older block. */
export function notOlder(blockColumn: PgColumn): SQL {
  return sql`excluded."block_number" >= ${blockColumn}`;
}
