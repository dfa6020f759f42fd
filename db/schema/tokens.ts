import { sql } from "drizzle-orm";
import { bigint, customType, index, integer, jsonb, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/** u128 amounts in smallest units: numeric(78,0) holds any u256, so never overflows. */
export const amount = () => numeric({ precision: 78, scale: 0 });
/** Block numbers, token ids (u32) and Unix-second timestamps all fit a JS number exactly. */
export const int64 = () => bigint({ mode: "number" });
/**
 * SS58 addresses, compared byte-wise (collation "C") so that the holder order and keyset
 * cursors are the same on every server, whatever its default locale.
 */
export const address = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * Every token: the native one (under NATIVE_TOKEN_ID), the assets of pallet-assets (under their
 * id; the one whose id is the native id under 2^32) and the foreign assets of ForeignAssets
 * (under an id derived from their location, 2^32 + 1 … 2^53 − 1).
 */
export const tokens = pgTable(
  "tokens",
  {
    id: int64().primaryKey(),
    name: text().notNull().default(""),
    symbol: text().notNull().default(""),
    decimals: integer().notNull().default(0),
    supply: amount().notNull().default("0"),
    /** SS58 address of the owner (treasury) account; null for the native token. */
    owner: text(),
    kind: text({ enum: ["native", "asset", "foreign"] }).notNull().default("asset"),
    /** The Assets-pallet id of an `asset` (differs from id for the aliased one); null otherwise. */
    assetId: int64(),
    /** A foreign token's XCM location (canonical form, plain JSON); null otherwise. */
    location: jsonb(),
    /** live | frozen | destroying (destroyed assets are deleted). */
    status: text({ enum: ["live", "frozen", "destroying"] }).notNull().default("live"),
    /** Block at which these values were read. */
    blockNumber: int64().notNull(),
  },
  (t) => [index("tokens_symbol_idx").on(sql`lower(${t.symbol})`)],
);

/** Balance of one account in one token. A zero balance has no row. */
export const holders = pgTable(
  "holders",
  {
    tokenId: int64().notNull(),
    account: address().notNull(),
    balance: amount().notNull(),
    blockNumber: int64().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.account] }),
    // Serves the holders page in rank order, and keyset paging from a cursor.
    index("holders_rank_idx").on(t.tokenId, t.balance.desc(), t.account),
  ],
);

/** USD value of one whole token, from the block at which it last changed. */
export const tokenPrices = pgTable(
  "token_prices",
  {
    tokenId: int64().notNull(),
    blockNumber: int64().notNull(),
    priceUsd: numeric().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.blockNumber] })],
);

/**
 * The newest price of each token, one row per token, kept at ingest by insertPrices (a row only
 * moves forward in blocks, so a backfill writing older prices never replaces it): the lists and
 * stats read it without touching the price history.
 */
export const tokenLatestPrices = pgTable("token_latest_prices", {
  tokenId: int64().primaryKey(),
  blockNumber: int64().notNull(),
  priceUsd: numeric().notNull(),
});

/**
 * Holders per token, kept exact at ingest by the holder writes themselves (inserted rows add,
 * deleted rows subtract, in the same statement): totalHolders and the token list never count a
 * 500k-row token on a read.
 */
export const holderCounts = pgTable("holder_counts", {
  tokenId: int64().primaryKey(),
  holders: bigint({ mode: "number" }).notNull(),
});

/**
 * How to read each foreign token from chain storage: its location's bytes as the chain keys
 * ForeignAssets (and pools) by them. Kept apart from `tokens` and never deleted, so a token
 * destroyed while its pool lives on can still be read after a restart.
 */
export const foreignLocations = pgTable("foreign_locations", {
  tokenId: int64().primaryKey(),
  /** SCALE bytes (hex) of the location as the chain encodes it. */
  locationKey: text().notNull(),
  /** The canonical location as plain JSON. */
  location: jsonb().notNull(),
  /** Block at which these bytes were last seen. */
  blockNumber: int64().notNull(),
});
