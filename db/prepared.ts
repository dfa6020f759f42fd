/**
 * Hot reads as named prepared statements. drizzle prepares no statement it is not told to (its
 * postgres.js queries go out unnamed), so Postgres parses, analyses and plans each call anew — for
 * /pool/stats' one statement (api/app.ts ONE_STATEMENT) the larger part of its cost in the
 * database. A named one is kept per connection by postgres.js (by its text) and parsed once there;
 * after five runs Postgres keeps its generic plan when that costs no more than planning anew. It
 * needs a parameter: postgres.js sends a statement without any as a simple query, never prepared.
 * For statements of fixed text only: every distinct text stays prepared on every connection for
 * that connection's life.
 */
import type { SQL } from "drizzle-orm";
import type { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./database.js";

/** `db.execute(query)`, prepared under `name` (PGlite runs it as it would db.execute). */
export function executePrepared(db: Database, name: string, query: SQL): Promise<unknown> {
  // `_` first: read through the API's snapshot proxy, it is what counts this read as a statement (api/snapshot.ts).
  const session = db._.session;
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
}
