import type { RateLimitHit, RateLimitStore } from "./store.js";

/**
 * One key's timestamps, oldest first, from `head` on. Expired ones are skipped by moving `head`
 * and dropped in one copy once they are most of the array: removing them from the front on every
 * hit (splice) moved the whole log each millisecond — at 40k requests a second in a one-second
 * window, 320 kB copied a thousand times a second.
 */
interface Log {
  t: number[];
  head: number;
  windowMs: number;
}

/**
 * In-process sliding-window log. Hand-written because the maintained limiter libraries
 * (rate-limiter-flexible, hono-rate-limiter) count fixed windows, which let a client send
 * 2x the limit across a window edge. Memory is bounded: at most `max` live timestamps per client
 * (2 × `max` + 64 with the expired ones not yet dropped), and idle clients are swept once per window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Each key's log, with the window it is counted in (login counters keep 15 min, requests 1). */
  private readonly logs = new Map<string, Log>();
  private lastSweep = 0;
  private seq = 0;

  async hit(key: string, now: number, windowMs: number, max: number): Promise<RateLimitHit> {
    const hit = this.hitSync(key, now, windowMs, max);
    return hit.allowed ? { ...hit, entry: `${now}:${this.seq++}` } : hit;
  }

  /** The count without a promise and without an undo entry (the fast path's: it never undoes). */
  hitSync(key: string, now: number, windowMs: number, max: number): RateLimitHit {
    this.sweep(now, windowMs);
    let log = this.logs.get(key);
    const start = now - windowMs;
    if (log) {
      const t = log.t;
      let head = log.head;
      while (head < t.length && (t[head] as number) <= start) head++;
      if (head > 64 && head * 2 > t.length) {
        t.copyWithin(0, head);
        t.length -= head;
        head = 0;
      }
      log.head = head;
      log.windowMs = windowMs;
    }
    const count = log ? log.t.length - log.head : 0;
    const allowed = count < max;
    if (allowed) {
      if (log) log.t.push(now);
      else this.logs.set(key, (log = { t: [now], head: 0, windowMs }));
    } else if (log && count === 0) {
      this.logs.delete(key);
      log = undefined;
    }
    const oldest = log?.t[log.head];
    return { allowed, count: log ? log.t.length - log.head : 0, resetMs: oldest === undefined ? windowMs : oldest + windowMs - now };
  }

  async undo(key: string, entry: string): Promise<void> {
    const log = this.logs.get(key);
    if (!log) return;
    const at = log.t.lastIndexOf(Number(entry.slice(0, entry.indexOf(":"))));
    if (at >= log.head) log.t.splice(at, 1);
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    // Each key by its own window: swept by the caller's (a request's 60 s), the 15-minute login
    // counters were dropped after a minute, cutting the lockout to 60–120 s.
    for (const [key, { t, windowMs: own }] of this.logs) {
      const newest = t[t.length - 1];
      if (newest === undefined || newest <= now - own) this.logs.delete(key);
    }
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}
