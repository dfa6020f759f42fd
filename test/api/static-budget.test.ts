/**
 * The dashboard's and docs' own files are outside the REST limit, with a budget of their own
 * (issue 38, finding 7: a newcomer polling the API saw `/` and `/dashboard/app.js` answer 429).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATIC_PATHS } from "../../api/app.js";
import { STATIC_LIMITS } from "../../api/middleware/static-budget.js";
import { type DbHandle } from "../../db/index.js";
import { buildApp, expectError, FakeClock } from "../support/app.js";
import { seedMarket } from "../support/fixtures.js";
import { memoryStore } from "../support/db.js";

let handle: DbHandle;
beforeAll(async () => {
  handle = await memoryStore();
  await seedMarket(handle.db);
}, 60_000);
afterAll(() => handle?.close());

/** Every file of the page and of /docs, as a browser loading both asks for them. */
const FILES = ["/", "/dashboard/app.js", "/dashboard/style.css", "/dashboard/favicon.svg", "/docs", "/docs/assets/init.js", "/docs/assets/swagger-ui.css", "/docs/assets/swagger-ui-bundle.js", "/docs/assets/favicon-32x32.png", "/openapi.json"];

describe("the dashboard's and docs' files: a budget of their own", () => {
  it("covers every file of the page and of /docs, and nothing else", () => {
    expect([...STATIC_PATHS].sort()).toEqual([...FILES].sort());
  });

  it("a client that spent its 100 REST requests still loads the dashboard and the docs; loading them spends none of the REST budget", async () => {
    const t = buildApp(handle.db, { staticLimits: { ...STATIC_LIMITS, bytes: 1024 ** 3 } });
    // The files first: the REST budget is untouched by them.
    for (const path of FILES) {
      const res = await t.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("ratelimit-limit"), path).toBeNull();
    }
    const first = await t.get("/pool/stats");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("99");
    for (let i = 0; i < 99; i++) expect((await t.get("/pool/stats")).status).toBe(200);
    await expectError(await t.get("/pool/stats"), 429, "RATE_LIMITED");
    // The REST budget is spent; the page and its files are still served.
    for (const path of FILES) expect((await t.get(path)).status, path).toBe(200);
    // A path under /dashboard that is no file is a REST answer (404), and counted as one.
    await expectError(await t.get("/dashboard/other.js"), 429, "RATE_LIMITED");
  }, 60_000);

  it(`answers the ${STATIC_LIMITS.requests + 1}st file in a minute from one client 429 with Retry-After; others are served; the window slides`, async () => {
    const clock = new FakeClock();
    const t = buildApp(handle.db, { clock });
    for (let i = 0; i < STATIC_LIMITS.requests; i++) {
      expect((await t.get("/dashboard/style.css")).status).toBe(200);
      clock.advance(100);
    }
    const refused = await t.get("/dashboard/style.css");
    const message = await expectError(refused, 429, "RATE_LIMITED");
    expect(message).toContain(`at most ${STATIC_LIMITS.requests} requests a minute`);
    // The first request leaves the window 60 s after it: 30 s have passed.
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await t.request("/dashboard/style.css", { ip: "198.51.100.1" })).status).toBe(200);
    // Its REST budget is whole.
    expect((await t.get("/pool/stats")).headers.get("ratelimit-remaining")).toBe("99");
    clock.advance(30_000);
    expect((await t.get("/dashboard/style.css")).status).toBe(200);
  }, 60_000);

  it("bounds the bytes: Swagger UI's 1.7 MB bundle pulled again and again is refused past 64 MiB a minute, 304 revalidations cost no bytes", async () => {
    const clock = new FakeClock();
    const t = buildApp(handle.db, { clock });
    const path = "/docs/assets/swagger-ui-bundle.js";
    const first = await t.get(path);
    const size = (await first.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(1_000_000);
    const etag = first.headers.get("etag")!;
    // Revalidations send no body: far more of them than the byte budget would allow in bodies.
    for (let i = 0; i < 100; i++) expect((await t.get(path, { "If-None-Match": etag })).status).toBe(304);
    // Whole answers until the bucket passes its top (it may go past by one answer), then 429.
    const fits = Math.ceil((STATIC_LIMITS.bytes - size) / size);
    for (let i = 0; i < fits; i++) expect((await t.get(path)).status, `answer ${i + 2}`).toBe(200);
    const refused = await t.get(path);
    expect(await expectError(refused, 429, "RATE_LIMITED")).toContain("MiB a minute");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another client is not affected; this one is served again once the bucket has drained that long.
    expect((await t.request(path, { ip: "198.51.100.2" })).status).toBe(200);
    clock.advance(retryAfter * 1000);
    expect((await t.get(path)).status).toBe(200);
  }, 60_000);
});
