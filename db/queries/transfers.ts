import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../client.js";
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

export type Transfer = typeof transfers.$inferSelect;

/** A position in a transfer list, newest first: rows strictly older than it come next. */
export interface TransferPosition {
  blockNumber: number;
  eventIndex: number;
}

export interface TransferFilter {
  tokenId?: number | undefined;
  lpTokenId?: number | undefined;
  kind?: string | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
  fromTime?: number | undefined;
  toTime?: number | undefined;
  before?: TransferPosition | undefined;
}

function conditions(f: TransferFilter) {
  const c = [];
  if (f.tokenId !== undefined) c.push(sql`token_id = ${f.tokenId}`);
  if (f.lpTokenId !== undefined) c.push(sql`lp_token_id = ${f.lpTokenId}`);
  if (f.kind !== undefined) c.push(sql`kind = ${f.kind}`);
  if (f.fromBlock !== undefined) c.push(sql`block_number >= ${f.fromBlock}`);
  if (f.toBlock !== undefined) c.push(sql`block_number <= ${f.toBlock}`);
  if (f.fromTime !== undefined) c.push(sql`timestamp >= ${f.fromTime}`);
  if (f.toTime !== undefined) c.push(sql`timestamp <= ${f.toTime}`);
  if (f.before) c.push(sql`(block_number, event_index) < (${f.before.blockNumber}, ${f.before.eventIndex})`);
  return c.length === 0 ? sql`true` : sql.join(c, sql` and `);
}

const COLUMNS = sql.raw(
  "block_number as \"blockNumber\", event_index as \"eventIndex\", extrinsic_index as \"extrinsicIndex\", timestamp, token_id as \"tokenId\", lp_token_id as \"lpTokenId\", from_account as \"fromAccount\", to_account as \"toAccount\", amount::text as amount, kind, event, value_usd::text as \"valueUsd\"",
);

const toTransfer = (r: Record<string, unknown>): Transfer => ({
  blockNumber: Number(r.blockNumber),
  eventIndex: Number(r.eventIndex),
  extrinsicIndex: r.extrinsicIndex === null ? null : Number(r.extrinsicIndex),
  timestamp: Number(r.timestamp),
  tokenId: r.tokenId === null ? null : Number(r.tokenId),
  lpTokenId: r.lpTokenId === null ? null : Number(r.lpTokenId),
  fromAccount: r.fromAccount as string | null,
  toAccount: r.toAccount as string | null,
  amount: r.amount as string,
  kind: r.kind as Transfer["kind"],
  event: r.event as string,
  valueUsd: r.valueUsd as string | null,
});

/**
 * An account's transfers, newest first: what it sent and what it received, each read in the
 * order of its own index (transfers_from_idx, transfers_to_idx) and merged; `limit` rows at most.
 */
export async function accountTransfers(db: Database, account: string, direction: "in" | "out" | undefined, f: TransferFilter, limit: number): Promise<Transfer[]> {
  const where = conditions(f);
  const side = (column: string) => sql`(select ${COLUMNS} from transfers where ${sql.raw(column)} = ${account} and ${where} order by block_number desc, event_index desc limit ${limit})`;
  const parts = direction === "out" ? [side("from_account")] : direction === "in" ? [side("to_account")] : [side("from_account"), side("to_account")];
  // union (not union all): a transfer to oneself is in both and is one row.
  const rows = await db.execute(sql`select * from (${sql.join(parts, sql` union `)}) t order by "blockNumber" desc, "eventIndex" desc limit ${limit}`);
  return rowsOf<Record<string, unknown>>(rows).map(toTransfer);
}

/** A token's (or an LP token's) transfers, newest first, `limit` rows at most. */
export async function tokenTransfers(db: Database, f: TransferFilter, limit: number): Promise<Transfer[]> {
  const rows = await db.execute(sql`select ${COLUMNS} from transfers where ${conditions(f)} order by block_number desc, event_index desc limit ${limit}`);
  return rowsOf<Record<string, unknown>>(rows).map(toTransfer);
}

/**
 * Retention: transfers before block `before` are given up (`tokenpool prune-history --transfers`).
 * The "transfers" floor moves first, in its own transaction, so every list says where it is
 * complete from while rows go; then the rows go in batches of `batch`, each its own transaction
 * (no long lock on a table the indexer appends to). `before` must be at most the follower's
 * checkpoint. Running it again deletes nothing. Returns the rows deleted.
 */
export async function pruneTransfers(db: Database, before: number, batch = 50_000): Promise<number> {
  const [cp] = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from checkpoints where name = 'follower'`));
  if (!cp || before > Number(cp.block_number)) throw new Error(`block ${before} is after the store's checkpoint (${cp ? cp.block_number : "none"}): transfers up to the newest block are kept`);
  await db.execute(sql`
    insert into history_floors (kind, block_number) values ('transfers', ${before}::bigint)
    on conflict (kind) do update set block_number = greatest(history_floors.block_number, excluded.block_number)`);
  let deleted = 0;
  for (;;) {
    const [r] = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        with gone as (
          delete from transfers where (block_number, event_index) in (
            select block_number, event_index from transfers where block_number < ${before}::bigint limit ${batch})
          returning 1
        ) select count(*) as n from gone`),
    );
    deleted += Number(r!.n);
    if (Number(r!.n) < batch) return deleted;
  }
}

/** The first block transfer lists are complete from, when transfers were pruned; undefined when never. */
export async function transfersFloor(db: Database): Promise<number | undefined> {
  const [r] = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from history_floors where kind = 'transfers'`));
  return r === undefined ? undefined : Number(r.block_number);
}
