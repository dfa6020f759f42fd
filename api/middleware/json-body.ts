import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";
import { CONTROL_CHARS } from "./strict-input.js";

/** The first string (key or value) in `value` that holds a control character, by its path. */
function controlCharAt(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return CONTROL_CHARS.test(value) ? path : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, v] of Object.entries(value)) {
    const at = CONTROL_CHARS.test(key) ? path : controlCharAt(v, path ? `${path}.${key}` : key);
    if (at !== undefined) return at;
  }
  return undefined;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Requests with a body must say application/json (415) and carry valid JSON (400). */
export function requireJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "POST" && c.req.method !== "PUT" && c.req.method !== "PATCH") return next();
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON with Content-Type: application/json.");
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new AppError("VALIDATION_ERROR", "The request body is not valid JSON.");
    }
    // The body is at most MAX_BODY_BYTES, so this walk is bounded.
    const at = controlCharAt(body, "");
    if (at !== undefined) throw new AppError("VALIDATION_ERROR", `Invalid body field "${at.slice(0, 64) || "(root)"}": control characters are not allowed.`);
    return next();
  };
}
