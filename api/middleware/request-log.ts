import type { MiddlewareHandler } from "hono";
import { CONNECTION_URL, scrub, type Logger } from "../../shared/logger.js";
import { clientMethod, type AppEnv } from "../env.js";

/** The longest path a log line holds (after scrubbing); the rest is cut with "…". */
export const LOGGED_PATH_MAX = 200;
/** How much of a path is looked at at all: the scrubbing's cost stays bounded on a 16 KiB URL. */
const PATH_READ_MAX = 1_024;

/**
 * A request path as it may be written to a log: what the client put there can be a token, an
 * email, a password hash or another secret (`/assets/metadata/<JWT>`, `/pool/stats/a@b.c/KSM`),
 * so it is percent-decoded (`%40` is an `@` too), connection URLs are cut from the whole path, then
 * every segment goes through the log's own scrub() (emails, `eyJ…` tokens, `scrypt$…` hashes,
 * bearer tokens, connection URLs) and any run
 * of 16 or more base64url or hex characters becomes `[blob]` (no route's own segment is that
 * long: addresses and account ids are blobs too), anything from an `eyJ` on becomes `[token]`
 * (a JWT split over segments), and the result is cut to
 * LOGGED_PATH_MAX characters. A password hash is cut from `scrypt$` to the end of the path, since
 * its base64 may hold a `/`.
 */
export function loggedPath(path: string): string {
  let text = path.length > PATH_READ_MAX ? path.slice(0, PATH_READ_MAX) : path;
  for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}/.test(text); round++) {
    const decoded = text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (decoded === text) break;
    text = decoded;
  }
  text = text.replace(/scrypt\$\S*/gi, "[hash]");
  // A token split over several segments (no one of them looks like a token): from its first
  // `eyJ` (the base64url of `{"`, how a JWT's header and payload start) to the end.
  text = text.replace(/eyJ.*$/s, "[token]");
  // Connection URLs over the whole path first: one decoded from a segment (`postgres%3A%2F%2F…`)
  // spans several once split on "/", where no segment would look like one.
  text = text
    .replace(...CONNECTION_URL)
    .split("/")
    .map((segment) => scrub(segment).replace(/[A-Za-z0-9_+=-]{16,}/g, "[blob]"))
    .join("/");
  return text.length > LOGGED_PATH_MAX ? `${text.slice(0, LOGGED_PATH_MAX - 1)}…` : text;
}

/** A request that took longer than this is logged at info, whatever LOG_LEVEL says of the rest. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * The level of a request's log line. Answers are at debug (LOG_LEVEL=debug shows every one): at
 * info they were most of what a running service wrote (294 of 405 lines in 11 minutes of
 * `npm start`), burying what needs a reader. A 5xx is at warn and a slow answer at info, so both
 * are always written; the error behind a 500 has its own line (api/errors.ts).
 */
export function requestLevel(status: number, ms: number): "warn" | "info" | "debug" {
  if (status >= 500) return "warn";
  return ms >= SLOW_REQUEST_MS ? "info" : "debug";
}

/** Writes a request's line at its level (see requestLevel); nothing of it is built when that level is off. */
export function logRequest(logger: Logger, method: string, path: string, status: number, ms: number): void {
  const level = requestLevel(status, ms);
  if (logger.isLevelEnabled(level)) logger[level]({ method, path: loggedPath(path), status, ms: Math.round(ms * 10) / 10 }, "request");
}

/**
 * One log line per request: method, path (scrubbed and cut, see loggedPath), status, duration,
 * at the level requestLevel gives it. Never headers, query strings or bodies. Nothing of a line
 * whose level is off is built: its scrubbing alone cost more than the rest of the middleware.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("logger", logger);
    const start = performance.now();
    await next();
    logRequest(logger, clientMethod(c), c.req.path, c.res.status, performance.now() - start);
  };
}
