import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import type { AppEnv } from "../env.js";
import { parseTokenId, TOKEN_ID_RULE } from "../../shared/ids.js";
import { COMMON_ERRORS, Decimal, errors, json, tokenIdParam, TokenIdentity } from "../schemas.js";
import { MAX_ORACLE_IDS, oracleValues } from "../services/oracle.js";
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

/** `ids`: 1 to 30 distinct token ids, comma-separated; one 400 naming every fault. */
const idList = z
  .string()
  .transform((text, ctx) => {
    const parts = text.split(",");
    const bad = parts.filter((p) => parseTokenId(p) === undefined);
    const ids = parts.map((p) => parseTokenId(p)!);
    const repeated = [...new Set(ids.filter((id, i) => id !== undefined && ids.indexOf(id) !== i))];
    const faults = [
      ...(parts.length > MAX_ORACLE_IDS ? [`${parts.length} ids asked, at most ${MAX_ORACLE_IDS}`] : []),
      ...(bad.length > 0 ? [`${bad.slice(0, 3).map((b) => JSON.stringify(b.slice(0, 20))).join(", ")}${bad.length > 3 ? ` and ${bad.length - 3} more` : ""}: each id ${TOKEN_ID_RULE}`] : []),
      ...(repeated.length > 0 ? [`${repeated.slice(0, 3).join(", ")} asked more than once`] : []),
    ];
    if (faults.length > 0) ctx.addIssue({ code: "custom", message: faults.join("; ") });
    return ids;
  })
  .openapi({ param: { name: "ids", in: "query", required: true }, example: "0,1984", description: `Token ids, comma-separated: 1 to ${MAX_ORACLE_IDS}, each once` });

const OracleValuesEntry = z
  .object({
    tokenId: z.number().int(),
    symbol: z.union([z.string(), z.null()]).openapi({ description: "null when the token is not found" }),
    kind: z.union([TokenIdentity.kind, z.null()]),
    assetId: TokenIdentity.assetId,
    location: TokenIdentity.location,
    valueUsd: z.union([Decimal, z.null()]).openapi({ description: "As GET /oracle/value/{id} answers it; null with `error` when that route answers an error" }),
    error: z
      .union([z.object({ code: z.enum(["TOKEN_NOT_FOUND", "PRICE_UNAVAILABLE"]), message: z.string() }), z.null()])
      .openapi({ description: "The error GET /oracle/value/{id} answers for this token (its code and message); null with a value" }),
  })
  .openapi("OracleValuesEntry");

const OracleValues = z
  .object({
    values: z.array(OracleValuesEntry).openapi({ description: "One entry per id, in the order asked" }),
    timestamp: z.number().int().openapi({ description: "Unix seconds of the newest indexed block" }),
    blockNumber: z.number().int(),
  })
  .openapi("OracleValues");

const many = createRoute({
  method: "get",
  path: "/oracle/values",
  operationId: "getOracleValues",
  security: [],
  tags: ["oracle"],
  summary: `Current USD values of up to ${MAX_ORACLE_IDS} tokens, each as /oracle/value/{id} answers it`,
  request: { query: z.object({ ids: idList }) },
  responses: {
    200: json(OracleValues, "Each token's value, or why it has none"),
    ...errors("VALIDATION_ERROR", ...COMMON_ERRORS),
  },
});

export function oracleRoutes(deps: { db: Database }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(route, async (c) => c.json(await oracleValue(deps.db, c.req.valid("param").id), 200))
    .openapi(many, async (c) => c.json(await oracleValues(deps.db, c.req.valid("query").ids), 200));
}
