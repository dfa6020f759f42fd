import type { RateLimitHit, RateLimitStore } from "./store.js";

/**
 * In-process sliding-window log. Hand-written because the maintained limiter libraries
 * (rate-limiter-flexible, hono-rate-limiter) count fixed windows, which let a client send
 * 2x the limit across a window edge. Memory is bounded: at most `max` timestamps per client,
 * and idle clients are swept once per window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Each key's log, with the window it is counted in (login counters keep 15 min, requests 1). */
  private readonly logs = new Map<string, { log: number[]; windowMs: number }>();
  private lastSweep = 0;
  private seq = 0;

  async hit(key: string, now: number, windowMs: number, max: number): Promise<RateLimitHit> {
    const hit = this.hitSync(key, now, windowMs, max);
    return hit.allowed ? { ...hit, entry: `${now}:${this.seq++}` } : hit;
  }

  /** The count without a promise and without an undo entry (the fast path's: it never undoes). */
  hitSync(key: string, now: number, windowMs: number, max: number): RateLimitHit {
    this.sweep(now, windowMs);
    let kept = this.logs.get(key);
    const log = kept?.log ?? [];
    const start = now - windowMs;
    let expired = 0;
    while (expired < log.length && (log[expired] as number) <= start) expired++;
    if (expired > 0) log.splice(0, expired);
    const allowed = log.length < max;
    if (allowed) log.push(now);
    if (log.length > 0) {
      if (!kept) this.logs.set(key, (kept = { log, windowMs }));
      else kept.windowMs = windowMs;
    } else if (kept) this.logs.delete(key);
    const oldest = log[0];
    return { allowed, count: log.length, resetMs: oldest === undefined ? windowMs : oldest + windowMs - now };
  }

  async undo(key: string, entry: string): Promise<void> {
    const log = this.logs.get(key)?.log;
    const at = log?.lastIndexOf(Number(entry.slice(0, entry.indexOf(":")))) ?? -1;
    if (log && at >= 0) log.splice(at, 1);
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    // Each key by its own window: swept by the caller's (a request's 60 s), the 15-minute login
    // counters were dropped after a minute, cutting the lockout to 60–120 s.
    for (const [key, { log, windowMs: own }] of this.logs) {
      const newest = log[log.length - 1];
      if (newest === undefined || newest <= now - own) this.logs.delete(key);
    }
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}
