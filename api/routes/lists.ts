import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import type { AppEnv } from "../env.js";
import { COMMON_ERRORS, COVERAGE_RULE, Decimal, errors, HistoryCoverage, Integer, intQuery, json, tokenIdParam, TokenIdentity } from "../schemas.js";
import { ASSET_SORTS, listAssets, listPoolRows, oracleHistory, POOL_SORTS } from "../services/lists.js";

const nullableUsd = (description: string) => z.union([Decimal, z.null()]).openapi({ description });

const pageFields = {
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  order: z.enum(["asc", "desc"]),
  blockNumber: z.number().int().nullable(),
};

const AssetRow = z
  .object({
    tokenId: z.number().int(),
    name: z.string(),
    symbol: z.string(),
    ...TokenIdentity,
    decimals: z.number().int(),
    totalSupply: Integer,
    valueUsd: nullableUsd("USD per whole token; null without a current pool route to a USD stablecoin above the liquidity floor"),
    marketCapUsd: nullableUsd("totalSupply valued at valueUsd"),
    holders: z.number().int(),
    status: z.enum(["live", "frozen", "destroying"]),
  })
  .openapi("AssetRow");

const AssetList = z.object({ ...pageFields, sort: z.enum(ASSET_SORTS), assets: z.array(AssetRow) }).openapi("AssetList");

const PoolSide = z
  .object({ tokenId: z.number().int(), symbol: z.string(), decimals: z.number().int(), ...TokenIdentity, reserve: Integer, priceUsd: nullableUsd("USD per whole token") })
  .openapi("PoolSide");

const PoolRow = z
  .object({ tokenA: PoolSide, tokenB: PoolSide, lpTokenId: z.number().int(), totalValueLocked: Decimal.openapi({ description: "USD value of the priced sides' reserves, each once" }), volume24h: Decimal, fees24h: Decimal, swaps24h: z.number().int() })
  .openapi("PoolRow");

const PoolList = z.object({ ...pageFields, sort: z.enum(POOL_SORTS), pools: z.array(PoolRow) }).openapi("PoolList");

const PricePoint = z
  .object({
    timestamp: z.number().int().openapi({ description: "End of the interval (Unix seconds)" }),
    valueUsd: nullableUsd("Last USD value at or before timestamp; null before the token had one, and while it had none (its routes fell below the liquidity floor)"),
    blockNumber: z.number().int().nullable().openapi({ description: "Block of that value, or of the expiry when valueUsd is null after one; null before the first price" }),
  })
  .openapi("PricePoint");

const PriceHistory = z
  .object({ tokenId: z.number().int(), symbol: z.string(), ...TokenIdentity, from: z.number().int(), to: z.number().int(), interval: z.number().int(), ...HistoryCoverage, points: z.array(PricePoint) })
  .openapi("PriceHistory");

const sortQuery = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .enum(values, { error: `must be one of ${values.join(", ")}` })
    .optional()
    .openapi({ param: { name: "sort", in: "query" }, description: `Sort key: ${values.join(", ")} (default ${fallback})` });

const orderQuery = z
  .enum(["asc", "desc"], { error: "must be asc or desc" })
  .optional()
  .openapi({ param: { name: "order", in: "query" }, description: "asc or desc (default desc; id defaults to asc)" });

const listQuery = {
  page: intQuery("page", 1, 1_000_000, "Page number, from 1 (default 1)"),
  limit: intQuery("limit", 1, 500, "Rows per page, 1-500 (default 50)"),
  order: orderQuery,
};

const assets = createRoute({
  method: "get",
  path: "/assets",
  operationId: "listAssets",
  security: [],
  tags: ["assets"],
  summary: "All tokens with supply, USD value and holder count (paginated, sortable; public)",
  request: {
    query: z.object({
      ...listQuery,
      sort: sortQuery(ASSET_SORTS, "id"),
      tokenId: tokenIdParam("tokenId")
        .optional()
        .openapi({ param: { name: "tokenId", in: "query" }, description: "Only this token: its row (total 1), or none (total 0) when it is not indexed" }),
    }),
  },
  responses: { 200: json(AssetList, "One page of tokens"), ...errors("VALIDATION_ERROR", ...COMMON_ERRORS) },
});

const pools = createRoute({
  method: "get",
  path: "/pools",
  operationId: "listPools",
  security: [],
  tags: ["pool"],
  summary: "All pools with reserves, TVL and 24 h volume (paginated, sortable)",
  request: { query: z.object({ ...listQuery, sort: sortQuery(POOL_SORTS, "tvl") }) },
  responses: { 200: json(PoolList, "One page of pools"), ...errors("VALIDATION_ERROR", ...COMMON_ERRORS) },
});

const history = createRoute({
  method: "get",
  path: "/oracle/history/{id}",
  operationId: "getOracleHistory",
  security: [],
  tags: ["oracle"],
  summary: "USD value of one whole token over time, one point per interval",
  description: COVERAGE_RULE,
  request: {
    params: z.object({ id: tokenIdParam("id") }),
    query: z.object({
      from: intQuery("from", 0, 99_999_999_999, "Start, Unix seconds (default: to - 24 h)"),
      to: intQuery("to", 0, 99_999_999_999, "End, Unix seconds (default: the newest indexed block's time)"),
      interval: intQuery("interval", 12, 31_536_000, "Seconds per point, 12 s to 1 year (default 3600); at most 1000 points"),
    }),
  },
  responses: { 200: json(PriceHistory, "Price points, oldest first"), ...errors("VALIDATION_ERROR", "TOKEN_NOT_FOUND", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS) },
});

export function listRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(assets, async (c) => {
      const q = c.req.valid("query");
      const sort = q.sort ?? "id";
      return c.json(await listAssets(deps.db, { page: q.page ?? 1, limit: q.limit ?? 50, sort, order: q.order ?? (sort === "id" || sort === "symbol" ? "asc" : "desc"), tokenId: q.tokenId }), 200);
    })
    .openapi(pools, async (c) => {
      const q = c.req.valid("query");
      const sort = q.sort ?? "tvl";
      return c.json(await listPoolRows(deps.db, { page: q.page ?? 1, limit: q.limit ?? 50, sort, order: q.order ?? (sort === "id" ? "asc" : "desc") }), 200);
    })
    .openapi(history, async (c) => c.json(await oracleHistory(deps.db, c.req.valid("param").id, c.req.valid("query")), 200));
}
