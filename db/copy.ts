/**
 * `COPY … FROM STDIN` on postgres.js, for appends to a table without indexes (a backfill's
 * transfer stage, db/queries/transfer-stages.ts). Into such a table a `COPY` is ≈ 1.45× an
 * `insert … select from unnest(…)` (305k against 210k rows a second, 4 writers, 2M rows, measured
 * 2026-11-29): no array literals parsed, no function scan's tuplestore, and rows inserted a
 * buffer at a time. Where every row also updates five indexes the two cost the same
 * (docs/performance.md): it pays only on the bulk path.
 *
 * The text format is written here: its rules are four escapes and `\N` for null, where a
 * library for it (pg-copy-streams) drives node-postgres, not postgres.js, whose own `writable()`
 * takes the bytes.
 */
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";
import type { Database } from "./database.js";

/** A value of a COPY text row: null is SQL NULL. */
export type CopyValue = string | number | null;

/** Lines a write carries at most, so that a large call holds one piece of text at a time. */
const LINES_PER_WRITE = 5_000;

/** The postgres.js client under `db` (a transaction's: its reserved connection), or undefined on PGlite. */
export function postgresClient(db: Database): Sql | undefined {
  const session = (db as unknown as { _: { session: unknown } })._.session;
  return session instanceof PostgresJsSession ? (session as unknown as { client: Sql }).client : undefined;
}

/** One value in COPY's text format: backslash, tab, newline and carriage return escaped; null as \N. */
export function copyText(v: CopyValue): string {
  if (v === null) return "\\N";
  if (typeof v === "number") return String(v);
  return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : v;
}

/**
 * Appends `rows` (each in `columns`' order) to `table` with one COPY on `client`, written in pieces
 * as the connection drains. On a pool (`db` outside a transaction) the COPY is a transaction of
 * its own, on a connection it holds: postgres.js pipelines a query onto a busy connection when
 * none is free, and one sent into a COPY's data fails, or fails the COPY.
 */
export async function copyRows(client: Sql, table: string, columns: readonly string[], rows: readonly CopyValue[][]): Promise<void> {
  if (rows.length === 0) return;
  // A transaction's client (or a reserved one) has no `begin`: its connection is its own already.
  // Not `reserve()`: released after its connection dropped, postgres.js puts the closed connection
  // back among the open ones, and the next query sent to it hangs (postgres.js 3.4.9, tried).
  if (typeof (client as Partial<Sql>).begin !== "function") return copyOn(client, table, columns, rows);
  await client.begin((tx) => copyOn(tx, table, columns, rows));
}

async function copyOn(client: Pick<Sql, "unsafe">, table: string, columns: readonly string[], rows: readonly CopyValue[][]): Promise<void> {
  const stream = await client.unsafe(`copy ${table} (${columns.join(", ")}) from stdin`).writable();
  await new Promise<void>((resolve, reject) => {
    stream.on("error", reject);
    stream.on("finish", resolve);
    let i = 0;
    const write = (): void => {
      while (i < rows.length) {
        const piece = rows.slice(i, i + LINES_PER_WRITE);
        i += piece.length;
        const text = piece.map((r) => r.map(copyText).join("\t")).join("\n") + "\n";
        if (!stream.write(text)) {
          stream.once("drain", write);
          return;
        }
      }
      stream.end();
    };
    write();
  });
}
