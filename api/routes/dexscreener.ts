import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import { parseTokenId, TOKEN_ID_RULE } from "../../shared/ids.js";
import type { AppEnv } from "../env.js";
import { COMMON_ERRORS, Decimal, errors, json } from "../schemas.js";
import { dexAsset, dexEvents, dexLatestBlock, dexPair, MAX_EVENT_BLOCKS } from "../services/dexscreener.js";

const SPEC = "DEX Screener Adapter Specs v1.1 (https://dexscreener.notion.site/DEX-Screener-Adapter-Specs-cc1223cdf6e74a7799599106b65dcd0e)";
const ID = /^(0|[1-9]\d{0,15})$/;

const Block = z
  .object({
    blockNumber: z.number().int(),
    blockTimestamp: z.number().int().openapi({ description: "The block's on-chain time, Unix seconds" }),
  })
  .openapi("DexScreenerBlock");

const Metadata = z.record(z.string(), z.string());

const Asset = z
  .object({
    id: z.string().openapi({ description: "The token id (0: the native token)", example: "1984" }),
    name: z.string().min(1).openapi({ description: "The chain's name; its symbol, or its id, when the chain gives none" }),
    symbol: z.string().min(1),
    totalSupply: Decimal.openapi({ description: "Whole tokens (supply / 10^decimals)" }),
    metadata: Metadata.openapi({ description: "kind (native, asset, foreign) and decimals" }),
  })
  .openapi("DexScreenerAsset");

const Pair = z
  .object({
    id: z.string().openapi({ description: '"{token0Id}-{token1Id}": the pool\'s tokens in the chain\'s order, which never changes', example: "0-1984" }),
    dexKey: z.literal("asset-conversion"),
    asset0Id: z.string(),
    asset1Id: z.string(),
    createdAtBlockNumber: z.number().int().optional().openapi({ description: "The pool's creation block; absent when the store did not follow that block (the pool predates its history)" }),
    createdAtBlockTimestamp: z.number().int().optional(),
    feeBps: z.number().openapi({ description: "The LP fee in basis points (30 = 0.3 %)" }),
    metadata: Metadata.openapi({ description: "lpTokenId and poolAccount" }),
  })
  .openapi("DexScreenerPair");

const Reserves = z.object({ asset0: Decimal, asset1: Decimal }).openapi("DexScreenerReserves", { description: "The pool's reserves after the event, whole tokens" });

const common = {
  block: Block,
  txnId: z.string().openapi({ description: '"{block}-{extrinsicIndex}", the extrinsic\'s id; "{block}-event-{eventIndex}" for an event outside any extrinsic (or indexed before extrinsic indexes were kept)' }),
  txnIndex: z.number().int().openapi({ description: "The extrinsic's index in its block (the event's index when it has none)" }),
  eventIndex: z.number().int().openapi({ description: "The event's position among the adapter's events of its block (a multi-hop swap is one per pool crossed): with txnIndex unique in the block" }),
  maker: z.string().openapi({ description: "The account that swapped or provided liquidity" }),
  pairId: z.string(),
  reserves: Reserves.optional().openapi({ description: "The pool's reserves after the event: on every event of a block when they are known exactly after each, otherwise on the pool's last event of the block only" }),
  metadata: Metadata.openapi({ description: 'event: the chain event\'s id ("{block}-{eventIndex}"); hop: "n of m" for a hop of a multi-hop swap' }),
};

const SwapEvent = z
  .object({
    ...common,
    eventType: z.literal("swap"),
    asset0In: Decimal.optional(),
    asset1In: Decimal.optional(),
    asset0Out: Decimal.optional(),
    asset1Out: Decimal.optional(),
    priceNative: Decimal.openapi({ description: "asset1 per asset0 in this trade (whole tokens), up to 50 decimals" }),
  })
  .openapi("DexScreenerSwapEvent", { description: "asset0In and asset1Out, or asset1In and asset0Out" });

const JoinExitEvent = z
  .object({ ...common, eventType: z.enum(["join", "exit"]), amount0: Decimal, amount1: Decimal })
  .openapi("DexScreenerJoinExitEvent");

const blockParam = (name: string, example: string) =>
  z
    .string()
    .regex(ID, `must be a block number from 0 to ${Number.MAX_SAFE_INTEGER}`)
    .refine((s) => Number(s) <= Number.MAX_SAFE_INTEGER, `must be a block number from 0 to ${Number.MAX_SAFE_INTEGER}`)
    .transform(Number)
    .openapi({ param: { name, in: "query", required: true }, example, description: `Block number (both bounds included; at most ${MAX_EVENT_BLOCKS} blocks a request)` });

const tags = ["dexscreener"];
const routes = {
  latestBlock: createRoute({
    method: "get",
    path: "/dexscreener/latest-block",
    operationId: "getDexScreenerLatestBlock",
    security: [],
    tags,
    summary: "The newest block /dexscreener/events answers",
    description: SPEC,
    responses: { 200: json(z.object({ block: Block }).openapi("DexScreenerLatestBlock"), "The newest block whose events the store holds"), ...errors("BLOCK_NOT_INDEXED", ...COMMON_ERRORS) },
  }),
  asset: createRoute({
    method: "get",
    path: "/dexscreener/asset",
    operationId: "getDexScreenerAsset",
    security: [],
    tags,
    summary: "A token, as a DEX Screener Asset",
    description: SPEC,
    request: {
      query: z.object({
        id: z.string().regex(ID, TOKEN_ID_RULE).refine((s) => parseTokenId(s) !== undefined, TOKEN_ID_RULE).transform(Number).openapi({ param: { name: "id", in: "query", required: true }, example: "1984", description: "Token id" }),
      }),
    },
    responses: { 200: json(z.object({ asset: Asset }).openapi("DexScreenerAssetResponse"), "The token"), ...errors("TOKEN_NOT_FOUND", ...COMMON_ERRORS) },
  }),
  pair: createRoute({
    method: "get",
    path: "/dexscreener/pair",
    operationId: "getDexScreenerPair",
    security: [],
    tags,
    summary: "A pool, as a DEX Screener Pair",
    description: SPEC,
    request: {
      query: z.object({
        id: z.string().max(40).regex(/^(0|[1-9]\d{0,15})-(0|[1-9]\d{0,15})$/, 'must be "{token0Id}-{token1Id}"').openapi({ param: { name: "id", in: "query", required: true }, example: "0-1984", description: '"{token0Id}-{token1Id}", as /dexscreener/events names it' }),
      }),
    },
    responses: { 200: json(z.object({ pair: Pair }).openapi("DexScreenerPairResponse"), "The pool"), ...errors("POOL_NOT_FOUND", ...COMMON_ERRORS) },
  }),
  events: createRoute({
    method: "get",
    path: "/dexscreener/events",
    operationId: "getDexScreenerEvents",
    security: [],
    tags,
    summary: "Swaps, joins and exits of a block range, with the reserves after them",
    description: `${SPEC}. A block the store lacks is refused (404), never answered empty; so is a range of more than ${MAX_EVENT_BLOCKS} blocks (400).`,
    request: { query: z.object({ fromBlock: blockParam("fromBlock", "1000"), toBlock: blockParam("toBlock", "2000") }) },
    responses: {
      200: json(z.object({ events: z.array(z.union([SwapEvent, JoinExitEvent])) }).openapi("DexScreenerEvents"), "The events in chain order"),
      ...errors("BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
    },
  }),
};

export function dexScreenerRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(routes.latestBlock, async (c) => c.json(await dexLatestBlock(deps.db), 200))
    .openapi(routes.asset, async (c) => c.json(await dexAsset(deps.db, c.req.valid("query").id), 200))
    .openapi(routes.pair, async (c) => c.json(await dexPair(deps.db, c.req.valid("query").id), 200))
    .openapi(routes.events, async (c) => {
      const { fromBlock, toBlock } = c.req.valid("query");
      return c.json(await dexEvents(deps.db, fromBlock, toBlock), 200);
    });
}
