/** Transfer rows appended by the indexer, in one statement per call (the ingestion hot path). */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../database.js";
import { transferKindCode, type transfers } from "../schema/index.js";
import { accountIds } from "./account-ids.js";
import { pgArray } from "./bulk.js";
import { ensurePartitions } from "./partitions.js";

/** A transfer row as the indexer has it: accounts by address (their ids are the store's: account_ids). */
export type NewTransfer = Omit<typeof transfers.$inferInsert, "fromId" | "toId"> & { fromAccount?: string | null; toAccount?: string | null };

/** The addresses `rows` name, for accountIds ahead of the transaction that inserts them (indexer/writer.ts). */
export const transferAddresses = (rows: NewTransfer[]): (string | null | undefined)[] => rows.flatMap((r) => [r.fromAccount, r.toAccount]);

/**
 * Appends transfer rows in one statement (array parameters and unnest: the ingestion hot path).
 * Keyed by (block, event): a block written again writes nothing twice. `ids`: the accounts' ids
 * when resolved already (accountIds on the pool, before the transaction, as the writer does);
 * looked up here if not — inside `db`'s transaction when it is one, where a writer making many
 * such calls per transaction, beside another, could deadlock on their new addresses (each call's
 * are sorted, not the transaction's): such a writer resolves them first.
 */
export async function insertTransfers(db: Database, rows: NewTransfer[], ids?: Map<string, number>): Promise<void> {
  if (rows.length === 0) return;
  await ensurePartitions(db, "transfers", rows.map((r) => r.blockNumber));
  const known = ids !== undefined && rows.every((r) => (r.fromAccount == null || ids.has(r.fromAccount)) && (r.toAccount == null || ids.has(r.toAccount)));
  const idOf = known ? ids : await accountIds(db, transferAddresses(rows));
  await db.execute(sql`insert into transfers ${TRANSFER_COLUMNS} ${unnestTransfers(rows, idOf)} on conflict (block_number, event_index) do nothing`);
}

/** A transfer row's columns as the writes give them (unnestTransfers, transferCopyRow), in order. */
export const TRANSFER_COLUMN_NAMES = ["block_number", "event_index", "extrinsic_index", "timestamp", "token_id", "lp_token_id", "from_id", "to_id", "amount", "kind", "event", "value_usd", "tip"] as const;
export const TRANSFER_COLUMNS = sql.raw(`(${TRANSFER_COLUMN_NAMES.join(", ")})`);

/** An account's id in `idOf`; null for none. Never a row that names no one: an address without an id is an error, not a null account. */
function accountIdOf(idOf: Map<string, number>, a: string | null | undefined): number | null {
  if (a == null) return null;
  const id = idOf.get(a);
  if (id === undefined) throw new Error(`transfers: no account id for ${a}`);
  return id;
}

/** A row's values in TRANSFER_COLUMN_NAMES' order, its accounts as the ids in `idOf` (a COPY's row: db/copy.ts). */
export function transferCopyRow(r: NewTransfer, idOf: Map<string, number>): (string | number | null)[] {
  return [r.blockNumber, r.eventIndex, r.extrinsicIndex ?? null, r.timestamp, r.tokenId ?? null, r.lpTokenId ?? null, accountIdOf(idOf, r.fromAccount), accountIdOf(idOf, r.toAccount), r.amount, transferKindCode(r.kind), r.event, r.valueUsd ?? null, r.tip ?? null];
}

/**
 * `rows` as one `select` of array parameters (unnest), in TRANSFER_COLUMN_NAMES' order, their
 * accounts as the ids in `idOf`.
 */
export function unnestTransfers(rows: NewTransfer[], idOf: Map<string, number>): SQL {
  const col = <K extends keyof NewTransfer>(k: K) => pgArray(rows.map((r) => r[k] ?? null));
  const idCol = (k: "fromAccount" | "toAccount") => pgArray(rows.map((r) => accountIdOf(idOf, r[k])));
  return sql`select * from unnest(${col("blockNumber")}::bigint[], ${col("eventIndex")}::integer[], ${col("extrinsicIndex")}::integer[], ${col("timestamp")}::bigint[],
                         ${col("tokenId")}::bigint[], ${col("lpTokenId")}::bigint[], ${idCol("fromAccount")}::integer[], ${idCol("toAccount")}::integer[],
                         ${col("amount")}::numeric[], ${pgArray(rows.map((r) => transferKindCode(r.kind)))}::smallint[], ${col("event")}::text[], ${col("valueUsd")}::numeric[], ${col("tip")}::numeric[])`;
}
