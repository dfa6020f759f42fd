/**
 * The work a query does, counted by the database itself (EXPLAIN ANALYZE), never by a clock:
 * the rows each scan of a table read (returned, and removed by a filter or a recheck) and the
 * buffers it touched. Works the same on PGlite and Postgres.
 */
import { sql, type SQLWrapper } from "drizzle-orm";
import { rowsOf, type Database } from "../../db/index.js";

export interface Work {
  /** Rows read from the table's scans, whatever became of them. */
  rows: number;
  /** Shared buffers the statements hit or read. */
  buffers: number;
  /** Scan node types that read the table (e.g. "Seq Scan"), once each. */
  scans: string[];
  statements: number;
}

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** `table` itself, or one of its block partitions (db/queries/partitions.ts: `<table>_p<n>`). */
const isOf = (relation: unknown, table: string) => relation === table || (typeof relation === "string" && relation.startsWith(`${table}_p`) && /^\d+$/.test(relation.slice(table.length + 2)));

function add(work: Work, node: PlanNode, table: string): void {
  if (isOf(node["Relation Name"], table)) {
    const loops = Number(node["Actual Loops"] ?? 1);
    work.rows += Number(node["Actual Rows"] ?? 0) * loops + Number(node["Rows Removed by Filter"] ?? 0) + Number(node["Rows Removed by Index Recheck"] ?? 0);
    const type = String(node["Node Type"]);
    if (!work.scans.includes(type)) work.scans.push(type);
  }
  for (const child of node.Plans ?? []) add(work, child, table);
}

/** EXPLAIN (ANALYZE, BUFFERS) of `query`, counted into `work` for `table`'s scans (subplans and CTEs included). */
export async function explainInto(db: Database, query: SQLWrapper, table: string, work: Work): Promise<void> {
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (analyze, buffers, format json) ${query}`));
  const raw = Object.values(row!)[0];
  const [plan] = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
  add(work, plan!.Plan, table);
  work.buffers += Number(plan!.Plan["Shared Hit Blocks"] ?? 0) + Number(plan!.Plan["Shared Read Blocks"] ?? 0);
  work.statements += 1;
}

export const noWork = (): Work => ({ rows: 0, buffers: 0, scans: [], statements: 0 });

/**
 * `db` whose `execute` statements are each explained first (into `work()`, for `table`) and then
 * run, in its transactions too: hand it to a service function to count what that function read.
 * Query-builder calls (db.select…) pass through uncounted.
 */
export function explaining(db: Database, table: string): { db: Database; work(): Work; reset(): void } {
  let work = noWork();
  const wrap = (inner: Database): Database =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === "execute") {
          return async (query: SQLWrapper) => {
            await explainInto(target, query, table, work);
            return target.execute(query as never);
          };
        }
        if (prop === "transaction") return (run: (tx: Database) => Promise<unknown>, config?: unknown) => target.transaction((tx) => run(wrap(tx as unknown as Database)), config as never);
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return { db: wrap(db), work: () => work, reset: () => void (work = noWork()) };
}
