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

/** The single onError: every failure leaves as the error body, and no stack trace leaves at all. */
export function handleError(logger: Logger) {
  return (err: Error, c: Context): Response => {
    if (err instanceof AppError) return sendError(c, err);
    if (err instanceof HTTPException) {
      const code = STATUS_CODES[err.status];
      if (code) return sendError(c, new AppError(code, code === "VALIDATION_ERROR" ? err.message || undefined : undefined));
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

