import { sql } from "drizzle-orm";
import { customType, index, integer, numeric, pgTable, primaryKey, text, type AnyPgColumn } from "drizzle-orm/pg-core";
import { address, amount, int64 } from "./tokens.js";

/**
 * The kinds of transfer row. Stored as a code, the kind's place in this list (transferKind below):
 * append a new kind at the end, never reorder or remove one (migration 0028 wrote these codes).
 */
export const TRANSFER_KINDS = ["transfer", "mint", "burn", "deposit", "withdraw", "fee", "dust", "slash"] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

/** The code a kind is stored as (its place in TRANSFER_KINDS). */
export function transferKindCode(kind: TransferKind): number {
  const code = TRANSFER_KINDS.indexOf(kind);
  if (code < 0) throw new Error(`transfers: no such kind ${JSON.stringify(kind)}`);
  return code;
}

/** The kind a stored code stands for; a code outside the list is an error, never a guess. */
export function transferKindOf(code: number | string): TransferKind {
  const kind = TRANSFER_KINDS[Number(code)];
  if (kind === undefined) throw new Error(`transfers: no kind has the code ${String(code)}`);
  return kind;
}

/**
 * A kind as a 2-byte code, not its name (issue 40): the four list indexes put the kind second in
 * their keys. Side by side on PostgreSQL 15, 2026-11-29 (docs/performance.md, "The kind as a
 * code"): ingestion +18 % on two writers (62.2k against 52.6k rows/s), the index builds of a
 * 10M-row partition −27 %, the list indexes 387 MB against 474 MB; after it, the bench's bulk path
 * took 133k rows/s and a million rows 265 MB on disk (293 before).
 */
const transferKind = customType<{ data: TransferKind; driverData: number }>({
  dataType: () => "smallint",
  toDriver: transferKindCode,
  fromDriver: transferKindOf,
});

/** (−block, −event): the newest-first keys of the list indexes (see below). */
const newestFirst = (t: { blockNumber: AnyPgColumn; eventIndex: AnyPgColumn }) => [sql`(-${t.blockNumber})`, sql`(-${t.eventIndex})`] as const;

/**
 * An integer id for every address a transfer row names (issue 40): the account list indexes
 * (transfers_from_idx, transfers_to_idx) key on it instead of the 48-character address. Side by
 * side on PostgreSQL 15, 2026-11-28 (100,000 rows a run, the transfers table's five indexes,
 * ids resolved before the insert from the writer's cache): text keys 44–59k rows/s on one writer
 * and 63–78k on two, integer ids 66–87k and 93–109k; indexes 139 MB against 86 MB and the heap 63
 * MB against 36 MB at 300,000 rows (docs/performance.md, "Keys"). Ids are given out as new
 * addresses arrive (db/queries/account-ids.ts), never reused or removed: a row's id names the
 * same address forever, whatever order backfill chunks landed in (ids differ between stores; the
 * addresses they stand for do not).
 */
export const accountIds = pgTable("account_ids", {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  address: address().notNull().unique(),
});

/**
 * One row per balance movement the chain reported in an event, exactly as it said it
 * (docs/api.md, "Transfers"): the native token's `balances` events, pallet-assets and
 * ForeignAssets events of a token (`tokenId`), and PoolAssets events of an LP token
 * (`lpTokenId`; its own id space, so never in `tokenId`). A mint has no `from`, a burn no `to`.
 * Keyed by the event, so replaying a block writes nothing twice.
 */
export const transfers = pgTable(
  "transfers",
  {
    blockNumber: int64().notNull(),
    eventIndex: integer().notNull(),
    /** Index of the extrinsic in its block; null outside one (initialization, finalization). */
    extrinsicIndex: integer(),
    timestamp: int64().notNull(),
    tokenId: int64(),
    lpTokenId: int64(),
    /** The sender's and the receiver's id in account_ids (below). */
    fromId: integer(),
    toId: integer(),
    amount: amount().notNull(),
    /** transfer | mint | burn | deposit | withdraw | fee | dust | slash (docs/api.md lists which event is which). */
    kind: transferKind().notNull(),
    /** "section.method" of the event. */
    event: text().notNull(),
    /** A fee's tip, as its event states it (indexer/fees.ts); null on every other kind. */
    tip: amount(),
    /** The amount at the USD price of the token at this block; null when unpriced (LP tokens always). */
    valueUsd: numeric(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.eventIndex] }),
    // Each route's order as an index: an account's sent and received (merged by the query), a
    // token's, an LP token's. The kind comes next, so a kind filter is one index range and a list
    // of every kind merges one range per kind (db/queries/transfer-walk.ts). Newest first is the
    // ascending order of (−block, −event): negated, so that no other index can serve it. With
    // plain keys the planner may walk the primary key backwards filtering on the token instead,
    // and a token in a quarter of the rows asked for blocks before its first transfer read every
    // row below them (1,000,000 rows, 0.65–0.84 s on 2M; docs/performance.md).
    index("transfers_from_idx").on(t.fromId, t.kind, ...newestFirst(t)).where(sql`from_id is not null`),
    index("transfers_to_idx").on(t.toId, t.kind, ...newestFirst(t)).where(sql`to_id is not null`),
    index("transfers_token_idx").on(t.tokenId, t.kind, ...newestFirst(t)).where(sql`token_id is not null`),
    index("transfers_lp_token_idx").on(t.lpTokenId, t.kind, ...newestFirst(t)).where(sql`lp_token_id is not null`),
  ],
);
