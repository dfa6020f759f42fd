/**
 * The budget of the service's own files: the dashboard (its page, script and style sheet), the
 * docs page and Swagger UI's files, and /openapi.json. They are not REST endpoints (DESIGN.md):
 * a newcomer who reloads the dashboard while polling the API must not spend the 100 requests a
 * minute the API calls need (the page and its script answered 429). They are answers from memory,
 * so they have a budget of their own, per client key (an IPv4 address, an IPv6 /64) and per
 * process: requests in a sliding window, and the bytes of whole answers (a 304 sends none; one of
 * these files is Swagger UI's 1.7 MB bundle, so a request count alone would let one client pull
 * 8 MB/s).
 *
 * Both are counted synchronously: the request, and whether the client's bytes are spent, before
 * the handler runs; the answer's bytes when the handler has chosen it (a kept buffer), before
 * anything is sent.
 */
import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";
import { clientMethod, type AppEnv } from "../env.js";
import { sendError } from "../errors.js";
import { MemoryRateLimitStore } from "../rate-limit/memory-store.js";
import { clientIp } from "./client-ip.js";

export interface StaticLimits {
  /** Requests per window per client. */
  requests: number;
  /** Bytes of bodies per window per client (a leaky bucket that drains this much per window). */
  bytes: number;
  windowMs: number;
}

/** ≈ 75 dashboard loads a minute (4 files each: page, script, style sheet, icon), or 37 full loads of /docs without a browser cache. */
export const STATIC_LIMITS: StaticLimits = { requests: 300, bytes: 64 * 1024 * 1024, windowMs: 60_000 };

/** One client's bytes: what it has in the bucket, as of `at` (ms). */
interface Bucket {
  level: number;
  at: number;
}

/**
 * A leaky bucket per client, in bytes. Hand-written (20 lines): the limiter store counts requests,
 * not weights, and a byte budget needs only a level and a time per client.
 */
class ByteBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;
  constructor(private readonly limits: StaticLimits) {}

  /** The client's level now (drained since it was last seen). */
  private level(key: string, now: number): number {
    const b = this.buckets.get(key);
    if (!b) return 0;
    return Math.max(0, b.level - ((now - b.at) * this.limits.bytes) / this.limits.windowMs);
  }

  /** Milliseconds until `bytes` more would fit (0: they fit now). */
  waitFor(key: string, bytes: number, now: number): number {
    const over = this.level(key, now) + bytes - this.limits.bytes;
    return over <= 0 ? 0 : Math.ceil((over * this.limits.windowMs) / this.limits.bytes);
  }

  charge(key: string, bytes: number, now: number): void {
    this.sweep(now);
    this.buckets.set(key, { level: this.level(key, now) + bytes, at: now });
  }

  /** Once a window: clients whose bucket has drained are forgotten (memory stays bounded by the active ones). */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.limits.windowMs) return;
    this.lastSweep = now;
    for (const key of [...this.buckets.keys()]) if (this.level(key, now) === 0) this.buckets.delete(key);
  }
}

/** The paths this budget covers instead of the REST limit. */
export function staticBudget(opts: { paths: Iterable<string>; limits?: StaticLimits; trustProxy: number; now: () => number }): { covers(path: string): boolean; middleware: MiddlewareHandler<AppEnv> } {
  const limits = opts.limits ?? STATIC_LIMITS;
  const paths = new Set(opts.paths);
  const requests = new MemoryRateLimitStore();
  const bytes = new ByteBuckets(limits);
  const refuse = (c: Parameters<MiddlewareHandler<AppEnv>>[0], waitMs: number, what: string) => {
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    return sendError(c, new AppError("RATE_LIMITED", `Too many downloads of the dashboard's and docs' files from this client (${what}); retry after ${retryAfter} s. This budget is apart from the API's request limit.`, { "Retry-After": retryAfter }));
  };
  return {
    covers: (path) => paths.has(path),
    middleware: async (c, next) => {
      const key = clientIp(c, opts.trustProxy);
      const now = opts.now();
      const hit = requests.hitSync(key, now, limits.windowMs, limits.requests);
      if (!hit.allowed) return refuse(c, hit.resetMs, `at most ${limits.requests} requests a minute`);
      // A client whose bucket is already full is refused before its answer is chosen.
      const full = bytes.waitFor(key, 1, now);
      if (full > 0) return refuse(c, full, `at most ${limits.bytes / 1024 / 1024} MiB a minute`);
      await next();
      // Charged after the answer is chosen, synchronously: the bucket may go past its top by this
      // one answer (a client is never refused a file larger than what is left), and the next
      // request waits until it has drained below the top.
      const sent = c.res.status === 200 && clientMethod(c) !== "HEAD" ? (c.get("staticBytes") ?? 0) : 0;
      const at = opts.now();
      bytes.charge(key, sent, at);
    },
  };
}
