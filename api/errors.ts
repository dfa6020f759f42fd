import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { AppError, type ErrorCode } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";

export function errorBody(code: ErrorCode, message: string) {
  return { success: false as const, error: { code, message } };
}

export function sendError(c: Context, err: AppError): Response {
  return c.json(errorBody(err.code, err.message), err.status, err.headers);
}

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
  503: "SERVICE_UNAVAILABLE",
};

/** Driver codes of a store that cannot answer now (connection lost, refused, shutting down, timed out). */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "57014", // query_canceled: statement_timeout
  "53300", // too_many_connections
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

/**
 * Whether `err` (or an error it wraps) says the store is unavailable rather than that the
 * request or the code is wrong: those answer 503 SERVICE_UNAVAILABLE, a retry may succeed.
 */
export function isUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true; // 08xxx: connection exception
    if (typeof e.message === "string" && /PGlite is closed|Connection terminated|database system is (starting up|shutting down)/i.test(e.message)) return true;
  }
  return false;
}

/** The single onError: every failure leaves as the error body, and no stack trace leaves at all. */
export function handleError(logger: Logger) {
  return (err: Error, c: Context): Response => {
    if (err instanceof AppError) return sendError(c, err);
    if (err instanceof HTTPException) {
      const code = STATUS_CODES[err.status];
      if (code) return sendError(c, new AppError(code, code === "VALIDATION_ERROR" ? err.message || undefined : undefined));
    }
    if (isUnavailable(err)) {
      logger.warn({ err, method: c.req.method, path: c.req.path }, "store unavailable");
      return sendError(c, new AppError("SERVICE_UNAVAILABLE", "The data store is unavailable; retry shortly.", { "Retry-After": "5" }));
    }
    logger.error({ err, method: c.req.method, path: c.req.path }, "unhandled error");
    return sendError(c, new AppError("INTERNAL_ERROR"));
  };
}

const TARGETS: Record<string, string> = { param: "path parameter", query: "query parameter", json: "body field", header: "header" };

/** Turns a failed zod validation into VALIDATION_ERROR naming the parameter and the rule. */
export function validationError(target: string, error: ZodError): AppError {
  const issue = error.issues[0];
  const name = issue?.path.map(String).join(".");
  if (!issue || !name) return new AppError("VALIDATION_ERROR", `Invalid ${target === "json" ? "request body" : target}: ${issue?.message ?? "malformed"}`);
  return new AppError("VALIDATION_ERROR", `Invalid ${TARGETS[target] ?? target} "${name}": ${issue.message}`);
}

