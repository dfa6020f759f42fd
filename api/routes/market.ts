import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import { ADDRESS_RULE } from "../../shared/address.js";
import type { AppEnv } from "../env.js";
import { AsOf, asOfQuery, BalanceParts, COMMON_ERRORS, COVERAGE_RULE, Decimal, errors, HistoryCoverage, Integer, intQuery, json, tokenIdParam, TokenIdentity } from "../schemas.js";
import { accountPortfolio } from "../services/accounts.js";
import { assetHistory, INTERVAL_NAMES, MAX_POINTS, poolOhlcv, poolTrades } from "../services/history.js";

const security = [{ bearerAuth: [] }];
const nullableUsd = (description: string) => z.union([Decimal, z.null()]).openapi({ description });

const TokenRef = (name: string) =>
  z
    .string()
    .min(1)
    .max(64, "must be a token id or a symbol of at most 64 characters")
    .openapi({ param: { name, in: "path" }, example: name === "tokenA" ? "KSM" : "1984", description: "Token id or symbol (case-insensitive)" });

const PairSide = z.object({ tokenId: z.number().int(), symbol: z.string(), decimals: z.number().int() }).openapi("PairToken");

const intervalQuery = z
  .enum(INTERVAL_NAMES, { error: `must be one of ${INTERVAL_NAMES.join(", ")}` })
  .optional()
  .openapi({ param: { name: "interval", in: "query" }, description: `${INTERVAL_NAMES.join(", ")} (default 1h); intervals are aligned to UTC` });

const windowQuery = {
  interval: intervalQuery,
  from: intQuery("from", 0, 99_999_999_999, `Start, Unix seconds (default: 200 intervals before "to"); at most ${MAX_POINTS} intervals`),
  to: intQuery("to", 0, 99_999_999_999, "End, Unix seconds (default, and at most: the newest indexed block's time)"),
};

// ---- /accounts/{address}

const AccountToken = z
  .object({
    tokenId: z.number().int(),
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int(),
    ...TokenIdentity,
    balance: Integer.openapi({ description: "All the account has: native token free + reserved, an asset's balance" }),
    valueUsd: nullableUsd("balance valued at the token's USD value; null when it has none"),
    share: Decimal.openapi({ description: "balance / totalSupply" }),
    ...BalanceParts,
    blockNumber: z.number().int().openapi({ description: "Block at which the balance was read" }),
  })
  .openapi("AccountToken");

const Underlying = z
  .object({ tokenId: z.number().int(), symbol: z.string(), decimals: z.number().int(), amount: Integer, valueUsd: nullableUsd("USD value of amount") })
  .openapi("LpUnderlying");

const LpPosition = z
  .object({
    lpTokenId: z.number().int(),
    pool: z.string().openapi({ example: "KSM/USDT" }),
    balance: Integer.openapi({ description: "LP tokens held" }),
    lpSupply: Integer,
    share: Decimal.openapi({ description: "balance / lpSupply: the share of the pool's reserves" }),
    tokenA: Underlying,
    tokenB: Underlying,
    valueUsd: Decimal.openapi({ description: "The underlying amounts in USD (an unpriced side counts 0)" }),
    blockNumber: z.number().int(),
  })
  .openapi("LpPosition");

const Portfolio = z
  .object({
    address: z.string().openapi({ description: "The address in the chain's SS58 prefix" }),
    accountId: z.string().openapi({ description: "The 32-byte account id, hex" }),
    tokens: z.array(AccountToken).openapi({ description: "Non-zero balances, highest USD value first (unpriced last)" }),
    lpPositions: z.array(LpPosition),
    totalValueUsd: Decimal,
    truncated: z.boolean().openapi({ description: "true when the account holds more than 1,000 tokens or positions (the first 1,000 by id are shown)" }),
    blockNumber: z.number().int().nullable().openapi({ description: "The newest indexed block (with at/atTime: the block answered)" }),
    timestamp: z.number().int().nullable(),
    asOf: AsOf.optional().openapi({ description: "With at or atTime only: the block the answer is exact at (balance parts are null then: history keeps balances, not their parts)" }),
  })
  .openapi("Portfolio");

const account = createRoute({
  method: "get",
  path: "/accounts/{address}",
  operationId: "getAccount",
  tags: ["accounts"],
  summary: "Portfolio of one account: token balances, LP positions and their USD value; now, or as of a block (?at=) or a time (?atTime=)",
  security,
  request: {
    params: z.object({
      address: z.string().min(1).max(66, ADDRESS_RULE).openapi({ param: { name: "address", in: "path" }, example: "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F", description: `Account: ${ADDRESS_RULE}` }),
    }),
    query: z.object(asOfQuery),
  },
  responses: {
    200: json(Portfolio, "What the account holds"),
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

// ---- /pools/{tokenA}/{tokenB}/swaps

const Trade = z
  .object({
    blockNumber: z.number().int(),
    timestamp: z.number().int(),
    extrinsicIndex: z.number().int().nullable().openapi({ description: "Position of the extrinsic in its block; null outside one" }),
    eventIndex: z.number().int(),
    hop: z.number().int().openapi({ description: "Position of this pool in the swap's path, from 0" }),
    hops: z.number().int().openapi({ description: "Pools the whole swap crossed" }),
    multiHop: z.boolean().openapi({ description: "true when this row is one hop of a longer path" }),
    account: z.string().nullable().openapi({ description: "The trader; null for a swap of credit (a fee paid in an asset, XCM)" }),
    side: z.enum(["buy", "sell"]).openapi({ description: "buy: tokenA came out of the pool; sell: tokenA went in" }),
    tokenIn: z.number().int(),
    tokenOut: z.number().int(),
    amountIn: Integer,
    amountOut: Integer,
    volumeUsd: Decimal.openapi({ description: "amountIn in USD at the prices of the swap's block" }),
    fee: Integer.openapi({ description: "LP fee, in tokenIn smallest units" }),
    feeUsd: Decimal,
  })
  .openapi("Trade");

const TradePage = z
  .object({ tokenA: PairSide, tokenB: PairSide, ...HistoryCoverage, trades: z.array(Trade), nextCursor: z.string().nullable().openapi({ description: "Pass as ?cursor= for older trades; null on the last page" }) })
  .openapi("TradePage");

const PAIR_ERRORS = ["VALIDATION_ERROR", "AMBIGUOUS_TOKEN", "TOKEN_NOT_FOUND", "POOL_NOT_FOUND", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS] as const;

const trades = createRoute({
  method: "get",
  path: "/pools/{tokenA}/{tokenB}/swaps",
  operationId: "listPoolSwaps",
  security: [],
  tags: ["pool"],
  summary: "A pool's trades, newest first (keyset cursor; public)",
  description: COVERAGE_RULE,
  request: {
    params: z.object({ tokenA: TokenRef("tokenA"), tokenB: TokenRef("tokenB") }),
    query: z.object({
      limit: intQuery("limit", 1, 500, "Trades per page, 1-500 (default 50)"),
      cursor: z.string().max(128, "must be at most 128 characters").optional().openapi({ param: { name: "cursor", in: "query" }, description: "nextCursor of the previous page" }),
    }),
  },
  responses: { 200: json(TradePage, "One page of trades"), ...errors(...PAIR_ERRORS) },
});

// ---- /pools/{tokenA}/{tokenB}/ohlcv

const Ohlc = z.object({ open: Decimal, high: Decimal, low: Decimal, close: Decimal }).openapi("Ohlc");

const Candle = z
  .object({
    timestamp: z.number().int().openapi({ description: "Start of the interval (Unix seconds)" }),
    open: Decimal.openapi({ description: "Whole tokenB per whole tokenA after the interval's first block that moved the reserves" }),
    high: Decimal,
    low: Decimal,
    close: Decimal.openapi({ description: "… after its last such block" }),
    usd: z.union([Ohlc, z.null()]).openapi({ description: "tokenA's USD value over the interval; null before it had one" }),
    volumeA: Integer.openapi({ description: "tokenA moved through the pool (in and out), smallest units" }),
    volumeB: Integer,
    volumeUsd: Decimal,
    swaps: z.number().int(),
    empty: z.boolean().openapi({ description: "No block moved the reserves: the prices are the previous close" }),
  })
  .openapi("Candle");

const Candles = z
  .object({ tokenA: PairSide, tokenB: PairSide, interval: z.enum(INTERVAL_NAMES), from: z.number().int(), to: z.number().int(), blockNumber: z.number().int().nullable(), ...HistoryCoverage, candles: z.array(Candle) })
  .openapi("Candles");

const ohlcv = createRoute({
  method: "get",
  path: "/pools/{tokenA}/{tokenB}/ohlcv",
  operationId: "getPoolOhlcv",
  security: [],
  tags: ["pool"],
  summary: "Candles of a pool: price of tokenA in tokenB and in USD, volumes (public)",
  description: COVERAGE_RULE,
  request: { params: z.object({ tokenA: TokenRef("tokenA"), tokenB: TokenRef("tokenB") }), query: z.object(windowQuery) },
  responses: { 200: json(Candles, "Candles, oldest first; intervals before the pool's first price are left out. Every candle covers its whole interval: the last one, the interval holding \"to\", may include blocks after \"to\" (as a chart's current candle does)"), ...errors(...PAIR_ERRORS) },
});

// ---- /assets/{id}/history

const SupplyPoint = z
  .object({
    timestamp: z.number().int().openapi({ description: "End of the interval (Unix seconds)" }),
    supply: z.union([Integer, z.null()]).openapi({ description: "Total supply at that time; null before the indexer recorded one" }),
    holders: z.number().int().nullable(),
    blockNumber: z.number().int().nullable(),
  })
  .openapi("SupplyPoint");

const SupplyHistory = z
  .object({
    tokenId: z.number().int(),
    symbol: z.string(),
    decimals: z.number().int(),
    interval: z.enum(INTERVAL_NAMES),
    from: z.number().int(),
    to: z.number().int(),
    ...HistoryCoverage,
    points: z.array(SupplyPoint),
  })
  .openapi("SupplyHistory");

const assetHistoryRoute = createRoute({
  method: "get",
  path: "/assets/{id}/history",
  operationId: "getAssetHistory",
  tags: ["assets"],
  summary: "Supply and holder count of a token over time",
  description: COVERAGE_RULE,
  security,
  request: { params: z.object({ id: tokenIdParam("id") }), query: z.object(windowQuery) },
  responses: { 200: json(SupplyHistory, "One point per interval, oldest first"), ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS) },
});

export function marketRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(account, async (c) => c.json(await accountPortfolio(deps.db, c.req.valid("param").address, c.req.valid("query")), 200))
    .openapi(trades, async (c) => {
      const { tokenA, tokenB } = c.req.valid("param");
      const q = c.req.valid("query");
      return c.json(await poolTrades(deps.db, tokenA, tokenB, { limit: q.limit ?? 50, cursor: q.cursor }), 200);
    })
    .openapi(ohlcv, async (c) => {
      const { tokenA, tokenB } = c.req.valid("param");
      return c.json(await poolOhlcv(deps.db, tokenA, tokenB, c.req.valid("query")), 200);
    })
    .openapi(assetHistoryRoute, async (c) => c.json(await assetHistory(deps.db, c.req.valid("param").id, c.req.valid("query")), 200));
}
