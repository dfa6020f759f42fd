import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.js";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";
import { sendError } from "../errors.js";
import type { RateLimitStore } from "../rate-limit/store.js";
import { clientIp } from "./client-ip.js";

export interface RateLimitOptions {
  store: RateLimitStore;
  /** Requests per window; 0 disables the limit. */
  max: number;
  windowMs: number;
  trustProxy: number;
  now: () => number;
  logger: Logger;
}

/** 100 requests/min per client IP over the whole API, with RateLimit-* headers on every answer. */
export function rateLimit(opts: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (opts.max === 0) return next();
    // The key is the bare client key (an IPv4 address, an IPv6 /64 or "unknown"; /ws counts its
    // messages under the same one): never client-chosen text, so never a `login:…` counter.
    const key = clientIp(c, opts.trustProxy);
    let hit;
    try {
      // In memory the count needs no promise (nor the turn of the event loop one costs).
      hit = opts.store.hitSync ? opts.store.hitSync(key, opts.now(), opts.windowMs, opts.max) : await opts.store.hit(key, opts.now(), opts.windowMs, opts.max);
    } catch (err) {
      // A counter store outage must not take the API down with it: serve, and say so in the log.
      opts.logger.warn({ err }, "rate-limit store unavailable; request not counted");
      return next();
    }
    const headers = {
      "RateLimit-Limit": String(opts.max),
      "RateLimit-Remaining": String(hit.allowed ? opts.max - hit.count : 0),
      "RateLimit-Reset": String(Math.max(0, Math.ceil(hit.resetMs / 1000))),
    };
    if (!hit.allowed) {
      return sendError(c, new AppError("RATE_LIMITED", undefined, { ...headers, "Retry-After": headers["RateLimit-Reset"] }));
    }
    // A cached answer writes them into its own header block (api/middleware/cache.ts answer()).
    c.set("rateLimitHeaders", ["RateLimit-Limit", headers["RateLimit-Limit"], "RateLimit-Remaining", headers["RateLimit-Remaining"], "RateLimit-Reset", headers["RateLimit-Reset"]]);
    await next();
    if (c.get("answered")) return;
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
