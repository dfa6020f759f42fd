/** zod schemas that validate requests and, through @hono/zod-openapi, are the OpenAPI document. */
import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorCode } from "../shared/errors.js";
import { parseTokenId, TOKEN_ID_RULE } from "../shared/ids.js";

export const ErrorBody = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
    }),
  })
  .openapi("Error");

export const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/).openapi("Decimal", {
  description: "Exact decimal number as a string: plain notation, no exponent, no trailing zeros.",
  example: "1.2345",
});
export const Integer = z.string().regex(/^\d+$/).openapi("IntegerAmount", {
  description: "Non-negative integer amount in the token's smallest units, as a string (u128).",
  example: "1000000000000",
});

/** A token id in a path: digits only, no sign, no leading zeros, at most 2^53 − 1. */
export function tokenIdParam(name: string) {
  return z
    .string()
    .regex(/^(0|[1-9]\d{0,15})$/, TOKEN_ID_RULE)
    .refine((s) => parseTokenId(s) !== undefined, TOKEN_ID_RULE)
    .transform(Number)
    .openapi({
      param: { name, in: "path" },
      example: "1984",
      description: "Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32)",
    });
}

const Location = z.record(z.string(), z.unknown()).openapi("Location", {
  description: "XCM location in its canonical (v5) form: parents and interior junctions, camelCase names; integers of more than 52 bits as decimal strings, bytes as hex",
  example: { parents: 2, interior: { x2: [{ globalConsensus: { ethereum: { chainId: 1 } } }, { accountKey20: { network: null, key: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" } }] } },
});

/** What kind of token an answer is about; every token answer carries these. */
export const TokenIdentity = {
  kind: z.enum(["native", "asset", "foreign"]).openapi({ description: "native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)" }),
  assetId: z.number().int().nullable().openapi({ description: "The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens" }),
  location: z.union([Location, z.null()]).openapi({ description: "A foreign token's XCM location; null otherwise" }),
};

const part = (description: string) => z.union([Integer, z.null()]).openapi({ description });

/**
 * What a balance is made of (api/services/balance-parts.ts): the native token's parts, an asset
 * account's status; null for the other kind of token. Holder and portfolio entries carry these.
 */
export const BalanceParts = {
  free: part("Native token: the free balance (null for assets)"),
  reserved: part("Native token: reserved and on hold, still the account's but not movable (null for assets)"),
  frozen: part("Native token: the frozen amount (freezes and locks; it may be covered by reserved), as the runtime states it (null for assets)"),
  transferable: part("Native token: what a transfer that may reap the account can move, free − max(0, frozen − reserved), at least 0; keep-alive transfers keep the existential deposit back too (null for assets)"),
  status: z
    .union([z.enum(["liquid", "frozen", "blocked"]), z.null()])
    .openapi({ description: "Asset or foreign token: the account's status — liquid, frozen (cannot send) or blocked (cannot send or receive); null for the native token" }),
};

/** An optional integer query parameter in [min, max]. */
export function intQuery(name: string, min: number, max: number, description: string, hint?: string) {
  const rule = `must be an integer from ${min} to ${max}${hint ? ` (${hint})` : ""}`;
  return z
    .string()
    // One spelling per number (no leading zeros): `limit=050` is not a second cache key for 50.
    .regex(/^(?:0|[1-9]\d{0,15})$/, rule)
    .refine((s) => Number(s) >= min && Number(s) <= max, rule)
    .transform(Number)
    .optional()
    .openapi({ param: { name, in: "query" }, description });
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

/** Documented error answers of a route, all in the one error body. */
export function errors(...codes: ErrorCode[]) {
  const out: Record<number, ReturnType<typeof json<typeof ErrorBody>>> = {};
  for (const code of new Set(codes)) {
    const { status } = ERROR_CODES[code];
    const prior = out[status]?.description;
    out[status] = json(ErrorBody, prior ? `${prior}, ${code}` : code);
  }
  return out;
}

/**
 * Failures any route can answer with: VALIDATION_ERROR (unknown query parameters, control
 * characters), UNAUTHORIZED (a bad bearer token is refused wherever it is sent), RATE_LIMITED,
 * SERVICE_UNAVAILABLE (the store does not answer), INTERNAL_ERROR.
 */
export const COMMON_ERRORS: ErrorCode[] = ["VALIDATION_ERROR", "UNAUTHORIZED", "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE"];

/** `?at=` / `?atTime=`: an answer as of a past block (api/services/as-of.ts resolveAsOf). */
export const asOfQuery = {
  at: intQuery("at", 0, Number.MAX_SAFE_INTEGER, "Answer as of this block (from the store's history floor to its newest block)"),
  atTime: intQuery("atTime", 0, 99_999_999_999, "Answer as of the last block at or before this time (Unix seconds); not with at"),
};

export const AsOf = z
  .object({
    blockNumber: z.number().int(),
    timestamp: z.number().int().openapi({ description: "The block's on-chain time (Unix seconds)" }),
    historyFrom: z.number().int().openapi({ description: "The first block this answer can be as of (the store's balance history floor: its first complete snapshot); an earlier at or atTime is refused, 404 BLOCK_BEFORE_HISTORY" }),
  })
  .openapi("AsOf", { description: "The block the answer is exact at" });

/** The rule every history answer follows (docs/api.md, "Coverage"); in each route's description. */
export const COVERAGE_RULE =
  "Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.";

const HistoryGap = z
  .object({ fromBlock: z.number().int(), toBlock: z.number().int() })
  .openapi("HistoryGap", { description: "Blocks fromBlock..toBlock (both included) whose history the store lacks" });

/** What a list or series read from history covers (api/services/coverage.ts coverageBody). */
export const HistoryCoverage = {
  historyFrom: z.number().int().nullable().openapi({ description: "The first block whose history the store holds for this answer: nothing before it is in the store (the list or series may go on before it unless historyComplete). null only while the store holds none" }),
  historyFromTime: z.number().int().nullable().openapi({ description: "historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block" }),
  historyGaps: z.array(HistoryGap).openapi({ description: "Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most" }),
  historyComplete: z.boolean().openapi({ description: "true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps" }),
};
