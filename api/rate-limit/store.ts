/** Outcome of counting one request against a client's sliding window. */
export interface RateLimitHit {
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  count: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees). */
  resetMs: number;
  /** The counted entry (when allowed), for undo(). */
  entry?: string;
}

/**
 * Sliding-window log: a request is allowed when fewer than `max` allowed requests fall in
 * (now - windowMs, now]. Rejected requests are not counted.
 */
export interface RateLimitStore {
  hit(key: string, now: number, windowMs: number, max: number): Promise<RateLimitHit>;
  /** The same count without a promise, where the store can (in memory): the fast path's. */
  hitSync?(key: string, now: number, windowMs: number, max: number): RateLimitHit;
  /** Uncounts one allowed hit (a login that succeeded is not a failed attempt). */
  undo(key: string, entry: string): Promise<void>;
  close(): Promise<void>;
}
