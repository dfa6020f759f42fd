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

/** A token's columns but its id: the current row (tokens) and each block's (token_history). */
export const tokenFields = () => ({
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
  /**
   * The chain's own count of the asset's accounts (AssetDetails.accounts, zero balances
   * included); null for the native token. Compared with chain storage to find holders that
   * changed without an event naming them.
   */
  accounts: int64(),
  /** Block at which these values were read. */
  blockNumber: int64().notNull(),
});

/**
 * Every token: the native one (under NATIVE_TOKEN_ID), the assets of pallet-assets (under their
 * id; the one whose id is the native id under 2^32) and the foreign assets of ForeignAssets
 * (under an id derived from their location, 2^32 + 1 … 2^53 − 1).
 */
export const tokens = pgTable(
  "tokens",
  {
    id: int64().primaryKey(),
    ...tokenFields(),
  },
  (t) => [index("tokens_symbol_idx").on(sql`lower(${t.symbol})`)],
);

/** Balance of one account in one token. A zero balance has no row. */
export const holders = pgTable(
  "holders",
  {
    tokenId: int64().notNull(),
    account: address().notNull(),
    /** What the token's holder answers rank by: native free + reserved, an asset's balance. */
    balance: amount().notNull(),
    /**
     * The native token's parts (null for assets): free, reserved, frozen as the runtime's
     * AccountData states them, and what can be transferred, by that runtime's rule.
     */
    free: amount(),
    reserved: amount(),
    frozen: amount(),
    transferable: amount(),
    /** An asset account's state (null for the native token): liquid | frozen | blocked. */
    status: text({ enum: ["liquid", "frozen", "blocked"] }),
    blockNumber: int64().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.account] }),
    // Serves the holders page in rank order, and keyset paging from a cursor.
    index("holders_rank_idx").on(t.tokenId, t.balance.desc(), t.account),
    // Serves an account's portfolio (GET /accounts/{address}): every token one address holds.
    index("holders_account_idx").on(t.account),
  ],
);

/**
 * Balances of LP tokens (pallet-pool-assets), by the pool's LP token id: an account's liquidity
 * positions. Kept apart from `holders`, whose ids are those of tradable tokens (an LP token's id
 * is in the PoolAssets pallet's own id space, which overlaps the Assets pallet's).
 */
export const lpHolders = pgTable(
  "lp_holders",
  {
    lpTokenId: int64().notNull(),
    account: address().notNull(),
    balance: amount().notNull(),
    blockNumber: int64().notNull(),
  },
  (t) => [primaryKey({ columns: [t.lpTokenId, t.account] }), index("lp_holders_account_idx").on(t.account)],
);

/**
 * Supply and holder count of a token after each batch of blocks that changed either (as the
 * indexer follows the chain; a history backfill reads no balances, so adds none): the asset
 * history route reads the last row at or before each interval's end.
 */
export const tokenStats = pgTable(
  "token_stats",
  {
    tokenId: int64().notNull(),
    blockNumber: int64().notNull(),
    timestamp: int64().notNull(),
    supply: amount().notNull(),
    holders: bigint({ mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.blockNumber] })],
);

/**
 * USD price candles of a token per bucket of `res` seconds (60, 900, 3600, 86400), kept at
 * ingest from the price points written: open and close are the points of the bucket's first
 * and last block, high and low the extremes. Idempotent (a replay or a backfill writing older
 * blocks later lands the same row), and a candle query reads ≤ 5 rows per candle.
 */
export const tokenCandles = pgTable(
  "token_candles",
  {
    tokenId: int64().notNull(),
    res: integer().notNull(),
    bucket: int64().notNull(),
    openBlock: int64().notNull(),
    open: numeric().notNull(),
    closeBlock: int64().notNull(),
    close: numeric().notNull(),
    high: numeric().notNull(),
    low: numeric().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.res, t.bucket] })],
);

/**
 * USD value of one whole token, from the block at which it last changed. Null: from this block
 * the token has no price (every route fell below the liquidity floor, or its pools are gone).
 */
export const tokenPrices = pgTable(
  "token_prices",
  {
    tokenId: int64().notNull(),
    blockNumber: int64().notNull(),
    priceUsd: numeric(),
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
  /** Null: no current price since blockNumber (see token_prices). */
  priceUsd: numeric(),
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
