import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Requests with a body must say application/json (415) and carry valid JSON (400). */
export function requireJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "POST" && c.req.method !== "PUT" && c.req.method !== "PATCH") return next();
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON with Content-Type: application/json.");
    }
    try {
      await c.req.json();
    } catch {
      throw new AppError("VALIDATION_ERROR", "The request body is not valid JSON.");
    }
    return next();
  };
}
