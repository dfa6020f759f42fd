import { sql } from "drizzle-orm";
import { index, integer, numeric, pgTable, primaryKey, smallint, text, unique } from "drizzle-orm/pg-core";
import { amount, int64 } from "./tokens.js";

/** A pool of pallet-asset-conversion; token0 is the chain's first location (native first). */
export const pools = pgTable(
  "pools",
  {
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    lpTokenId: int64().notNull(),
    account: text().notNull(),
    reserve0: amount().notNull().default("0"),
    reserve1: amount().notNull().default("0"),
    lpSupply: amount().notNull().default("0"),
    /** LP fee in parts per million of the amount in (the pallet's LPFee, normalised from its unit). */
    lpFeePpm: integer().notNull(),
    createdBlock: int64().notNull(),
    blockNumber: int64().notNull(),
  },
  (t) => [primaryKey({ columns: [t.token0Id, t.token1Id] }), unique("pools_lp_token_uq").on(t.lpTokenId)],
);

/**
 * A pool as read after each block that changed it (price history, 24 h change, a pair as of a
 * block): its reserves, and its LP supply and fee (null on rows written before migration 0016:
 * a pair as of such a block is refused, never guessed).
 */
export const poolReserves = pgTable(
  "pool_reserves",
  {
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    blockNumber: int64().notNull(),
    timestamp: int64().notNull(),
    reserve0: amount().notNull(),
    reserve1: amount().notNull(),
    lpSupply: amount(),
    lpFeePpm: integer(),
  },
  (t) => [
    primaryKey({ columns: [t.token0Id, t.token1Id, t.blockNumber] }),
    index("pool_reserves_time_idx").on(t.token0Id, t.token1Id, t.timestamp),
  ],
);

/** One hop of a SwapExecuted or SwapCreditExecuted event; a multi-hop swap has a row per pool it crossed. */
export const swaps = pgTable(
  "swaps",
  {
    blockNumber: int64().notNull(),
    eventIndex: integer().notNull(),
    hop: smallint().notNull(),
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    tokenIn: int64().notNull(),
    tokenOut: int64().notNull(),
    amountIn: amount().notNull(),
    amountOut: amount().notNull(),
    /** LP fee taken from amountIn, in tokenIn smallest units. */
    fee: amount().notNull(),
    /** amountIn and fee valued at the USD prices of the swap's own block. */
    volumeUsd: numeric().notNull(),
    feeUsd: numeric().notNull(),
    /** The trader; null for a swap of credit (SwapCreditExecuted: fees paid in an asset, XCM). */
    account: text(),
    timestamp: int64().notNull(),
    /** Index of the extrinsic in its block; null for a swap outside one (or indexed before this column). */
    extrinsicIndex: integer(),
    /** Pools the whole swap crossed: > 1 when this row is one hop of a longer path. */
    hops: smallint().notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.eventIndex, t.hop] }),
    index("swaps_time_idx").on(t.timestamp),
    index("swaps_pool_time_idx").on(t.token0Id, t.token1Id, t.timestamp),
    // A pool's trades newest first, keyset-paged (GET /pools/{a}/{b}/swaps), and an account's
    // (GET /accounts/{address}/swaps). Newest first is the ascending order of (−block, −event,
    // −hop), negated so that no other index serves it: with plain keys the planner may walk the
    // primary key backwards filtering on the pool, through every swap below a cursor or toBlock
    // placed before the pool's (or account's) first one (as the transfer lists: db/schema/transfers.ts).
    index("swaps_pool_block_idx").on(t.token0Id, t.token1Id, sql`(-${t.blockNumber})`, sql`(-${t.eventIndex})`, sql`(-${t.hop})`),
    index("swaps_account_block_idx").on(t.account, sql`(-${t.blockNumber})`, sql`(-${t.eventIndex})`, sql`(-${t.hop})`).where(sql`account is not null`),
  ],
);

/** LiquidityAdded / LiquidityRemoved events. */
export const liquidityEvents = pgTable(
  "liquidity_events",
  {
    blockNumber: int64().notNull(),
    eventIndex: integer().notNull(),
    kind: text({ enum: ["add", "remove"] }).notNull(),
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    account: text().notNull(),
    amount0: amount().notNull(),
    amount1: amount().notNull(),
    lpAmount: amount().notNull(),
    timestamp: int64().notNull(),
    /** Index of the extrinsic in its block (the DEX Screener adapter's txnId); null for rows indexed before migration 0026. */
    extrinsicIndex: integer(),
  },
  (t) => [primaryKey({ columns: [t.blockNumber, t.eventIndex] })],
);

/**
 * Swap volume and fees per pool and hour, maintained at ingest from the swap rows actually
 * inserted (so replays add nothing): 24 h figures read ≤ 25 buckets per pool instead of scanning
 * swaps.
 */
export const poolVolumeHourly = pgTable(
  "pool_volume_hourly",
  {
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    /** Unix seconds of the hour's start; the bucket holds timestamps [hour, hour + 3600). */
    hour: int64().notNull(),
    volumeUsd: numeric().notNull(),
    feeUsd: numeric().notNull(),
    swaps: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.token0Id, t.token1Id, t.hour] }), index("pool_volume_hourly_hour_idx").on(t.hour)],
);

/**
 * The same per minute: the partial hours at both ends of a 24 h window read ≤ 60 of these. The
 * minute index carries every column, so the edge minutes of all pools are one index-only range
 * (the rows of one minute lie on as many heap pages as pools when the table was not written in
 * time order).
 */
export const poolVolumeMinutely = pgTable(
  "pool_volume_minutely",
  {
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    /** Unix seconds of the minute's start. */
    minute: int64().notNull(),
    volumeUsd: numeric().notNull(),
    feeUsd: numeric().notNull(),
    swaps: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.token0Id, t.token1Id, t.minute] }), index("pool_volume_minutely_minute_covering_idx").on(t.minute, t.token0Id, t.token1Id, t.volumeUsd, t.feeUsd, t.swaps)],
);

/**
 * Candles of a pool per bucket of `res` seconds (60, 900, 3600, 86400), kept at ingest. Prices
 * are kept as the reserves they come from (token1 per token0 is r1/r0, whichever way a client
 * asks, exactly): open and close are the reserves after the bucket's first and last block that
 * changed them, high and low those of the extreme prices. Volumes come from the swap rows
 * actually inserted (a replay adds nothing): token0 and token1 moved through the pool, USD.
 */
export const poolCandles = pgTable(
  "pool_candles",
  {
    token0Id: int64().notNull(),
    token1Id: int64().notNull(),
    res: integer().notNull(),
    bucket: int64().notNull(),
    openBlock: int64(),
    openReserve0: amount(),
    openReserve1: amount(),
    closeBlock: int64(),
    closeReserve0: amount(),
    closeReserve1: amount(),
    highReserve0: amount(),
    highReserve1: amount(),
    lowReserve0: amount(),
    lowReserve1: amount(),
    volume0: amount().notNull().default("0"),
    volume1: amount().notNull().default("0"),
    volumeUsd: numeric().notNull().default("0"),
    swaps: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.token0Id, t.token1Id, t.res, t.bucket] })],
);
