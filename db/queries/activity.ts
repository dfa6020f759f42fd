import { sql, type SQL } from "drizzle-orm";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { rowsOf, type Database } from "../database.js";
import { unnestRows } from "./bulk.js";
import { addCandleVolumes } from "./candle-writes.js";
import { ensurePartitions } from "./partitions.js";
import { liquidityEvents, poolVolumeHourly, poolVolumeMinutely, swaps } from "../schema/index.js";

export type NewSwap = typeof swaps.$inferInsert;
export type NewLiquidityEvent = typeof liquidityEvents.$inferInsert;

export const HOUR = 3_600;

/**
 * Swap hops keyed by (block, event index, hop): inserting the same event twice is a no-op. The
 * rows actually inserted are added to their pool's hourly bucket in the same statement batch
 * (callers run it in a transaction), so a replay never counts a swap twice.
 */
export async function insertSwaps(db: Database, rows: NewSwap[]): Promise<void> {
  if (rows.length === 0) return;
  await ensurePartitions(db, "swaps", rows.map((r) => r.blockNumber));
  const inserted = await db
    .insert(swaps)
    .select(unnestRows(swaps, rows))
    .onConflictDoNothing()
    .returning({
      token0Id: swaps.token0Id,
      token1Id: swaps.token1Id,
      timestamp: swaps.timestamp,
      volumeUsd: swaps.volumeUsd,
      feeUsd: swaps.feeUsd,
      tokenIn: swaps.tokenIn,
      amountIn: swaps.amountIn,
      amountOut: swaps.amountOut,
    });
  for (const level of LEVELS) await addToBuckets(db, level, inserted);
  await addCandleVolumes(db, inserted);
}

/** Token pair of the buckets that total every pool (both ids -1: no token has a negative id). */
export const ALL_POOLS = -1;

/** The bucket sizes, coarse to fine, and where each is kept. */
const LEVELS = [
  { seconds: HOUR, table: poolVolumeHourly, start: poolVolumeHourly.hour, key: "hour" },
  { seconds: 60, table: poolVolumeMinutely, start: poolVolumeMinutely.minute, key: "minute" },
] as const;
type Level = (typeof LEVELS)[number];

type SwapAmounts = { token0Id: number; token1Id: number; timestamp: number; volumeUsd: string; feeUsd: string };

/** Adds swaps to their pool's bucket and to the all-pools bucket of `level`. */
async function addToBuckets(db: Database, level: Level, rows: SwapAmounts[]): Promise<void> {
  const buckets = new Map<string, { token0Id: number; token1Id: number; start: number; volume: bigint; fee: bigint; swaps: number }>();
  for (const r of rows) {
    const start = r.timestamp - (r.timestamp % level.seconds);
    for (const [token0Id, token1Id] of [[r.token0Id, r.token1Id], [ALL_POOLS, ALL_POOLS]] as const) {
      const key = `${token0Id}/${token1Id}/${start}`;
      const b = buckets.get(key) ?? { token0Id, token1Id, start, volume: 0n, fee: 0n, swaps: 0 };
      b.volume += parseFixed(r.volumeUsd, USD_SCALE);
      b.fee += parseFixed(r.feeUsd, USD_SCALE);
      b.swaps += 1;
      buckets.set(key, b);
    }
  }
  if (buckets.size === 0) return;
  // One key order for every writer: concurrent backfill chunks never deadlock on the same buckets.
  const values = [...buckets.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, b]) => ({ token0Id: b.token0Id, token1Id: b.token1Id, [level.key]: b.start, volumeUsd: formatFixed(b.volume, USD_SCALE), feeUsd: formatFixed(b.fee, USD_SCALE), swaps: b.swaps }));
  const t = level.table;
  await db
    .insert(t)
    .values(values as never) // one row shape for either table; TypeScript cannot pair the union
    .onConflictDoUpdate({
      target: [t.token0Id, t.token1Id, level.start],
      set: { volumeUsd: sql`${t.volumeUsd} + excluded."volume_usd"`, feeUsd: sql`${t.feeUsd} + excluded."fee_usd"`, swaps: sql`${t.swaps} + excluded."swaps"` },
    });
}

export async function insertLiquidityEvents(db: Database, rows: NewLiquidityEvent[]): Promise<void> {
  if (rows.length > 0) await db.insert(liquidityEvents).select(unnestRows(liquidityEvents, rows)).onConflictDoNothing();
}

export interface SwapTotals {
  /** Sum of volumeUsd (decimal string). */
  volumeUsd: string;
  /** Sum of feeUsd (decimal string). */
  feeUsd: string;
  swaps: number;
}

/**
 * Totals of the swaps with from < timestamp <= to, over all pools or one pool (token0, token1 in
 * the pool's own order); see swapTotalsByPool.
 */
export async function swapTotals(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number },
): Promise<SwapTotals> {
  const byPool = await exactSwapTotalsByPool(db, window, pool ?? "all");
  let volume = 0n;
  let fee = 0n;
  let count = 0;
  for (const t of byPool.values()) {
    volume += t.volume;
    fee += t.fee;
    count += t.swaps;
  }
  return { volumeUsd: formatFixed(volume, USD_SCALE), feeUsd: formatFixed(fee, USD_SCALE), swaps: count };
}

type Span = [from: number, to: number, sign: 1 | -1];

/**
 * Splits the seconds [lo, hi) into whole hours, whole minutes and single seconds (read from the
 * swaps themselves), each part added (sign 1) or taken away (-1). A partial unit at either end
 * is either covered by finer parts, or the whole unit is added and the finer parts outside the
 * range taken away, whichever is shorter: for 24 h ≤ 25 hours, ≤ 60 minutes and ≤ 60 seconds,
 * and a window ending at the newest block takes away seconds after it, where no swap is yet.
 * `main` is the run of whole hours inside the range.
 */
function plan(lo: number, hi: number): { main: Span | undefined; hours: Span[]; minutes: Span[]; raw: Span[] } {
  const levels = [
    { size: HOUR, spans: [] as Span[] },
    { size: 60, spans: [] as Span[] },
    { size: 1, spans: [] as Span[] },
  ];
  let main: Span | undefined;
  const cover = (a: number, b: number, sign: 1 | -1, level: number, top: boolean) => {
    if (a >= b) return;
    const { size, spans } = levels[level]!;
    if (size === 1) return void spans.push([a, b, sign]);
    const first = Math.ceil(a / size) * size;
    const last = Math.floor(b / size) * size;
    if (first > last) return cover(a, b, sign, level + 1, false); // inside one unit
    if (first < last) {
      if (top) main = [first, last, sign];
      else spans.push([first, last, sign]);
    }
    const flip = (sign === 1 ? -1 : 1) as 1 | -1;
    if (a < first) {
      if (a - (first - size) < first - a) {
        spans.push([first - size, first, sign]);
        cover(first - size, a, flip, level + 1, false);
      } else cover(a, first, sign, level + 1, false);
    }
    if (last < b) {
      if (last + size - b < b - last) {
        spans.push([last, last + size, sign]);
        cover(b, last + size, flip, level + 1, false);
      } else cover(last, b, sign, level + 1, false);
    }
  };
  cover(lo, hi, 1, 0, true);
  return { main, hours: levels[0]!.spans, minutes: levels[1]!.spans, raw: levels[2]!.spans };
}


/** Swap totals as exact fixed-point bigints (USD_SCALE). */
export interface ExactTotals {
  volume: bigint;
  fee: bigint;
  swaps: number;
}

export const SCALE = `1${"0".repeat(USD_SCALE)}`;

/**
 * swapTotals of every pool that had swaps in (from, to] — or of `pool`, or with `allPools` of
 * all pools together (key "-1/-1") — keyed "token0/token1". Exact: whole buckets plus or minus
 * the raw swaps of the partial minutes at the edges; flat in the number of swaps.
 */
export async function swapTotalsByPool(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number } | "all",
): Promise<Map<string, SwapTotals>> {
  const exact = await exactSwapTotalsByPool(db, window, pool);
  return new Map([...exact].map(([k, t]) => [k, { volumeUsd: formatFixed(t.volume, USD_SCALE), feeUsd: formatFixed(t.fee, USD_SCALE), swaps: t.swaps }]));
}

/**
 * Pools per statement of a list's totals. The pairs are a row-value IN list, and PGlite takes
 * minutes of its one thread to plan one of a few hundred pairs (measured: 280 pairs in the six
 * parts of a window, or 500 in one, never finished in 120 s, where Postgres took 0.15 s), which
 * froze every request of the process: `GET /pools?limit=500` on a chain with that many pools.
 */
export const PAIRS_PER_STATEMENT = 100;

/**
 * swapTotalsByPool as bigints (also of a list of pools), in one statement: the whole hours
 * inside the window and its two edges (so a part taken away and the bucket it is taken from are
 * read in one snapshot). Sums are taken in SQL (numeric, exact) and come back scaled
 * to integers, truncated as parseFixed truncates (bucket and swap values have at most
 * USD_SCALE decimals, so nothing is cut).
 */
export async function exactSwapTotalsByPool(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number } | "all" | { token0Id: number; token1Id: number }[],
): Promise<Map<string, ExactTotals>> {
  if (Array.isArray(pool) && pool.length === 0) return new Map();
  if (Array.isArray(pool) && pool.length > PAIRS_PER_STATEMENT) {
    // Each pool's totals are its own: a long list is the union of its chunks' answers.
    const chunks = Array.from({ length: Math.ceil(pool.length / PAIRS_PER_STATEMENT) }, (_, i) => pool.slice(i * PAIRS_PER_STATEMENT, (i + 1) * PAIRS_PER_STATEMENT));
    return new Map((await Promise.all(chunks.map((c) => exactSwapTotalsByPool(db, window, c)))).flatMap((m) => [...m]));
  }
  const { main, hours, minutes, raw } = plan(window.from + 1, window.to + 1);
  const only = pool === "all" ? { token0Id: ALL_POOLS, token1Id: ALL_POOLS } : Array.isArray(pool) ? undefined : pool;
  // Several pools (a page of a list): their pairs, each read on the key.
  const pairs = Array.isArray(pool) ? sql`(token0_id, token1_id) in (${sql.join(pool.map((p) => sql`(${p.token0Id}::bigint, ${p.token1Id}::bigint)`), sql`, `)})` : undefined;
  const which = only ? sql`token0_id = ${only.token0Id}::bigint and token1_id = ${only.token1Id}::bigint` : pairs ?? sql`token0_id >= 0`;
  const signed = (sign: 1 | -1, column: string) => sql.raw(sign === 1 ? column : `-${column}`);
  const bucketParts = (spans: Span[], table: string, start: string) =>
    spans.map(
      ([a, b, sign]) => sql`select token0_id, token1_id, ${signed(sign, "volume_usd")} as v, ${signed(sign, "fee_usd")} as f, ${signed(sign, "swaps")} as n
        from ${sql.raw(table)} where ${sql.raw(start)} >= ${a}::bigint and ${sql.raw(start)} < ${b}::bigint and ${which}`,
    );
  const all = only?.token0Id === ALL_POOLS;
  const swapPool = only && !all ? sql` and token0_id = ${only.token0Id}::bigint and token1_id = ${only.token1Id}::bigint` : pairs ? sql` and ${pairs}` : sql``;
  const rawParts = raw.map(
    ([a, b, sign]) => sql`select ${sql.raw(all ? "-1::bigint as token0_id, -1::bigint as token1_id" : "token0_id, token1_id")}, ${signed(sign, "volume_usd")} as v, ${signed(sign, "fee_usd")} as f, ${sql.raw(String(sign))} as n
      from swaps where timestamp >= ${a}::bigint and timestamp < ${b}::bigint${swapPool}`,
  );
  type Row = { token0_id: string | number; token1_id: string | number; v: string; f: string; n: string | number };
  const sum = async (parts: SQL[]) =>
    parts.length === 0
      ? []
      : rowsOf<Row>(
          await db.execute(sql`select token0_id, token1_id, trunc(sum(v) * ${sql.raw(SCALE)})::text as v, trunc(sum(f) * ${sql.raw(SCALE)})::text as f, sum(n)::integer as n
            from (${sql.join(parts, sql` union all `)}) p group by token0_id, token1_id`),
        );
  // One statement: every part in one snapshot, and one round trip for an answer the response
  // cache does not hold.
  const parts = [...(main ? bucketParts([main], "pool_volume_hourly", "hour") : []), ...bucketParts(hours, "pool_volume_hourly", "hour"), ...bucketParts(minutes, "pool_volume_minutely", "minute"), ...rawParts];
  const results = [await sum(parts)];
  const totals = new Map<string, ExactTotals>();
  for (const r of results.flat()) {
    const key = `${Number(r.token0_id)}/${Number(r.token1_id)}`;
    const t = totals.get(key);
    if (t) {
      t.volume += BigInt(r.v);
      t.fee += BigInt(r.f);
      t.swaps += Number(r.n);
    } else totals.set(key, { volume: BigInt(r.v), fee: BigInt(r.f), swaps: Number(r.n) });
  }
  // A pool is listed when it had swaps in the window (an edge taken away can leave a pool at 0).
  for (const [key, t] of totals) if (t.swaps <= 0) totals.delete(key);
  return totals;
}
