import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import type { AppEnv } from "../env.js";
import { COMMON_ERRORS, Decimal, errors, json, tokenIdParam, TokenIdentity } from "../schemas.js";
import { oracleValue } from "../services/tokens.js";

const OracleValue = z
  .object({
    tokenId: z.number().int(),
    symbol: z.string(),
    ...TokenIdentity,
    valueUsd: Decimal.openapi({ description: "USD per whole token, by the deepest pool route to a USD stablecoin (at most 3 pools) above the liquidity floor" }),
    timestamp: z.number().int().openapi({ description: "Unix seconds of the newest indexed block" }),
    blockNumber: z.number().int(),
  })
  .openapi("OracleValue");

const route = createRoute({
  method: "get",
  path: "/oracle/value/{id}",
  operationId: "getOracleValue",
  security: [],
  tags: ["oracle"],
  summary: "Current USD value of one whole token, derived from the chain's pools",
  request: { params: z.object({ id: tokenIdParam("id") }) },
  responses: {
    200: json(OracleValue, "USD value of one whole token"),
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "PRICE_UNAVAILABLE", ...COMMON_ERRORS),
  },
});

export function oracleRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>().openapi(route, async (c) => c.json(await oracleValue(deps.db, c.req.valid("param").id), 200));
}
