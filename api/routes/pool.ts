import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import type { AppEnv } from "../env.js";
import { AsOf, asOfQuery, COMMON_ERRORS, Decimal, errors, Integer, json, TokenIdentity } from "../schemas.js";
import { aggregatePoolStats, pairStats } from "../services/pools.js";

const PoolStats = z
  .object({
    totalPools: z.number().int(),
    totalValueLocked: Decimal.openapi({ description: "Sum of every pool's totalValueLocked (each pool's priced sides, each once)" }),
    volume24h: Decimal,
    fees24h: Decimal,
    swaps24h: z.number().int(),
    blockNumber: z.number().int().nullable(),
    timestamp: z.number().int().nullable(),
  })
  .openapi("PoolStats");

const PairSide = z
  .object({
    tokenId: z.number().int(),
    symbol: z.string(),
    decimals: z.number().int(),
    ...TokenIdentity,
    reserve: Integer,
    // A union, not Decimal.nullable(): the generator renders the latter as an allOf that forbids null.
    priceUsd: z.union([Decimal, z.null()]).openapi({ description: "USD per whole token; null when no current route to a USD stablecoin above the liquidity floor exists" }),
  })
  .openapi("PairSide");

const PairStats = z
  .object({
    tokenA: PairSide,
    tokenB: PairSide,
    price: Decimal.openapi({ description: "Whole tokenB per whole tokenA, from the reserves" }),
    totalValueLocked: Decimal.openapi({ description: "USD value of the reserves of the sides with a priceUsd, each once; an unpriced side counts 0" }),
    volume24h: Decimal,
    fees24h: Decimal,
    swaps24h: z.number().int(),
    priceChange24h: Decimal.openapi({ description: "Change of price over 24 h, in percent" }),
    apr: Decimal.openapi({ description: "fees24h × 365 / totalValueLocked, in percent" }),
    lpTokenId: z.number().int(),
    lpSupply: Integer,
    feeRate: Decimal.openapi({ description: "LP fee as a fraction of the amount in (0.003 = 0.3 %), whatever unit the runtime states it in" }),
    blockNumber: z.number().int().openapi({ description: "The newest indexed block (with at/atTime: the block answered)" }),
    timestamp: z.number().int().nullable(),
    asOf: AsOf.optional().openapi({ description: "With at or atTime only: the block the answer is exact at (reserves, LP supply, fee, prices; the 24 h figures end there)" }),
  })
  .openapi("PairStats");

const TokenRef = (name: string) =>
  z
    .string()
    .min(1)
    .max(64, "must be a token id or a symbol of at most 64 characters")
    .openapi({ param: { name, in: "path" }, example: name === "tokenA" ? "KSM" : "1984", description: "Token id or symbol (case-insensitive)" });

const stats = createRoute({
  method: "get",
  path: "/pool/stats",
  operationId: "getPoolStats",
  security: [],
  tags: ["pool"],
  summary: "Aggregate statistics of all liquidity pools",
  responses: { 200: json(PoolStats, "Totals over all pools; 24 h windows end at the newest indexed block"), ...errors("UNAUTHORIZED", ...COMMON_ERRORS) },
});

const pair = createRoute({
  method: "get",
  path: "/pool/stats/{tokenA}/{tokenB}",
  operationId: "getPairStats",
  security: [],
  tags: ["pool"],
  summary: "Statistics of one trading pair (ids or symbols, either order); now, or as of a block (?at=) or a time (?atTime=)",
  request: { params: z.object({ tokenA: TokenRef("tokenA"), tokenB: TokenRef("tokenB") }), query: z.object(asOfQuery) },
  responses: {
    200: json(PairStats, "The pair, oriented as asked"),
    ...errors("VALIDATION_ERROR", "AMBIGUOUS_TOKEN", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "POOL_NOT_FOUND", "BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

export function poolRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(stats, async (c) => c.json(await aggregatePoolStats(deps.db), 200))
    .openapi(pair, async (c) => {
      const { tokenA, tokenB } = c.req.valid("param");
      return c.json(await pairStats(deps.db, tokenA, tokenB, c.req.valid("query")), 200);
    });
}
