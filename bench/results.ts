/**
 * bench/results.json holds one row per measure: the latest figure, dated, with the part that
 * measured it (and its median and spread where the measure has one). A row a later run measures
 * again is moved to bench/results-history.jsonl (one JSON row per line, with the date it was
 * superseded), so the file never shows two figures for one measure and nothing measured is lost.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

export interface Row {
  what: string;
  figure: string;
  target?: string;
  met?: boolean;
  /** The bench part that measured it (BENCH_PARTS, or a bench's own name: worker, backfill…). */
  part?: string;
  /** When it was measured (ISO 8601). */
  date?: string;
  /** The measure's numbers, where it has one spread: median and the extremes of its runs. */
  median?: number;
  min?: number;
  max?: number;
  /** A stable identity when `what` names something that changes from run to run. */
  measure?: string;
}

const RESULTS = new URL("./results.json", import.meta.url);
const HISTORY = new URL("./results-history.jsonl", import.meta.url);

export const ABOUT =
  "One row per measure, the latest (dated; median and spread in the figure, and as numbers where the measure has one). Superseded rows are in bench/results-history.jsonl. docs/performance.md explains each.";

/**
 * A store's size as a measure's scale: 2,000,000 rows → "2M rows", 200,000,000 → "200M rows"
 * (one significant digit). A figure at 20M rows and one at 200M are two measures; two runs at
 * 20,000,000 and 20,100,000 rows are one.
 */
export function scaleOf(rows: number): string {
  if (rows < 1_000_000) return `${Number((rows / 1_000).toPrecision(1))}k rows`;
  return `${Number((rows / 1_000_000).toPrecision(1))}M rows`;
}

/** A measure's name with the counts that change from run to run (sizes, rows, rates) taken out. */
export function stableName(what: string): string {
  return what.replace(/\d[\d,.]{3,}/g, "N");
}

/**
 * A measure's identity. Every part prints the machine's speed first, so that row is one per part.
 */
export function measureOf(r: Row): string {
  const id = r.measure ?? r.what;
  return id.startsWith("machine speed") ? `${id} [${r.part ?? "store"}]` : id;
}

interface File {
  about?: string;
  rows?: Row[];
}

function read(url: URL): File {
  try {
    return JSON.parse(readFileSync(url, "utf8")) as File;
  } catch {
    return {};
  }
}

/**
 * `rows` joined with what the file held: each row of this run replaces the file's row of the
 * same measure, which moves to the history file. Pure, for the test; `recordResults` writes.
 */
/**
 * Measures no bench takes any more, each under the name the rows that replaced it took: moved to
 * the history file the next time any part records its rows, so no row of an old name (and its old
 * target) stays beside its successor.
 */
export const RETIRED: { name: RegExp; replacedBy: string }[] = [
  // 2026-11-29: the per-row ceiling lost issue 40's target to the bulk path's (bench/ledger.ts).
  { name: /^ingestion: the store's ceiling, transfer rows\/s: the better of two and four writers/, replacedBy: "ingestion, row by row: the store's ceiling…" },
  // 2026-11-29: the bulk load diagnostic became the backfill's own path (bench/bulk-load.ts).
  { name: /^ingestion, bulk \(a diagnostic of the path past the per-row ceiling\)/, replacedBy: "ingestion as `tokenpool backfill` writes an empty partition…" },
];

const retired = (r: Row): boolean => RETIRED.some((x) => x.name.test(r.what));

export function mergeRows(before: Row[], fresh: Row[], now: string): { rows: Row[]; superseded: Row[] } {
  const stamped = fresh.map((r) => ({ ...r, date: r.date ?? now }));
  const replaced = new Set(stamped.map(measureOf));
  const gone = (r: Row) => replaced.has(measureOf(r)) || retired(r);
  const superseded = before.filter(gone);
  // A run that measures one thing twice (a bench called with two settings) keeps the later.
  const latest = new Map<string, Row>();
  for (const r of stamped) latest.set(measureOf(r), r);
  const ordered = [...before.filter((r) => !gone(r)), ...latest.values()];
  return { rows: ordered, superseded };
}

/**
 * Writes this run's rows into results.json and what they supersede into the history file, with
 * the run's detail objects (per-run figures behind the rows: every route's runs, say), if any.
 */
export function recordResults(fresh: Row[], now = new Date().toISOString(), details?: Record<string, unknown>): void {
  const before = read(RESULTS).rows ?? [];
  const { rows, superseded } = mergeRows(before, fresh, now);
  writeFileSync(RESULTS, `${JSON.stringify({ about: ABOUT, rows }, null, 2)}\n`);
  const lines = superseded.map((r) => ({ ...r, supersededOn: now }));
  const parts = [...new Set(fresh.map((r) => r.part ?? "store"))].join(",");
  if (details && Object.keys(details).length > 0) lines.push({ what: "details", figure: "", part: parts, date: now, ...details } as never);
  if (lines.length > 0) appendFileSync(HISTORY, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}
