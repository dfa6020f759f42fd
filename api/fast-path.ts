/**
 * Cache hits answered before the router. A GET whose path and canonical query name an answer the
 * per-block cache holds (api/middleware/cache.ts) is written straight to the Node response from
 * the entry's pre-built parts (body bytes, ETag, the route's metric label) — no fetch Request or
 * Response, no Hono context, no routing, no zod — after the checks the app would have made on the
 * way to that entry:
 *
 * - bearer auth where the app requires it (/assets/*, /accounts/*), and on any request that
 *   carries an Authorization header: only a token this process verified before, still unexpired;
 * - the rate limit (the same store, key and counters as api/middleware/rate-limit.ts);
 * - `If-None-Match` → 304.
 * It answers only 200 and 304: whatever the app would refuse is left to the app (see createFastPath).
 *
 * It writes the entry's one header block (answerHead), which the app writes too: a client cannot
 * tell from the headers which of the two answered, nor whether the answer was cached. HEAD comes
 * here as GET (api/server.ts; Node sends no body for it).
 *
 * Everything else goes to the app, which answers it exactly as before: anything with an Origin
 * header (CORS answers are built there), an Accept asking for CSV, a path with `%` or `\`, a Host that is not a plain
 * host[:port], a query the canonical form cannot decode, and every miss. An entry exists only
 * for a request that passed the app's input checks (strictInput) and was answered 200, under the
 * key the app derived from the normalised path in its canonical spelling (api/canonical.ts); a
 * raw path whose canonical spelling equals such a key asks for that same answer (canonicalPath
 * maps only what the route itself accepts and resolves alike), and strictInput's verdict depends
 * only on what the canonical key keeps (decoded names and values), so skipping it here refuses
 * nothing it would refuse.
 *
 * Hand-written rather than a Hono middleware: the point is to skip @hono/node-server's Request
 * and Response objects and Hono's dispatch, which cost ≈ 40 % of a cached answer's time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIPv6 } from "node:net";
import type { Logger } from "../shared/logger.js";
import type { ApiMetrics } from "../shared/metrics.js";
import type { TokenIssuer } from "./auth/tokens.js";
import { BEARER, requiresToken } from "./middleware/auth.js";
import { answerHead, ifNoneMatches, type Entry, type ResponseCache } from "./middleware/cache.js";
import { clientAddress, peerKey } from "./middleware/client-ip.js";
import { loggedPath, logRequest } from "./middleware/request-log.js";
import { requestMethod } from "./env.js";
import { canonicalQuery } from "./middleware/strict-input.js";
import type { RateLimitHit, RateLimitStore } from "./rate-limit/store.js";

export interface FastPathDeps {
  cache: ResponseCache;
  tokens: TokenIssuer;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
  trustProxy: number;
  logger: Logger;
  metrics?: ApiMetrics;
  now?: () => number;
}

/** A name or IPv4 address, or a bracketed IPv6 address, with an optional port: what @hono/node-server accepts as is. */
/** Any mention of CSV in Accept (case-insensitive, no allocation): the app decides. */
const CSV = /text\/csv/i;

const HOST = /^(?:([A-Za-z0-9.-]+)|\[([0-9A-Fa-f:.]+)\])(?::(\d{1,5}))?$/;

function plainHost(host: string): boolean {
  const m = HOST.exec(host);
  if (!m) return false;
  if (m[2] !== undefined && !isIPv6(m[2])) return false;
  return m[3] === undefined || Number(m[3]) <= 65_535;
}

/** The cache key of a request the fast path may answer, or undefined (the app answers it). */
export function fastKey(req: IncomingMessage, cache?: Pick<ResponseCache, "canonical">): string | undefined {
  const url = req.url;
  if (req.method !== "GET" || url === undefined || url.charCodeAt(0) !== 47 /* / */) return undefined;
  const headers = req.headers;
  if (headers.origin !== undefined || headers.host === undefined || !plainHost(headers.host)) return undefined;
  // A CSV of the same path is the app's to answer (never cached).
  if (headers.accept !== undefined && CSV.test(headers.accept)) return undefined;
  const q = url.indexOf("?");
  const raw = q < 0 ? url : url.slice(0, q);
  if (raw.includes("%") || raw.includes("\\")) return undefined;
  const path = cache ? cache.canonical(raw) : raw;
  if (q < 0) return path;
  let query: string;
  try {
    query = canonicalQuery(url.slice(q + 1));
  } catch {
    return undefined; // malformed percent-encoding: the app says so
  }
  return query === "" ? path : `${path}?${query}`;
}

/** Whether the request carries more than one Authorization line (Node keeps the first; the app sees them joined, and refuses). */
function repeatedAuthorization(req: IncomingMessage): boolean {
  let n = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === "authorization" && ++n > 1) return true;
  return false;
}

/**
 * Returns a listener step: `true` when the request was taken (it is answered here, possibly
 * after an await, or handed to `fallback`), `false` when the app must answer it.
 *
 * Only answers the app would give as 200 or 304 are taken: a request that lacks a valid token
 * (never verified here, expired, missing where required), or that the rate limit refuses, is
 * left to the app before anything is written, so refusals look the same whether or not the
 * answer was cached (no telling which addresses other users looked up) — a refused request is
 * not counted by the limit (the sliding log keeps only allowed ones), so the app's count of it
 * is its only one.
 */
export function createFastPath(deps: FastPathDeps, fallback: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => boolean {
  const now = deps.now ?? Date.now;
  const { cache, rateLimit: limit, logger, metrics } = deps;

  function serve(req: IncomingMessage, res: ServerResponse, key: string, path: string, entry: Entry & { route: string }, limitHeaders: string[], started: number): void {
    cache.fastHits += 1;
    cache.served(key);
    let status = 200;
    if (ifNoneMatches(headerText(req.headers["if-none-match"]), entry.etag)) {
      status = 304;
      res.writeHead(304, answerHead(entry, 304, limitHeaders));
      res.end();
    } else {
      res.writeHead(200, answerHead(entry, 200, limitHeaders));
      // Small bodies as text: Node sends them in one write with the head.
      res.end(entry.bytes.length < 16_384 ? entry.body : entry.bytes);
    }
    const seconds = (performance.now() - started) / 1000;
    const method = requestMethod(req);
    metrics?.observe(method, entry.route, status, seconds);
    logRequest(logger, method, path, status, seconds * 1000);
  }

  const limitHeaders = (hit: RateLimitHit): string[] => ["RateLimit-Limit", String(limit.max), "RateLimit-Remaining", String(limit.max - hit.count), "RateLimit-Reset", String(Math.max(0, Math.ceil(hit.resetMs / 1000)))];

  return (req, res) => {
    const key = fastKey(req, cache);
    if (key === undefined) return false;
    // The entry of the block current at arrival, even if a block switch happens during an await below.
    const entry = cache.peek(key);
    if (!entry?.route) return false;
    const path = key.includes("?") ? key.slice(0, key.indexOf("?")) : key;
    const authorization = req.headers.authorization;
    if (authorization === undefined) {
      if (requiresToken(path)) return false;
    } else {
      const token = BEARER.exec(authorization)?.[1];
      if (token === undefined || !deps.tokens.known(token) || repeatedAuthorization(req)) return false;
    }
    const started = performance.now();
    const cached = entry as Entry & { route: string };
    if (limit.max === 0) {
      serve(req, res, key, path, cached, [], started);
      return true;
    }
    const client = deps.trustProxy > 0 ? clientAddress(req.socket.remoteAddress, headerText(req.headers["x-forwarded-for"]), deps.trustProxy) : peerKey(req.socket.remoteAddress);
    const store = limit.store;
    if (store.hitSync) {
      const hit = store.hitSync(client, now(), limit.windowMs, limit.max);
      if (!hit.allowed) return false;
      serve(req, res, key, path, cached, limitHeaders(hit), started);
      return true;
    }
    store
      .hit(client, now(), limit.windowMs, limit.max)
      .then(
        (hit) => (hit.allowed ? serve(req, res, key, path, cached, limitHeaders(hit), started) : fallback(req, res)),
        (err: unknown) => {
          // A counter store outage must not take the API down with it: serve, and say so in the log.
          logger.warn({ err }, "rate-limit store unavailable; request not counted");
          serve(req, res, key, path, cached, [], started);
        },
      )
      .catch((err: unknown) => {
        logger.error({ err, method: "GET", path: loggedPath(path) }, "unhandled error");
        if (!res.headersSent) fallback(req, res);
        else res.destroy();
      });
    return true;
  };
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(", ") : v;
}
