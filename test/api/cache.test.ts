/** The per-block response cache on its own: single flight, ETags, clears, and what it skips. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ResponseCache, responseCache } from "../../api/middleware/cache.js";
import type { AppEnv } from "../../api/env.js";

function appWith(cache: ResponseCache | undefined) {
  let calls = 0;
  const app = new Hono<AppEnv>();
  app.use(responseCache(cache));
  app.get("/pool/stats", async (c) => {
    calls += 1;
    await new Promise((r) => setTimeout(r, 30));
    return c.json({ calls });
  });
  app.get("/pool/missing", (c) => c.json({ error: "no" }, 404));
  app.get("/accounts/:address", async (c) => {
    calls += 1;
    await new Promise((r) => setTimeout(r, 30));
    return c.json({ address: c.req.param("address"), calls });
  });
  app.get("/health", (c) => c.json({ calls: ++calls }));
  // JSON built without c.json (read back from the Response).
  app.get("/pool/raw", (c) => {
    calls += 1;
    return c.body('{"raw":true}', 200, { "Content-Type": "application/json" });
  });
  app.get("/pools", (c) => {
    calls += 1;
    return c.json({ same: true });
  });
  return { app, calls: () => calls };
}

describe("response cache", () => {
  it("computes concurrent misses of one key once, and serves the rest from that answer", async () => {
    const cache = new ResponseCache();
    const { app, calls } = appWith(cache);
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.request("/pool/stats")));
    expect(calls()).toBe(1);
    const bodies = new Set(await Promise.all(answers.map((r) => r.text())));
    expect(bodies).toEqual(new Set(['{"calls":1}']));
    expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
    // Different query, different key.
    await app.request("/pool/stats?x=1");
    expect(calls()).toBe(2);
  });

  it("caches portfolios like the other reads of indexed data (the same answer for every user)", async () => {
    const cache = new ResponseCache();
    const { app, calls } = appWith(cache);
    await Promise.all(Array.from({ length: 20 }, () => app.request("/accounts/5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY")));
    expect(calls()).toBe(1);
  });

  it("a clear (the next block) makes the next request compute again; a computation that straddles a clear is not kept", async () => {
    const cache = new ResponseCache();
    const { app, calls } = appWith(cache);
    await app.request("/pool/stats");
    cache.clear();
    const during = app.request("/pool/stats");
    cache.clear(); // a block lands while the answer is being computed
    await during;
    await app.request("/pool/stats");
    expect(calls()).toBe(3);
  });

  it("keeps neither errors nor routes outside the indexed data, and without a cache still answers ETag/304", async () => {
    const cache = new ResponseCache();
    const { app, calls } = appWith(cache);
    expect((await app.request("/pool/missing")).status).toBe(404);
    expect((await app.request("/pool/missing")).headers.get("etag")).toBeNull();
    await app.request("/health");
    await app.request("/health");
    expect(calls()).toBe(2);

    const bare = appWith(undefined);
    const first = await bare.app.request("/pools");
    const etag = first.headers.get("etag")!;
    const second = await bare.app.request("/pools", { headers: { "if-none-match": etag } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe("");
    expect(bare.calls()).toBe(2); // computed both times: no cache, only the conditional answer
  });
});

describe("an answer's text", () => {
  it("is c.json's, or read back from a JSON Response built otherwise: the same body and ETag, with or without a cache", async () => {
    for (const cache of [new ResponseCache(), undefined]) {
      const { app, calls } = appWith(cache);
      for (const [path, body] of [["/pools", '{"same":true}'], ["/pool/raw", '{"raw":true}']] as const) {
        const first = await app.request(path);
        expect([first.status, first.headers.get("content-type"), await first.text()]).toEqual([200, "application/json", body]);
        const again = await app.request(path, { headers: { "if-none-match": first.headers.get("etag")! } });
        expect(again.status).toBe(304);
        // An ETag of another answer (an older block's) gets the whole answer, from the cache where there is one.
        const stale = await app.request(path, { headers: { "if-none-match": '"0-older"' } });
        expect([stale.status, await stale.text(), stale.headers.get("etag")]).toEqual([200, body, first.headers.get("etag")]);
      }
      expect(calls()).toBe(cache ? 2 : 6);
    }
  });
});

describe("hot keys (what a block switch computes ahead)", () => {
  it("are the most served keys still kept, most served first, at most n", () => {
    const cache = new ResponseCache();
    const counts = [5, 1, 9, 3, 9, 7, 2, 8, 4, 6];
    counts.forEach((n, i) => {
      cache.set(`/pools?page=${i + 1}`, { body: "{}", etag: '"e"', bytes: Buffer.from("{}"), head: [] }, cache.current);
      for (let k = 1; k < n; k++) cache.served(`/pools?page=${i + 1}`); // set() counts one
    });
    cache.served("/gone"); // served once, no longer kept
    for (let k = 0; k < 20; k++) cache.served("/gone");
    const expected = counts
      .map((n, i) => [`/pools?page=${i + 1}`, n] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k]) => k);
    expect(cache.hotKeys(4).map((k) => counts[Number(k.split("=")[1]) - 1])).toEqual(expected.map((k) => counts[Number(k.split("=")[1]) - 1]));
    expect(cache.hotKeys(4)).toHaveLength(4);
    expect(cache.hotKeys(4)).not.toContain("/gone");
    expect(cache.hotKeys(50)).toHaveLength(10);
  });
});
