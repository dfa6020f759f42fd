import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { AppError, type ErrorCode } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";
import { loggedPath } from "./middleware/request-log.js";

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
 * Whether `err` is the client's own request stream failing because the client went away: Node
 * destroys an unfinished request with `Error: aborted` (code ECONNRESET, from abortIncoming) when
 * its connection closes, and @hono/node-server rejects a body read with "Client connection
 * prematurely closed." A store's own ECONNRESET says "read ECONNRESET" / "write ECONNRESET".
 */
function isClientStreamError(e: { code?: unknown; message?: unknown }): boolean {
  return (e.code === "ECONNRESET" && e.message === "aborted") || e.message === "Client connection prematurely closed.";
}

/** The errors, `err` first, then each cause it wraps (at most 5). */
function* chain(err: unknown): Generator<{ code?: unknown; message?: unknown; name?: unknown }> {
  for (let e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown } | undefined, depth = 0; e && typeof e === "object" && depth < 5; e = e.cause as typeof e, depth++) yield e;
}

/**
 * Whether `err` says the store is unavailable rather than that the request or the code is
 * wrong: those answer 503 SERVICE_UNAVAILABLE, a retry may succeed. A client that aborted its own
 * request (see isClientAbort) is not a store outage, although Node gives it code ECONNRESET.
 */
export function isUnavailable(err: unknown): boolean {
  for (const e of chain(err)) if (isClientStreamError(e)) return false;
  for (const e of chain(err)) {
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true; // 08xxx: connection exception
    if (typeof e.message === "string" && /PGlite is closed|Connection terminated|database system is (starting up|shutting down)/i.test(e.message)) return true;
  }
  return false;
}

/**
 * Whether `err` comes from the client abandoning its request (closing the connection while its
 * body was being read): the error of Node's request stream, or an abort error once the request's
 * signal says the client is gone.
 */
export function isClientAbort(err: unknown, signal?: AbortSignal): boolean {
  for (const e of chain(err)) {
    if (isClientStreamError(e)) return true;
    if (signal?.aborted && (e.name === "AbortError" || e.code === "ABORT_ERR" || e.code === "ERR_STREAM_PREMATURE_CLOSE")) return true;
  }
  return false;
}

/** What a request its client abandoned is answered and counted as (nginx's "client closed request"); nobody reads it. */
export const CLIENT_CLOSED_REQUEST = 499;

/** The request's abort signal, when it has one (@hono/node-server aborts it when the client leaves). */
function signalOf(c: Context): AbortSignal | undefined {
  try {
    return c.req.raw.signal;
  } catch {
    return undefined;
  }
}

/** The single onError: every failure leaves as the error body, and no stack trace leaves at all. */
export function handleError(logger: Logger) {
  return (err: Error, c: Context): Response => {
    if (err instanceof AppError) return sendError(c, err);
    if (err instanceof HTTPException) {
      const code = STATUS_CODES[err.status];
      if (code) return sendError(c, new AppError(code, code === "VALIDATION_ERROR" ? err.message || undefined : undefined));
    }
    if (isClientAbort(err, signalOf(c))) {
      // The client is gone: nothing is wrong here, and no answer will be read.
      logger.debug({ method: c.req.method, path: loggedPath(c.req.path), code: (err as NodeJS.ErrnoException).code }, "client aborted the request");
      return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    }
    if (isUnavailable(err)) {
      // The store's own error (its code: 57014, 08006…), not the query wrapper drizzle puts around it.
      const cause = [...chain(err)].find((e) => typeof e.code === "string") ?? err;
      logger.warn({ err: cause, method: c.req.method, path: loggedPath(c.req.path) }, "store unavailable");
      return sendError(c, new AppError("SERVICE_UNAVAILABLE", "The data store is unavailable; retry shortly.", { "Retry-After": "5" }));
    }
    logger.error({ err, method: c.req.method, path: loggedPath(c.req.path) }, "unhandled error");
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

