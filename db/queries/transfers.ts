import { sql } from "drizzle-orm";
import type { Database } from "../client.js";
import type { transfers } from "../schema/index.js";
import { pgArray } from "./holders.js";

export type NewTransfer = typeof transfers.$inferInsert;

/**
 * Appends transfer rows in one statement (array parameters and unnest: the ingestion hot path).
 * Keyed by (block, event): a block written again writes nothing twice.
 */
export async function insertTransfers(db: Database, rows: NewTransfer[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof NewTransfer>(k: K) => pgArray(rows.map((r) => r[k] ?? null));
  await db.execute(sql`
    insert into transfers (block_number, event_index, extrinsic_index, timestamp, token_id, lp_token_id, from_account, to_account, amount, kind, event, value_usd)
    select * from unnest(${col("blockNumber")}::bigint[], ${col("eventIndex")}::integer[], ${col("extrinsicIndex")}::integer[], ${col("timestamp")}::bigint[],
                         ${col("tokenId")}::bigint[], ${col("lpTokenId")}::bigint[], ${col("fromAccount")}::text[], ${col("toAccount")}::text[],
                         ${col("amount")}::numeric[], ${col("kind")}::text[], ${col("event")}::text[], ${col("valueUsd")}::numeric[])
    on conflict (block_number, event_index) do nothing`);
}
