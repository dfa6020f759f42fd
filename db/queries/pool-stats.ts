/**
 * /pool/stats now, in one statement: the newest indexed block, the number of pools and the sum of
 * their TVLs (POOL_VALUES), and the totals of every pool's swaps in the 24 h ending at that block.
 * One statement is one snapshot (api/snapshot.ts runOne): the answer costs one round trip and no
 * transaction, where the window read first and the totals after it took four statements.
 *
 * The window is the seconds [t − 86,399, t + 1) of the block's time t (as swapTotals reads it),
 * summed from the all-pools buckets (ALL_POOLS) of its whole hours, the whole minutes at its two
 * ends, and the swaps of the seconds left over: at most 23 hours, 118 minutes and 118 seconds of
 * swaps, whatever the chain's age. Exact: numeric sums, truncated to USD_SCALE as swapTotals.
 * Prepared (db/prepared.ts): planning it took ≈ 10 times as long as running it on the devnet.
 * Its one parameter keeps it in the extended protocol: postgres.js sends a statement without
 * parameters as a simple query, which is never prepared.
 */
import { sql } from "drizzle-orm";
import { formatFixed, USD_SCALE } from "../../shared/decimal.js";
import { rowsOf, type Database } from "../database.js";
import { executePrepared } from "../prepared.js";
import { ALL_POOLS, SCALE } from "./activity.js";
import { POOL_VALUES } from "./pools.js";

export interface PoolStatsNow {
  head: { number: number; hash: string; timestamp: number } | undefined;
  pools: number;
  /** Fixed-point integer text (USD_SCALE decimals). */
  tvl: string;
  volumeUsd: string;
  feeUsd: string;
  swaps: number;
}

const DAY = 86_400;

export async function poolStatsNow(db: Database): Promise<PoolStatsNow> {
  const all = sql.raw(`token0_id = ${ALL_POOLS} and token1_id = ${ALL_POOLS}`);
  type Row = { number: string | number | null; hash: string | null; timestamp: string | number | null; pools: string | number; tvl: string; v: string | null; f: string | null; n: string | number | null };
  const [row] = rowsOf<Row>(
    await executePrepared(db, "pool_stats_now", sql`
      with head as (select number, hash, timestamp from blocks order by number desc limit 1),
      w as (select timestamp - ${DAY - 1}::bigint as lo, timestamp + 1 as hi from head),
      e as (select lo, hi, ((lo + 3599) / 3600) * 3600 as h0, (hi / 3600) * 3600 as h1, ((lo + 59) / 60) * 60 as m0, (hi / 60) * 60 as m1 from w),
      parts as (
        select volume_usd as v, fee_usd as f, swaps::bigint as n from pool_volume_hourly, e where ${all} and hour >= h0 and hour < h1
        union all select volume_usd, fee_usd, swaps from pool_volume_minutely, e where ${all} and minute >= m0 and minute < least(h0, m1)
        union all select volume_usd, fee_usd, swaps from pool_volume_minutely, e where ${all} and minute >= greatest(h1, m0) and minute < m1 and h0 < h1
        union all select volume_usd, fee_usd, 1 from swaps, e where timestamp >= lo and timestamp < least(m0, hi)
        union all select volume_usd, fee_usd, 1 from swaps, e where timestamp >= greatest(m1, m0) and timestamp < hi and m0 < m1
      )
      select head.number, head.hash, head.timestamp, v.pools, v.tvl, t.v, t.f, t.n
      from (select count(*)::integer as pools, trunc(coalesce(sum(tvl), 0))::text as tvl from (${POOL_VALUES}) p) v
      left join head on true
      cross join (select trunc(sum(v) * ${sql.raw(SCALE)})::text as v, trunc(sum(f) * ${sql.raw(SCALE)})::text as f, sum(n)::integer as n from parts) t`),
  );
  const head = row?.number == null ? undefined : { number: Number(row.number), hash: row.hash!, timestamp: Number(row.timestamp) };
  return {
    head,
    pools: Number(row?.pools ?? 0),
    tvl: row?.tvl ?? "0",
    volumeUsd: formatFixed(BigInt(row?.v ?? "0"), USD_SCALE),
    feeUsd: formatFixed(BigInt(row?.f ?? "0"), USD_SCALE),
    swaps: Number(row?.n ?? 0),
  };
}
