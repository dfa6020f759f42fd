/**
 * The list endpoints (GET /assets, GET /pools) and the price history (GET /oracle/history/{id}):
 * what the dashboard and wallets show in tables and charts. Sorting happens on exact bigints, so
 * a USD value never sorts as a float.
 */
import {
  allTokens,
  allHolderCounts,
  countHolders,
  getToken,
  latestBlock,
  getTokens,
  latestPrices,
  poolValues,
  priceBuckets,
  exactSwapTotalsByPool,
  type Database,
  type ExactTotals,
  type Token,
} from "../../db/index.js";
import { formatFixed, normalizeDecimal, parseFixed, USD_SCALE, usdValue } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { window } from "./pools.js";
import { tokenIdentity } from "./identity.js";
import { coverageBody, coverageOf, named, requireTimes } from "./coverage.js";
import { requireToken } from "./tokens.js";

export const ASSET_SORTS = ["id", "symbol", "holders", "valueUsd", "marketCap"] as const;
export const POOL_SORTS = ["tvl", "volume24h", "swaps24h", "id"] as const;
export type Order = "asc" | "desc";

export interface ListQuery<S extends string> {
  page: number;
  limit: number;
  sort: S;
  order: Order;
}

const usd = (v: bigint) => formatFixed(v, USD_SCALE);

/** Orders by `key`; rows without a value (null) come last in either order, ties by `tie`. */
function sortRows<T>(rows: T[], key: (r: T) => bigint | string | null, order: Order, tie: (r: T) => number): T[] {
  const sign = order === "asc" ? 1 : -1;
  return rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) return x === y ? tie(a) - tie(b) : x === null ? 1 : -1;
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c !== 0 ? sign * c : tie(a) - tie(b);
  });
}

function paged<T>(rows: T[], q: { page: number; limit: number }) {
  return { page: q.page, limit: q.limit, total: rows.length, totalPages: Math.ceil(rows.length / q.limit), items: rows.slice((q.page - 1) * q.limit, q.page * q.limit) };
}

export async function listAssets(db: Database, q: ListQuery<(typeof ASSET_SORTS)[number]> & { tokenId?: number | undefined }) {
  // One token's row reads that token only: any id is a cache key of its own, and must not cost a
  // read of every token, price and holder count.
  const one = q.tokenId;
  const [tokens, prices, counts, head] = await Promise.all([
    one === undefined ? allTokens(db) : getToken(db, one).then((t) => (t ? [t] : [])),
    latestPrices(db, one === undefined ? undefined : [one]),
    one === undefined ? allHolderCounts(db) : countHolders(db, one).then((n) => new Map([[one, n]])),
    latestBlock(db),
  ]);
  const rows = tokens.map((t: Token) => {
    const p = prices.get(t.id);
    const price = p ? parseFixed(p.priceUsd, USD_SCALE) : null;
    return { token: t, price, marketCap: price === null ? null : usdValue(BigInt(t.supply), t.decimals, price), holders: counts.get(t.id) ?? 0 };
  });
  const keys = {
    id: (r: (typeof rows)[number]) => BigInt(r.token.id),
    symbol: (r: (typeof rows)[number]) => r.token.symbol.toLowerCase(),
    holders: (r: (typeof rows)[number]) => BigInt(r.holders),
    valueUsd: (r: (typeof rows)[number]) => r.price,
    marketCap: (r: (typeof rows)[number]) => r.marketCap,
  };
  const { items, ...page } = paged(
    sortRows(rows, keys[q.sort], q.order, (r) => r.token.id),
    q,
  );
  return {
    ...page,
    sort: q.sort,
    order: q.order,
    blockNumber: head?.number ?? null,
    assets: items.map((r) => ({
      tokenId: r.token.id,
      name: r.token.name,
      symbol: r.token.symbol,
      ...tokenIdentity(r.token),
      decimals: r.token.decimals,
      totalSupply: normalizeDecimal(r.token.supply),
      valueUsd: r.price === null ? null : usd(r.price),
      marketCapUsd: r.marketCap === null ? null : usd(r.marketCap),
      holders: r.holders,
      status: r.token.status,
    })),
  };
}

export async function listPoolRows(db: Database, q: ListQuery<(typeof POOL_SORTS)[number]>) {
  // Every pool with its TVL computed in SQL (exactly as poolTvlUsd), the 24 h totals of every
  // pool when they are the sort key, else of the page's pools only; the tokens and prices of
  // the page's pools only.
  const values = poolValues(db); // sent with the window's query (one snapshot's queries are pipelined)
  values.catch(() => {}); // (awaited below; not an unhandled rejection if the window's query fails first)
  const w = await window(db);
  // Sorted by TVL or id, only the page's pools need their 24 h totals.
  const everyTotal = q.sort === "volume24h" || q.sort === "swaps24h";
  const [pools, totals] = await Promise.all([values, w && everyTotal ? exactSwapTotalsByPool(db, w.range) : Promise.resolve(new Map<string, ExactTotals>())]);
  const rows = pools.map((p, i) => {
    const t = totals.get(`${p.token0Id}/${p.token1Id}`);
    return { pool: p, i, tvl: BigInt(p.tvl), volume: t?.volume ?? 0n, fees: t?.fee ?? 0n, swaps: t?.swaps ?? 0 };
  });
  const keys = {
    tvl: (r: (typeof rows)[number]) => r.tvl,
    volume24h: (r: (typeof rows)[number]) => r.volume,
    swaps24h: (r: (typeof rows)[number]) => BigInt(r.swaps),
    id: (r: (typeof rows)[number]) => BigInt(r.pool.lpTokenId),
  };
  const { items, ...page } = paged(
    sortRows(rows, keys[q.sort], q.order, (r) => r.i),
    q,
  );
  const ids = [...new Set(items.flatMap((r) => [r.pool.token0Id, r.pool.token1Id]))];
  const [tokenRows, prices, pageTotals] = await Promise.all([
    getTokens(db, ids),
    latestPrices(db, ids),
    w && !everyTotal ? exactSwapTotalsByPool(db, w.range, items.map((r) => r.pool)) : Promise.resolve(undefined),
  ]);
  for (const r of pageTotals ? items : []) {
    const t = pageTotals!.get(`${r.pool.token0Id}/${r.pool.token1Id}`);
    Object.assign(r, { volume: t?.volume ?? 0n, fees: t?.fee ?? 0n, swaps: t?.swaps ?? 0 });
  }
  const tokens = new Map(tokenRows.map((t) => [t.id, t]));
  const side = (id: number, reserve: string) => {
    const t = tokens.get(id);
    const p = prices.get(id);
    // A token destroyed while its pool lives on has no row: its kind still follows from its id;
    // without its decimals no price applies to its reserve, as the TVL (SQL) counts it.
    const identity = t ? tokenIdentity(t) : { kind: id > 2 ** 32 ? ("foreign" as const) : ("asset" as const), assetId: null, location: null };
    return { tokenId: id, symbol: t?.symbol ?? "", decimals: t?.decimals ?? 0, ...identity, reserve: normalizeDecimal(reserve), priceUsd: t && p ? normalizeDecimal(p.priceUsd) : null };
  };
  return {
    ...page,
    sort: q.sort,
    order: q.order,
    blockNumber: w?.head.number ?? null,
    pools: items.map((r) => ({
      tokenA: side(r.pool.token0Id, r.pool.reserve0),
      tokenB: side(r.pool.token1Id, r.pool.reserve1),
      lpTokenId: r.pool.lpTokenId,
      totalValueLocked: usd(r.tvl),
      volume24h: usd(r.volume),
      fees24h: usd(r.fees),
      swaps24h: r.swaps,
    })),
  };
}

/** Buckets per history answer: enough for a chart, bounded for the server. */
export const MAX_BUCKETS = 1_000;

/**
 * USD value of one whole token at the end of each `interval` (seconds) from `from` to `to`
 * (Unix seconds; default: the 24 h ending at the newest indexed block, hourly): the last price
 * at or before that moment; null before the token had a price (blockNumber null), and from the
 * block its price expired until it has one again (blockNumber = that block).
 */
export async function oracleHistory(db: Database, id: number, q: { from?: number | undefined; to?: number | undefined; interval?: number | undefined }) {
  const token = await requireToken(db, id);
  const head = await latestBlock(db);
  const to = q.to ?? head?.timestamp ?? Math.floor(Date.now() / 1000);
  const interval = q.interval ?? 3_600;
  // The default day ends at "to" and starts no earlier than the epoch (to=0 gave negative times).
  const from = q.from ?? Math.max(0, to - 86_400);
  if (from >= to) throw new AppError("VALIDATION_ERROR", `Invalid query parameter "from": it must be before "to" (${to}).`);
  const buckets = Math.ceil((to - from) / interval);
  if (buckets > MAX_BUCKETS) {
    throw new AppError("VALIDATION_ERROR", `Invalid query parameter "interval": (to - from) / interval gives ${buckets} points, more than ${MAX_BUCKETS}.`);
  }
  const coverage = await coverageOf(db, "state");
  await requireTimes(db, coverage, q.from, q.to, named({ from: q.from, to: q.to }));
  const prices = await priceBuckets(db, id, { from, to, interval, buckets });
  const out = prices.map((p, b) => ({ timestamp: Math.min(from + (b + 1) * interval, to), valueUsd: p?.priceUsd == null ? null : normalizeDecimal(p.priceUsd), blockNumber: p?.blockNumber ?? null }));
  return { tokenId: token.id, symbol: token.symbol, ...tokenIdentity(token), from, to, interval, ...coverageBody(coverage), points: out };
}
