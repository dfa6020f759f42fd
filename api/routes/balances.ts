import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import { ADDRESS_RULE } from "../../shared/address.js";
import type { AppEnv } from "../env.js";
import { AsOf, asOfQuery, COMMON_ERRORS, errors, Integer, json, tokenIdParam } from "../schemas.js";
import { lpBalanceAsOf, tokenBalanceAsOf } from "../services/balances.js";

const security = [{ bearerAuth: [] }];

const address = z
  .string()
  .min(1)
  .max(66, ADDRESS_RULE)
  .openapi({ param: { name: "address", in: "path" }, example: "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F", description: `Account: ${ADDRESS_RULE}` });


const recordedAt = z
  .number()
  .int()
  .nullable()
  .openapi({ description: "The newest block at or before asOf where the indexer read this balance (a change, or a snapshot); null when it read none since the history floor (the balance is 0)" });

const tokenRoute = createRoute({
  method: "get",
  path: "/accounts/{address}/balances/{id}",
  operationId: "getAccountBalance",
  tags: ["accounts"],
  summary: "One token balance of an account, now or as of a block (?at=) or a time (?atTime=)",
  security,
  request: { params: z.object({ address, id: tokenIdParam("id") }), query: z.object(asOfQuery) },
  responses: {
    200: json(
      z
        .object({
          address: z.string(),
          accountId: z.string(),
          tokenId: z.number().int(),
          symbol: z.string().nullable().openapi({ description: "null for a token destroyed since" }),
          decimals: z.number().int().nullable(),
          balance: Integer,
          asOf: AsOf,
          recordedAt,
        })
        .openapi("BalanceAsOf"),
      "The balance (free + reserved for the native token) exact at asOf",
    ),
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

const lpRoute = createRoute({
  method: "get",
  path: "/accounts/{address}/lp-balances/{lpTokenId}",
  operationId: "getAccountLpBalance",
  tags: ["accounts"],
  summary: "One LP token balance (pool position) of an account, now or as of a block or a time",
  security,
  request: { params: z.object({ address, lpTokenId: tokenIdParam("lpTokenId") }), query: z.object(asOfQuery) },
  responses: {
    200: json(
      z
        .object({
          address: z.string(),
          accountId: z.string(),
          lpTokenId: z.number().int(),
          pool: z.object({ token0Id: z.number().int(), token1Id: z.number().int() }).nullable().openapi({ description: "The pool this LP token is a share of; null when it is gone" }),
          balance: Integer,
          asOf: AsOf,
          recordedAt,
        })
        .openapi("LpBalanceAsOf"),
      "The LP balance exact at asOf",
    ),
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY", ...COMMON_ERRORS),
  },
});

export function balanceRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(tokenRoute, async (c) => {
      const { address: text, id } = c.req.valid("param");
      return c.json(await tokenBalanceAsOf(deps.db, text, id, c.req.valid("query")), 200);
    })
    .openapi(lpRoute, async (c) => {
      const { address: text, lpTokenId } = c.req.valid("param");
      return c.json(await lpBalanceAsOf(deps.db, text, lpTokenId, c.req.valid("query")), 200);
    });
}
