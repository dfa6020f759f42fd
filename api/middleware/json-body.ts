import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";
import { CONTROL_CHARS } from "./strict-input.js";

/**
 * Half of a UTF-16 surrogate pair on its own: not text. Every one of them becomes U+FFFD when
 * encoded, so passwords "abcdefgh\ud800" and "abcdefgh\udfff" were the same password.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Nesting deeper than this is refused: no body of this API nests more than two levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * The first string (key or value) in `value` that holds a control character, by its path; or
 * "too deep". Walked with an explicit stack: recursion overflowed the call stack on an array
 * nested 8,000 deep, which fits in 16 KiB (a 500).
 */
function controlCharAt(value: unknown): string | undefined | { tooDeep: true } {
  const stack: [unknown, string, number][] = [[value, "", 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === "string") {
      if (CONTROL_CHARS.test(v) || LONE_SURROGATE.test(v)) return path;
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (depth >= MAX_JSON_DEPTH) return { tooDeep: true };
    for (const [key, child] of Object.entries(v)) {
      if (CONTROL_CHARS.test(key) || LONE_SURROGATE.test(key)) return path;
      stack.push([child, path ? `${path}.${key}` : key, depth + 1]);
    }
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
    const at = controlCharAt(body);
    if (typeof at === "object") throw new AppError("VALIDATION_ERROR", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    if (at !== undefined) throw new AppError("VALIDATION_ERROR", `Invalid body field "${at.slice(0, 64) || "(root)"}": control characters and unpaired surrogates are not allowed.`);
    return next();
  };
}
