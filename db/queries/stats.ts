/**
 * A token's supply and holder count after each batch that changed either (token_stats): written
 * with the batch, read back per interval by the asset history route.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../database.js";
import { tokenStats } from "../schema/index.js";

/** Records the supply and holder count of `tokenIds` as they stand after `block` (in the writing transaction). */
export async function recordTokenStats(db: Database, tokenIds: number[], block: { number: number; timestamp: number }): Promise<void> {
  if (tokenIds.length === 0) return;
  const ids = `{${tokenIds.join(",")}}`;
  await db.execute(sql`
    insert into token_stats (token_id, block_number, timestamp, supply, holders)
    select i.id, ${block.number}::bigint, ${block.timestamp}::bigint, coalesce(t.supply, 0), coalesce(c.holders, 0)
    from unnest(${ids}::bigint[]) as i(id) left join tokens t on t.id = i.id left join holder_counts c on c.token_id = i.id
    on conflict (token_id, block_number) do update set supply = excluded.supply, holders = excluded.holders, timestamp = excluded.timestamp`);
}

export interface StatsAt {
  blockNumber: number;
  timestamp: number;
  supply: string;
  holders: number;
}

/**
 * A token's supply and holder count at the end of each of `buckets` intervals from `from` (the
 * last end capped at `to`): per bucket one seek on token_stats' key for the newest row whose
 * time is at or before the end (rows are written in block order, and block times never
 * decrease). undefined before the first row.
 */
export async function statsBuckets(db: Database, tokenId: number, q: { from: number; to: number; interval: number; buckets: number }): Promise<(StatsAt | undefined)[]> {
  const result = await db.execute(sql`
    SELECT g.n AS n, s.block_number::text AS block_number, s.timestamp::text AS timestamp, s.supply::text AS supply, s.holders::text AS holders
    FROM generate_series(1, ${q.buckets}::integer) AS g(n)
    LEFT JOIN LATERAL (
      SELECT ts.block_number, ts.timestamp, ts.supply, ts.holders FROM token_stats ts
      WHERE ts.token_id = ${tokenId}::bigint
        AND ts.block_number <= (
          SELECT b.number FROM blocks b
          WHERE b.timestamp <= LEAST(${q.from}::bigint + g.n * ${q.interval}::bigint, ${q.to}::bigint)
          ORDER BY b.timestamp DESC, b.number DESC LIMIT 1)
      ORDER BY ts.block_number DESC LIMIT 1
    ) s ON true
    ORDER BY g.n`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { block_number: string | null; timestamp: string; supply: string; holders: string }[];
  return rows.map((r) => (r.block_number === null ? undefined : { blockNumber: Number(r.block_number), timestamp: Number(r.timestamp), supply: r.supply, holders: Number(r.holders) }));
}

/** Stats rows of a token in a block range (tests, verify). */
export function tokenStatsRows(db: Database, tokenId: number) {
  return db.select().from(tokenStats).where(eq(tokenStats.tokenId, tokenId)).orderBy(asc(tokenStats.blockNumber));
}
