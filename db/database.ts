/**
 * The store's type as every query takes it: one drizzle type over both drivers (PGlite,
 * postgres.js). Kept apart from the factory (client.ts), so that the queries and the factory's
 * own parts (writer-lock.ts) need the type, not the factory.
 */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema/index.js";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of `db.execute`: postgres.js answers an array, PGlite `{ rows }`. */
export const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
