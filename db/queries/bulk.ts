import { getTableColumns, is, sql, SQL, type InferInsertModel } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * The rows of an insert as `select * from unnest(…)`, every column of `table` in its order (what
 * drizzle's `insert(table).select(…)` lists): one array parameter per column instead of one per
 * value. drizzle's multi-row VALUES builder took ≈ 6 ms for 100 swap rows or 450 price rows —
 * a tenth of a backfill worker's CPU — and postgres.js then serialized every value on its own;
 * the conflict and returning clauses stay drizzle's. A value left undefined takes the column's
 * default, as in VALUES (only plain defaults: an SQL default would have to be evaluated here).
 */
export function unnestRows<T extends PgTable>(table: T, rows: InferInsertModel<T>[]): SQL {
  const arrays = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const fallback = column.default;
    if (is(fallback, SQL)) throw new Error(`unnestRows: ${column.name} has an SQL default`);
    const values = rows.map((r) => {
      const v = (r as Record<string, unknown>)[key];
      return (v === undefined ? (fallback ?? null) : v) as string | number | null;
    });
    // The column's type without its collation (`text COLLATE "C"` casts as text, then takes it).
    return sql`${pgArray(values)}::${sql.raw(`${column.getSQLType().replace(/ COLLATE .*$/, "")}[]`)}`;
  });
  return sql`select * from unnest(${sql.join(arrays, sql`, `)})`;
}

/**
 * A Postgres array literal as one text parameter ('{"a","b",NULL}'): every driver passes a
 * string the same way, where JS arrays are serialized differently by postgres.js and PGlite.
 */
export function pgArray(values: (string | number | null | undefined)[]): string {
  return `{${values.map((v) => (v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : `"${v.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}
