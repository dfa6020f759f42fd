import type { PgDialect } from "drizzle-orm/pg-core";
import { PostgresJsSession, PostgresJsTransaction } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";
import type { Database } from "./database.js";

const BEGIN_OPTIONS = "isolation level repeatable read read only";

/**
 * Runs `fn` in one `REPEATABLE READ READ ONLY` transaction of `db` (a read's snapshot,
 * api/snapshot.ts).
 *
 * On Postgres the transaction is begun in one statement, `begin isolation level repeatable read
 * read only`, through postgres.js's own begin: drizzle's transaction() sends `begin` and then
 * `set transaction …`, each awaited — one more round trip for every uncached read, whose time
 * is mostly round trips (measured on the 5M-swap store: a pair as of a block, 9 round trips,
 * ≈ 60 % of its time idle waiting on them). The transaction object is the one drizzle's
 * transaction() builds (its session on the reserved connection), so queries behave alike.
 * PGlite (in process, no round trip) takes drizzle's transaction as is.
 */
export function readOnlySnapshot<T>(db: Database, fn: (tx: Database) => Promise<T>): Promise<T> {
  const session = (db as unknown as { _: { session: unknown } })._.session;
  if (session instanceof PostgresJsSession) {
    const s = session as unknown as { client: Sql; dialect: PgDialect; schema: never; options: never };
    if (typeof s.client.begin === "function") {
      return s.client.begin(BEGIN_OPTIONS, (raw) => {
        const inner = new PostgresJsSession(raw as unknown as Sql, s.dialect, s.schema, s.options);
        return fn(new PostgresJsTransaction(s.dialect, inner as never, s.schema) as unknown as Database);
      }) as Promise<T>;
    }
  }
  return db.transaction((tx) => fn(tx as unknown as Database), { isolationLevel: "repeatable read", accessMode: "read only" });
}
