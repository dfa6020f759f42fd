/**
 * Cache hits answered before the router. A GET whose path and canonical query name an answer the
 * per-block cache holds (api/middleware/cache.ts) is written straight to the Node response from
 * the entry's pre-built parts (body bytes, ETag, the route's metric label) — no fetch Request or
 * Response, no Hono context, no routing, no zod — after the checks the app would have made on the
 * way to that entry:
 *
 * - the rate limit (the same store, key and counters as api/middleware/rate-limit.ts, counted
 *   once: from here on the request is answered here, never handed to the app);
 * - bearer auth where the app requires it (/assets/*, /accounts/*), and on any request that
 *   carries an Authorization header (a bad one is 401 on public paths too);
 * - `If-None-Match` → 304.
 *
 * Everything else goes to the app, which answers it exactly as before: HEAD, anything with an
 * Origin header (CORS answers are built there), a path with `%` or `\`, a Host that is not a plain
 * host[:port], a query the canonical form cannot decode, and every miss. An entry exists only
 * for a request that passed the app's input checks (strictInput) and was answered 200, under the
 * key the app derived from the normalised path; a raw path equal to such a key is that same
 * request, and strictInput's verdict depends only on what the canonical key keeps (decoded names
 * and values), so skipping it here refuses nothing it would refuse.
 *
 * Hand-written rather than a Hono middleware: the point is to skip @hono/node-server's Request
 * and Response objects and Hono's dispatch, which cost ≈ 40 % of a cached answer's time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";
import type { ApiMetrics } from "../shared/metrics.js";
import type { TokenIssuer } from "./auth/tokens.js";
import { errorBody } from "./errors.js";
import { BEARER, requiresToken } from "./middleware/auth.js";
import { ifNoneMatches, type Entry, type ResponseCache } from "./middleware/cache.js";
import { clientAddress } from "./middleware/client-ip.js";
import { loggedPath } from "./middleware/request-log.js";
import { canonicalQuery } from "./middleware/strict-input.js";
import type { RateLimitStore } from "./rate-limit/store.js";

export interface FastPathDeps {
  cache: ResponseCache;
  tokens: TokenIssuer;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
  trustProxy: number;
  logger: Logger;
  metrics?: ApiMetrics;
  now?: () => number;
}

/** A Host header @hono/node-server accepts as is: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The cache key of a request the fast path may answer, or undefined (the app answers it). */
export function fastKey(req: IncomingMessage): string | undefined {
  const url = req.url;
  if (req.method !== "GET" || url === undefined || url.charCodeAt(0) !== 47 /* / */) return undefined;
  const headers = req.headers;
  if (headers.origin !== undefined || headers.host === undefined || !PLAIN_HOST.test(headers.host)) return undefined;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (path.includes("%") || path.includes("\\")) return undefined;
  if (q < 0) return path;
  let query: string;
  try {
    query = canonicalQuery(url.slice(q + 1));
  } catch {
    return undefined; // malformed percent-encoding: the app says so
  }
  return query === "" ? path : `${path}?${query}`;
}

/**
 * Returns a listener step: `true` when the request was taken (it is answered here, possibly
 * after an await), `false` when the app must answer it.
 */
export function createFastPath(deps: FastPathDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const now = deps.now ?? Date.now;
  const { cache, rateLimit: limit, logger, metrics } = deps;
  const logRequests = () => logger.isLevelEnabled("info");

  function finish(req: IncomingMessage, res: ServerResponse, path: string, route: string, status: number, headers: (string | number)[], body: Buffer | string | undefined, started: number): void {
    res.writeHead(status, headers);
    res.end(body);
    const seconds = (performance.now() - started) / 1000;
    metrics?.observe("GET", route, status, seconds);
    if (logRequests()) logger.info({ method: "GET", path: loggedPath(path), status, ms: Math.round(seconds * 10_000) / 10 }, "request");
    void req;
  }

  function fail(req: IncomingMessage, res: ServerResponse, path: string, route: string, err: AppError, extra: (string | number)[], started: number): void {
    const body = JSON.stringify(errorBody(err.code, err.message));
    const headers: (string | number)[] = ["Content-Type", "application/json", "Content-Length", Buffer.byteLength(body), ...extra];
    for (const [name, value] of Object.entries(err.headers)) headers.push(name, value);
    finish(req, res, path, route, err.status, headers, body, started);
  }

  type Cached = Entry & { route: string };
  type Hit = { allowed: boolean; count: number; resetMs: number } | undefined;

  /** The rate-limit headers of a counted request, or the 429 it gets (then answered here). */
  function limited(req: IncomingMessage, res: ServerResponse, path: string, entry: Cached, hit: Hit, started: number): (string | number)[] | undefined {
    if (!hit) return [];
    const reset = String(Math.max(0, Math.ceil(hit.resetMs / 1000)));
    const headers = ["RateLimit-Limit", String(limit.max), "RateLimit-Remaining", String(hit.allowed ? limit.max - hit.count : 0), "RateLimit-Reset", reset];
    if (hit.allowed) return headers;
    fail(req, res, path, entry.route, new AppError("RATE_LIMITED", undefined, { "Retry-After": reset }), headers, started);
    return undefined;
  }

  /** After the rate limit: bearer auth (a token verified before is checked without a promise), then the answer. */
  function authorized(req: IncomingMessage, res: ServerResponse, path: string, entry: Cached, limitHeaders: (string | number)[], started: number): void | Promise<void> {
    const authorization = req.headers.authorization;
    if (authorization === undefined) {
      if (requiresToken(path)) return fail(req, res, path, entry.route, new AppError("UNAUTHORIZED", "Missing access token: send Authorization: Bearer <token>."), limitHeaders, started);
      return served(req, res, path, entry, limitHeaders, started);
    }
    const token = BEARER.exec(authorization)?.[1];
    const known = token === undefined ? false : deps.tokens.known(token);
    const decide = (userId: string | false | undefined) =>
      userId ? served(req, res, path, entry, limitHeaders, started) : fail(req, res, path, entry.route, new AppError("UNAUTHORIZED", "The access token is invalid or expired."), limitHeaders, started);
    if (known !== undefined) return decide(known);
    return deps.tokens.verify(token!).then(decide);
  }

  function served(req: IncomingMessage, res: ServerResponse, path: string, entry: Cached, limitHeaders: (string | number)[], started: number): void {
    if (ifNoneMatches(headerText(req.headers["if-none-match"]), entry.etag)) {
      return finish(req, res, path, entry.route, 304, ["ETag", entry.etag, ...limitHeaders], undefined, started);
    }
    finish(req, res, path, entry.route, 200, limitHeaders.length === 0 ? entry.head : [...entry.head, ...limitHeaders], entry.bytes.length < 16_384 ? entry.body : entry.bytes, started);
  }

  /**
   * The rate limit, then auth, then the answer: without a promise when the store counts in
   * memory and the token (if any) was verified before — the common case — else awaiting them.
   */
  function answer(req: IncomingMessage, res: ServerResponse, path: string, entry: Cached, started: number): void | Promise<void> {
    if (limit.max === 0) return authorized(req, res, path, entry, [], started);
    const key = clientAddress(req.socket.remoteAddress, deps.trustProxy > 0 ? headerText(req.headers["x-forwarded-for"]) : undefined, deps.trustProxy);
    const store = limit.store;
    if (store.hitSync) {
      const headers = limited(req, res, path, entry, store.hitSync(key, now(), limit.windowMs, limit.max), started);
      return headers && authorized(req, res, path, entry, headers, started);
    }
    return store.hit(key, now(), limit.windowMs, limit.max).then(
      (hit) => {
        const headers = limited(req, res, path, entry, hit, started);
        return headers && authorized(req, res, path, entry, headers, started);
      },
      (err: unknown) => {
        // A counter store outage must not take the API down with it: serve, and say so in the log.
        logger.warn({ err }, "rate-limit store unavailable; request not counted");
        return authorized(req, res, path, entry, [], started);
      },
    );
  }

  return (req, res) => {
    const key = fastKey(req);
    if (key === undefined) return false;
    // Taken now, synchronously: the answer is the entry of the block current at arrival, even
    // if a block announcement clears the cache during the awaits below.
    const entry = cache.peek(key);
    if (!entry?.route) return false;
    const started = performance.now();
    cache.fastHits += 1;
    const path = key.includes("?") ? key.slice(0, key.indexOf("?")) : key;
    const failed = (err: unknown) => {
      // Nothing above throws on its own; a failure here is a bug, answered as the app would.
      logger.error({ err, method: "GET", path: loggedPath(path) }, "unhandled error");
      if (!res.headersSent) fail(req, res, path, entry.route!, new AppError("INTERNAL_ERROR"), [], started);
      else res.destroy();
    };
    try {
      answer(req, res, path, entry as Cached, started)?.catch(failed);
    } catch (err) {
      failed(err);
    }
    return true;
  };
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(", ") : v;
}
