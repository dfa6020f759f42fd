import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type DbHandle } from "../../db/index.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { RedisRateLimitStore } from "../../api/rate-limit/redis-store.js";
import { clientKey } from "../../api/middleware/client-ip.js";
import { buildApp, expectError, FakeClock } from "../support/app.js";
import { memoryStore, services } from "../support/db.js";

let handle: DbHandle;
async function db() {
  handle ??= await memoryStore();
  return handle.db;
}
afterAll(() => handle?.close());

describe("rate limit (memory)", () => {
  it("allows 100 requests a minute per IP, answers the 101st with 429, and recovers in a new window", async () => {
    const t = buildApp(await db());
    for (let i = 1; i <= 100; i++) {
      const res = await t.get("/pool/stats");
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("100");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(100 - i));
      // Seconds until the first request of the window leaves it.
      expect(res.headers.get("ratelimit-reset")).toBe(String(Math.ceil((60_000 - (i - 1) * 100) / 1000)));
      if (i < 100) t.clock.advance(100);
    }
    const limited = await t.get("/pool/stats");
    // The first request leaves the window 60 s after it was made: 9.9 s have passed.
    expect(limited.headers.get("retry-after")).toBe("51");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    await expectError(limited, 429, "RATE_LIMITED");
    // Other clients are not affected.
    expect((await t.request("/pool/stats", { ip: "198.51.100.1" })).status).toBe(200);
    // Sliding: once the first request is 60 s old, exactly one slot is free again.
    t.clock.advance(60_000 - 9_900);
    expect((await t.get("/pool/stats")).status).toBe(200);
    expect((await t.get("/pool/stats")).status).toBe(429);
    // A whole new window: all 100 again.
    t.clock.advance(60_000);
    const fresh = await t.get("/pool/stats");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ratelimit-remaining")).toBe("99");
  });

  it("counts every route, error answers included, and puts the headers on errors too", async () => {
    const t = buildApp(await db(), { rateLimit: { store: new MemoryRateLimitStore(), max: 3, windowMs: 60_000 } });
    const a = await t.get("/nope");
    expect(a.status).toBe(404);
    expect(a.headers.get("ratelimit-remaining")).toBe("2");
    expect((await t.get("/assets/metadata/1")).headers.get("ratelimit-remaining")).toBe("1");
    expect((await t.post("/auth/login", {})).headers.get("ratelimit-remaining")).toBe("0");
    await expectError(await t.get("/health"), 429, "RATE_LIMITED");
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const store = () => ({ store: new MemoryRateLimitStore(), max: 2, windowMs: 60_000 });
    const direct = buildApp(await db(), { rateLimit: store() });
    for (const xff of ["1.1.1.1", "2.2.2.2"]) {
      expect((await direct.request("/pool/stats", { headers: { "X-Forwarded-For": xff } })).status).toBe(200);
    }
    expect((await direct.request("/pool/stats", { headers: { "X-Forwarded-For": "3.3.3.3" } })).status).toBe(429);

    const proxied = buildApp(await db(), { rateLimit: store(), trustProxy: 1 });
    const from = (xff: string) => proxied.request("/pool/stats", { ip: "10.0.0.1", headers: { "X-Forwarded-For": xff } });
    expect((await from("spoofed, 1.1.1.1")).status).toBe(200);
    expect((await from("other, 1.1.1.1")).status).toBe(200);
    expect((await from("1.1.1.1")).status).toBe(429); // the same client behind the proxy
    expect((await from("2.2.2.2")).status).toBe(200); // another client behind the same proxy
  });

  it("counts an IPv6 client by its /64, so rotating addresses within a prefix does not reset the limit", async () => {
    const t = buildApp(await db(), { rateLimit: { store: new MemoryRateLimitStore(), max: 3, windowMs: 60_000 } });
    const from = (ip: string) => t.request("/pool/stats", { ip });
    expect((await from("2001:db8:1:2::1")).status).toBe(200);
    expect((await from("2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(200);
    expect((await from("2001:0db8:0001:0002:0:0:0:abcd")).status).toBe(200);
    await expectError(await from("2001:db8:1:2::dead:beef"), 429, "RATE_LIMITED");
    expect((await from("2001:db8:1:3::1")).status).toBe(200); // the next /64 is another client
    // IPv4-mapped addresses are their IPv4 address; IPv4 clients are counted per address.
    expect((await from("::ffff:192.0.2.1")).status).toBe(200);
    expect((await from("192.0.2.2")).status).toBe(200);
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("not an address")).toBe("not an address");
  });
});

describe.skipIf(!services.redisUrl)(`rate limit (Redis)${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, () => {
  it("two app instances sharing one Redis share one limit", async () => {
    const prefix = `tokenpool-test-${randomUUID()}`;
    const s1 = new RedisRateLimitStore(services.redisUrl as string, prefix);
    const s2 = new RedisRateLimitStore(services.redisUrl as string, prefix);
    await Promise.all([s1.ready(), s2.ready()]);
    try {
      const clock = new FakeClock();
      const a = buildApp(await db(), { clock, rateLimit: { store: s1, max: 100, windowMs: 60_000 } });
      const b = buildApp(await db(), { clock, rateLimit: { store: s2, max: 100, windowMs: 60_000 } });
      for (let i = 0; i < 100; i++) {
        const res = await (i % 2 === 0 ? a : b).get("/pool/stats");
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit-remaining")).toBe(String(99 - i));
        clock.advance(10);
      }
      await expectError(await a.get("/pool/stats"), 429, "RATE_LIMITED");
      const limited = await b.get("/pool/stats");
      expect(Number(limited.headers.get("retry-after"))).toBe(59);
      await expectError(limited, 429, "RATE_LIMITED");
      clock.advance(60_000);
      expect((await b.get("/pool/stats")).status).toBe(200);
    } finally {
      await Promise.all([s1.close(), s2.close()]);
    }
  });

  it("a Redis outage fails open instead of taking the API down", async () => {
    const store = new RedisRateLimitStore("redis://127.0.0.1:1", "tokenpool-test");
    const t = buildApp(await db(), { rateLimit: { store, max: 100, windowMs: 60_000 } });
    expect((await t.get("/pool/stats")).status).toBe(200);
    await store.close();
  });
});
