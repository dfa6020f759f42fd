/**
 * How far a store's schema is migrated, read without changing anything: for the commands and
 * processes that must not migrate (a read replica, `tokenpool status`).
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "./database.js";
import { MIGRATIONS_FOLDER } from "./client.js";

/** Migrations this code ships (drizzle-kit's journal). */
export const SHIPPED_MIGRATIONS = (JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, "utf8")) as { entries: unknown[] }).entries.length;


/** Migrations applied to the store, by drizzle's own table; 0 when it has none (not a TokenPool store). */
export async function appliedMigrations(db: Database): Promise<number> {
  const [present] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_catalog.pg_tables where schemaname = 'drizzle' and tablename = '__drizzle_migrations'`));
  if (!present || Number(present.n) === 0) return 0;
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
  return Number(row?.n ?? 0);
}
