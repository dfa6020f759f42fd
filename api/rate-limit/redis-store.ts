import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { REDIS_CLOSE_TIMEOUT_MS, within } from "../../shared/bounded.js";
import type { RateLimitHit, RateLimitStore } from "./store.js";

// The same sliding-window log as the memory store, as one atomic script so that every API
// replica sees one count. A sorted set per client: score = request time in ms.
const SLIDING_WINDOW = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < max then
  redis.call('ZADD', key, now, ARGV[4])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local reset = window
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {allowed, count, reset}
`;

type WithScript = Redis & { slidingWindow(key: string, now: number, windowMs: number, max: number, member: string): Promise<[number, number, number]> };

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: WithScript;

  private readonly prefix: string;

  /** Keys are `{prefix}:ratelimit:{client}`. */
  constructor(url: string, prefix = "tokenpool") {
    this.prefix = `${prefix}:ratelimit:`;
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.defineCommand("slidingWindow", { numberOfKeys: 1, lua: SLIDING_WINDOW });
    redis.on("error", () => {}); // surfaced per call through hit()'s rejection
    this.redis = redis as WithScript;
  }

  /** Resolves once connected; rejects when Redis cannot be reached within `timeoutMs`. */
  async ready(timeoutMs = 5_000): Promise<void> {
    if (this.redis.status === "ready") return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Redis not reachable within ${timeoutMs} ms`)), timeoutMs);
      this.redis.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async hit(key: string, now: number, windowMs: number, max: number): Promise<RateLimitHit> {
    const entry = `${now}:${randomUUID()}`;
    const [allowed, count, reset] = await this.redis.slidingWindow(this.prefix + key, now, windowMs, max, entry);
    return { allowed: allowed === 1, count, resetMs: reset, entry: allowed === 1 ? entry : undefined };
  }

  async undo(key: string, entry: string): Promise<void> {
    await this.redis.zrem(this.prefix + key, entry);
  }

  /** QUIT, bounded: a Redis that accepts and never answers is cut after REDIS_CLOSE_TIMEOUT_MS. */
  async close(): Promise<void> {
    const quit = this.redis.quit().catch(() => this.redis.disconnect());
    await within(quit, REDIS_CLOSE_TIMEOUT_MS, () => this.redis.disconnect());
  }
}
