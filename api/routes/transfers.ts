import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { TRANSFER_SCAN_ROWS, type Database } from "../../db/index.js";
import { TRANSFER_KINDS } from "../../db/schema/transfers.js";
import { ADDRESS_RULE } from "../../shared/address.js";
import { AppError } from "../../shared/errors.js";
import type { AppEnv } from "../env.js";
import { COMMON_ERRORS, COVERAGE_RULE, Decimal, errors, HistoryCoverage, Integer, intQuery, json, tokenIdParam } from "../schemas.js";
import { accountTrades } from "../services/history.js";
import { accountTransferPage, lpTransferPage, tokenTransferPage } from "../services/transfers.js";

const security = [{ bearerAuth: [] }];

/**
 * The time filters' names before fromTime/toTime: kept for one release (until 0.2.0), answered
 * with a Deprecation header. `from`/`to` read as addresses in every row, so `?from=<address>`
 * looked like a sender filter and was a 400.
 */
function deprecatedTime(name: string, now: string) {
  // A time, not an address (the rows' from/to are accounts): the error says where each is asked.
  const hint = `a Unix time: the deprecated name of ${now}; the account on the other side is asked with counterparty`;
  const base = intQuery(name, 0, 99_999_999_999, `Deprecated: use ${now}. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with ${now}`, hint);
  return base.openapi({ param: { name, in: "query", deprecated: true } });
}

/** When from/to became fromTime/toTime (RFC 9745: the Deprecation header's date, 2026-11-28T00:00:00Z). */
const TIME_PARAMS_DEPRECATED = Date.UTC(2026, 10, 28) / 1000;

/** The headers of an answer to a request using the deprecated from/to (timesOf). */
const DEPRECATION_HEADERS = {
  Deprecation: { description: "Only when the request used the deprecated from/to: when they were deprecated (RFC 9745: @ and Unix seconds)", schema: { type: "string" as const, example: `@${TIME_PARAMS_DEPRECATED}` } },
  Link: { description: 'Only when the request used the deprecated from/to: where the change is described (rel="deprecation", RFC 9745)', schema: { type: "string" as const, example: '</docs>; rel="deprecation"; type="text/html"' } },
};

/** The time bounds of `q` by their names now; the deprecated ones are announced (RFC 9745, RFC 8288). */
function timesOf<Q extends { from?: number | undefined; to?: number | undefined; fromTime?: number | undefined; toTime?: number | undefined }>(c: Context<AppEnv>, q: Q): Omit<Q, "from" | "to"> {
  const { from, to, ...rest } = q;
  if (from === undefined && to === undefined) return rest;
  if ((from !== undefined && q.fromTime !== undefined) || (to !== undefined && q.toTime !== undefined)) {
    throw new AppError("VALIDATION_ERROR", 'Invalid query: "from"/"to" are the deprecated names of "fromTime"/"toTime": give one name for each bound.');
  }
  c.header("Deprecation", `@${TIME_PARAMS_DEPRECATED}`);
  c.header("Link", '</docs>; rel="deprecation"; type="text/html"');
  return { ...rest, fromTime: q.fromTime ?? from, toTime: q.toTime ?? to };
}

const TransferFields = {
  blockNumber: z.number().int(),
  timestamp: z.number().int(),
  extrinsicIndex: z.number().int().nullable().openapi({ description: "Position of the extrinsic in its block; null outside one" }),
  extrinsicHash: z
    .string()
    .nullable()
    .openapi({ example: "0x8d1e5a4b0c6f7e2d9a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091", description: "The extrinsic's hash (blake2_256 of its bytes, as explorers show it); null outside an extrinsic, and unknown (null) for blocks indexed before this version recorded them" }),
  eventIndex: z.number().int().openapi({ description: "Position of the event in the block's events: with blockNumber, the transfer's key" }),
  tokenId: z.number().int().nullable().openapi({ description: "The token moved; null for an LP token (see lpTokenId)" }),
  lpTokenId: z.number().int().nullable().openapi({ description: "The LP token (PoolAssets) moved; null for any other token" }),
  from: z.string().nullable().openapi({ description: "Sender; null for a mint or a deposit" }),
  to: z.string().nullable().openapi({ description: "Recipient; null for a burn or a withdrawal" }),
  amount: Integer,
  kind: z.enum(TRANSFER_KINDS).openapi({
    description:
      "transfer: between two accounts; mint/burn: supply created or destroyed; deposit/withdraw: credited or debited by the runtime (XCM, holds, staking); fee: a transaction fee, the withdrawal that paid it less its refund (no withdraw row of its own); dust: a balance below the existential deposit, lost; slash: taken as a penalty",
  }),
  event: z.string().openapi({ example: "assets.Transferred", description: "The event that reported it" }),
  valueUsd: z.union([Decimal, z.null()]).openapi({ description: "amount at the token's USD value at that block; null when it had none (and for LP tokens)" }),
  tip: z.union([Integer, z.null()]).openapi({ description: "A fee's tip, part of amount, in smallest units as the fee event states it: of the native token for a fee paid in an asset on runtimes with asset conversion (assetTxPayment.AssetTxFeePaid with a location); null on every kind but fee" }),
};

const Transfer = z.object(TransferFields).openapi("Transfer");
const AccountTransfer = z
  .object({
    ...TransferFields,
    symbol: z.string().nullable().openapi({ example: "USDt", description: "The symbol of tokenId as the token has it now; null for an LP token (PoolAssets keep no metadata) and for a token destroyed since" }),
    decimals: z.number().int().nullable().openapi({ example: 6, description: "The decimals of tokenId: amount / 10^decimals is whole tokens; null when symbol is" }),
    direction: z.enum(["in", "out", "self"]).openapi({ description: "in: the account received; out: it sent; self: both" }),
  })
  .openapi("AccountTransfer");

const nextCursor = z.string().nullable().openapi({ description: "Pass as ?cursor= for older transfers; null on the last page" });
const partial = z.boolean().openapi({
  description: `true when the page stopped after examining ${TRANSFER_SCAN_ROWS.toLocaleString("en")} of the account's transfers without finding "limit" of them that match tokenId, lpTokenId or counterparty: it holds the matches among those (maybe none), and nextCursor continues below the last one examined. Page on until nextCursor is null. Always false without those filters.`,
});
const TransferCoverage = {
  ...HistoryCoverage,
  historyFrom: HistoryCoverage.historyFrom.openapi({ description: "The first block whose transfers the store holds (the later of its first indexed block's events and where tokenpool prune-history --transfers gave earlier ones up): the list may go on before it unless historyComplete. null only while the store holds none" }),
};

const commonQuery = {
  limit: intQuery("limit", 1, 500, "Transfers per page, 1-500 (default 50)"),
  cursor: z.string().max(128, "must be at most 128 characters").optional().openapi({ param: { name: "cursor", in: "query" }, description: "nextCursor of the previous page" }),
  kind: z.enum(TRANSFER_KINDS, { error: `must be one of ${TRANSFER_KINDS.join(", ")}` }).optional().openapi({ param: { name: "kind", in: "query" }, description: "Only transfers of this kind (fee: transaction fees)" }),
  fromBlock: intQuery("fromBlock", 0, Number.MAX_SAFE_INTEGER, "Only transfers at or after this block"),
  toBlock: intQuery("toBlock", 0, Number.MAX_SAFE_INTEGER, "Only transfers at or before this block"),
  fromTime: intQuery("fromTime", 0, 99_999_999_999, "Only transfers at or after this time (Unix seconds)"),
  toTime: intQuery("toTime", 0, 99_999_999_999, "Only transfers at or before this time (Unix seconds)"),
  from: deprecatedTime("from", "fromTime"),
  to: deprecatedTime("to", "toTime"),
};

const accountRoute = createRoute({
  method: "get",
  path: "/accounts/{address}/transfers",
  operationId: "listAccountTransfers",
  tags: ["accounts"],
  summary: "An account's transfers, in and out, every token, newest first (keyset cursor)",
  description: COVERAGE_RULE,
  security,
  request: {
    params: z.object({
      address: z.string().min(1).max(66, ADDRESS_RULE).openapi({ param: { name: "address", in: "path" }, example: "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F", description: `Account: ${ADDRESS_RULE}` }),
    }),
    query: z.object({
      ...commonQuery,
      tokenId: intQuery("tokenId", 0, Number.MAX_SAFE_INTEGER, `Only this token's transfers: looked for among at most ${TRANSFER_SCAN_ROWS.toLocaleString("en")} of the account's transfers a page (see partial)`),
      lpTokenId: intQuery("lpTokenId", 0, 4_294_967_295, `Only this LP token's transfers: looked for among at most ${TRANSFER_SCAN_ROWS.toLocaleString("en")} of the account's transfers a page (see partial)`),
      direction: z.enum(["in", "out"], { error: "must be in or out" }).optional().openapi({ param: { name: "direction", in: "query" }, description: "in: received only; out: sent only (default both)" }),
      counterparty: z
        .string()
        .max(66, ADDRESS_RULE)
        .optional()
        .openapi({
          param: { name: "counterparty", in: "query" },
          example: "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          description: `Only transfers between the account and this one, either way (with direction: one way). ${ADDRESS_RULE}. Looked for among at most ${TRANSFER_SCAN_ROWS.toLocaleString("en")} of the account's transfers a page (see partial)`,
        }),
    }),
  },
  responses: {
    200: { ...json(z.object({ address: z.string(), accountId: z.string(), ...TransferCoverage, transfers: z.array(AccountTransfer), nextCursor, partial }).openapi("AccountTransferPage"), "One page of the account's transfers"), headers: DEPRECATION_HEADERS },
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

const tokenRoute = createRoute({
  method: "get",
  path: "/assets/{id}/transfers",
  operationId: "listAssetTransfers",
  tags: ["assets"],
  summary: "A token's transfers, newest first (keyset cursor)",
  description: COVERAGE_RULE,
  security,
  request: { params: z.object({ id: tokenIdParam("id") }), query: z.object(commonQuery) },
  responses: {
    200: { ...json(z.object({ tokenId: z.number().int(), symbol: z.string(), decimals: z.number().int(), ...TransferCoverage, transfers: z.array(Transfer), nextCursor }).openapi("TokenTransferPage"), "One page of the token's transfers"), headers: DEPRECATION_HEADERS },
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

const lpRoute = createRoute({
  method: "get",
  path: "/assets/lp/{lpTokenId}/transfers",
  operationId: "listLpTokenTransfers",
  tags: ["assets"],
  summary: "An LP token's transfers (PoolAssets: liquidity added and removed, positions moved), newest first (keyset cursor)",
  description: `${COVERAGE_RULE} An LP token's mints and burns are its pool's liquidity added and removed; its holders at a block are a snapshot (POST /snapshots with lpTokenId).`,
  security,
  request: { params: z.object({ lpTokenId: tokenIdParam("lpTokenId").openapi({ param: { name: "lpTokenId", in: "path" }, example: "1", description: "LP token id (PoolAssets; /pools lists each pool's)" }) }), query: z.object(commonQuery) },
  responses: {
    200: {
      ...json(
        z
          .object({
            lpTokenId: z.number().int(),
            pool: z.object({ token0Id: z.number().int(), token1Id: z.number().int() }).nullable().openapi({ description: "The pool this LP token is a share of; null when it is gone" }),
            ...TransferCoverage,
            transfers: z.array(Transfer),
            nextCursor,
          })
          .openapi("LpTokenTransferPage"),
        "One page of the LP token's transfers",
      ),
      headers: DEPRECATION_HEADERS,
    },
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

const AccountTrade = z
  .object({
    blockNumber: z.number().int(),
    timestamp: z.number().int(),
    extrinsicIndex: z.number().int().nullable().openapi({ description: "Position of the extrinsic in its block; null outside one" }),
    eventIndex: z.number().int(),
    hop: z.number().int().openapi({ description: "Position of this pool in the swap's path, from 0" }),
    hops: z.number().int().openapi({ description: "Pools the whole swap crossed" }),
    multiHop: z.boolean(),
    pool: z.object({ token0Id: z.number().int(), token1Id: z.number().int() }).openapi({ description: "The pool of this hop, as the chain orders its tokens" }),
    tokenIn: z.number().int(),
    tokenOut: z.number().int(),
    amountIn: Integer,
    amountOut: Integer,
    volumeUsd: Decimal.openapi({ description: "amountIn in USD at the prices of the swap's block" }),
    fee: Integer.openapi({ description: "LP fee, in tokenIn smallest units" }),
    feeUsd: Decimal,
  })
  .openapi("AccountTrade");

const accountSwapsRoute = createRoute({
  method: "get",
  path: "/accounts/{address}/swaps",
  operationId: "listAccountSwaps",
  tags: ["accounts"],
  summary: "An account's trades, every pool, newest first (keyset cursor)",
  description: COVERAGE_RULE,
  security,
  request: {
    params: z.object({
      address: z.string().min(1).max(66, ADDRESS_RULE).openapi({ param: { name: "address", in: "path" }, example: "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F", description: `Account: ${ADDRESS_RULE}` }),
    }),
    query: z.object({
      limit: commonQuery.limit,
      cursor: commonQuery.cursor,
      fromBlock: commonQuery.fromBlock,
      toBlock: commonQuery.toBlock,
    }),
  },
  responses: {
    200: json(z.object({ address: z.string(), accountId: z.string(), ...HistoryCoverage, trades: z.array(AccountTrade), nextCursor: z.string().nullable().openapi({ description: "Pass as ?cursor= for older trades; null on the last page" }) }).openapi("AccountTradePage"), "One page of the account's trades"),
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

export function transferRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(accountRoute, async (c) => {
      const q = timesOf(c, c.req.valid("query"));
      return c.json(await accountTransferPage(deps.db, c.req.valid("param").address, { ...q, limit: q.limit ?? 50 }), 200);
    })
    .openapi(accountSwapsRoute, async (c) => {
      const q = c.req.valid("query");
      return c.json(await accountTrades(deps.db, c.req.valid("param").address, { ...q, limit: q.limit ?? 50 }), 200);
    })
    .openapi(tokenRoute, async (c) => {
      const q = timesOf(c, c.req.valid("query"));
      return c.json(await tokenTransferPage(deps.db, c.req.valid("param").id, { ...q, limit: q.limit ?? 50 }), 200);
    })
    .openapi(lpRoute, async (c) => {
      const q = timesOf(c, c.req.valid("query"));
      return c.json(await lpTransferPage(deps.db, c.req.valid("param").lpTokenId, { ...q, limit: q.limit ?? 50 }), 200);
    });
}
