/** zod schemas that validate requests and, through @hono/zod-openapi, are the OpenAPI document. */
import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorCode } from "../shared/errors.js";

export const U32_MAX = 4_294_967_295;
const ID_RULE = `must be an integer from 0 to ${U32_MAX}`;

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

/** A u32 token id in a path: digits only, no sign, no leading zeros, at most 4294967295. */
export function tokenIdParam(name: string) {
  return z
    .string()
    .regex(/^(0|[1-9]\d{0,9})$/, ID_RULE)
    .refine((s) => Number(s) <= U32_MAX, ID_RULE)
    .transform(Number)
    .openapi({ param: { name, in: "path" }, example: "1984", description: "Token id (asset id; the native token is 0)" });
}

/** An optional integer query parameter in [min, max]. */
export function intQuery(name: string, min: number, max: number, description: string) {
  const rule = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,16}$/, rule)
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
  for (const code of codes) {
    const { status } = ERROR_CODES[code];
    const prior = out[status]?.description;
    out[status] = json(ErrorBody, prior ? `${prior}, ${code}` : code);
  }
  return out;
}

/** Failures any route can answer with. */
export const COMMON_ERRORS: ErrorCode[] = ["RATE_LIMITED", "INTERNAL_ERROR"];
