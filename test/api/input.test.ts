/**
 * Text a client sends that no route wants: control characters wherever text enters (paths,
 * queries, bodies, cursors) and query parameters a route does not declare. Each is a 400
 * VALIDATION_ERROR in the error body, changes nothing, and never mints a response-cache key.
 */
import { count } from "drizzle-orm";
import { expect, it } from "vitest";
import { schema } from "../../db/index.js";
import { ResponseCache } from "../../api/middleware/cache.js";
import { describeDb } from "../support/db.js";
import { authHeader, buildApp, expectError } from "../support/app.js";
import { KSM, seedMarket, TEN, USDT } from "../support/fixtures.js";

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

describeDb("hostile input", (ctx) => {
  it("control characters in paths and queries are 400, raw or percent-encoded, never a server error", async () => {
    await seedMarket(ctx.db);
    const t = buildApp(ctx.db);
    const auth = await authHeader(t);
    for (const path of [
      "/pool/stats/%00/1984",
      "/pool/stats/KSM/%1b%5b31m",
      "/oracle/value/1%00",
      "/assets/metadata/%7f",
      "/assets?sort=%00",
      `/oracle/history/${KSM}?from=1%0A`,
      "/pools?order=%0d%0aSet-Cookie:x",
    ]) {
      const message = await expectError(await t.get(path, auth), 400, "VALIDATION_ERROR");
      expect(message, path).toMatch(/control characters/);
    }
    expect(await expectError(await t.get("/pool/stats/%E0%A4%A/1984"), 400, "VALIDATION_ERROR")).toMatch(/percent-encoding/);
  });

  it("a cursor that decodes to control characters (or anything but an address) is 400", async () => {
    await seedMarket(ctx.db);
    const t = buildApp(ctx.db);
    const auth = await authHeader(t);
    for (const cursor of [b64(["1", "\u0000", 0]), b64(["1", "a b", 0]), b64(["1", "\u001b[2J", 3]), b64(["1", "é", 1])]) {
      expect(await expectError(await t.get(`/assets/holders/${TEN}?cursor=${cursor}`, auth), 400, "VALIDATION_ERROR")).toMatch(/cursor/);
    }
  });

  it("control characters in body fields are 400 and create nothing", async () => {
    const t = buildApp(ctx.db);
    const users = async () => (await ctx.db.select({ n: count() }).from(schema.users))[0]!.n;
    for (const body of [
      { email: "nul@example.com", password: "correct horse battery", name: "a\u0000b" },
      { email: "esc@example.com", password: "correct horse\u001b battery" },
      { email: "nul\u0000@example.com", password: "correct horse battery" },
      { "e\u0000mail": "key@example.com", password: "correct horse battery" },
    ]) {
      expect(await expectError(await t.post("/auth/register", body), 400, "VALIDATION_ERROR")).toMatch(/control characters/);
    }
    expect(await users()).toBe(0);
    await expectError(await t.post("/auth/login", { email: "x@example.com", password: "a\u0007" }), 400, "VALIDATION_ERROR");
    // Unpaired surrogates (all encoded as U+FFFD, so they were one password): 400, raw JSON escapes.
    for (const pw of ["abcdefgh\\ud800", "abcdefgh\\udfff", "\\udc00abcdefgh"]) {
      const res = await t.request("/auth/register", { method: "POST", body: `{"email":"sur@example.com","password":"${pw}"}`, headers: { "Content-Type": "application/json" } });
      expect(await expectError(res, 400, "VALIDATION_ERROR")).toMatch(/unpaired surrogates/);
    }
    expect(await users()).toBe(0);
    // Printable non-ASCII text is fine.
    expect((await t.post("/auth/register", { email: "ok@example.com", password: "pässwörd ünïcödé", name: "Zoë 🚀" })).status).toBe(200);
  });

  it("a body nested 8,000 deep (it fits in 16 KiB) is a 400, not a stack overflow", async () => {
    const t = buildApp(ctx.db);
    for (const path of ["/auth/register", "/auth/login"]) {
      for (const body of ["[".repeat(8_000) + "]".repeat(8_000), '{"a":'.repeat(2_000) + "1" + "}".repeat(2_000)]) {
        const res = await t.request(path, { method: "POST", body, headers: { "Content-Type": "application/json" } });
        expect(await expectError(res, 400, "VALIDATION_ERROR")).toMatch(/nests deeper than 32 levels/);
      }
    }
  });

  it("the depth limit is exact: a body 32 levels deep is read, 33 is refused", async () => {
    const t = buildApp(ctx.db);
    const post = (body: string) => t.request("/auth/register", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n - 1) + "{}" + "}".repeat(n - 1);
    for (const nested of [arrays, objects]) {
      expect(await expectError(await post(nested(33)), 400, "VALIDATION_ERROR"), nested.name).toMatch(/nests deeper than 32 levels/);
      // 32 levels pass the depth check; the route's schema then refuses the body for what it is.
      expect(await expectError(await post(nested(32)), 400, "VALIDATION_ERROR"), nested.name).not.toMatch(/nests deeper/);
    }
  });

  it("unknown or repeated query parameters are 400 on every route, and never reach the response cache", async () => {
    await seedMarket(ctx.db);
    const cache = new ResponseCache();
    const t = buildApp(ctx.db, { cache });
    const auth = await authHeader(t);
    const cases: [string, RegExp][] = [
      ["/assets?n=1", /"n" on GET \/assets: it accepts page, limit, order, sort/],
      ["/pool/stats?x=", /it takes no query parameters/],
      [`/pool/stats/KSM/${USDT}?cachebuster=2`, /"cachebuster"/],
      [`/oracle/value/${KSM}?t=1`, /"t"/],
      [`/oracle/history/${KSM}?interval=60&interval=120`, /"interval" is given more than once/],
      [`/assets/metadata/${USDT}?a`, /"a"/],
      [`/assets/holders/${TEN}?limit=5&page=1&extra=1`, /it accepts page, limit, cursor/],
      ["/pools?sort=tvl&junk=1", /"junk"/],
      ["/health?verbose=1", /"verbose"/],
      ["/openapi.json?v=2", /"v"/],
      // Percent-encoded paths are the same routes (they skipped the check when matched raw).
      ["/p%6Fol/stats?x=1", /"x" on GET \/pool\/stats/],
      [`/%6Fracle/value/${KSM}?foo=bar&foo=baz`, /"foo"/],
      ["/assets?limit=050", /"limit": must be an integer from 1 to/],
    ];
    for (const [path, message] of cases) {
      expect(await expectError(await t.get(path, auth), 400, "VALIDATION_ERROR"), path).toMatch(message);
    }
    expect(await expectError(await t.post("/auth/login?debug=1", { email: "a@example.com", password: "x" }), 400, "VALIDATION_ERROR")).toMatch(/"debug"/);
    // Only well-formed reads were computed and kept, one entry per request whatever its spelling.
    const misses = cache.misses;
    const first = await t.get("/assets?limit=2&sort=id", auth);
    expect(first.status).toBe(200);
    const body = await first.text();
    for (const spelling of ["/assets?limit=2&sort=id&", "/assets?&sort=id&&limit=2", "/%61ssets?li%6Dit=2&sort=%69d"]) {
      const res = await t.get(spelling, auth);
      expect(res.status, spelling).toBe(200);
      expect(await res.text()).toBe(body);
    }
    expect(cache.misses - misses).toBe(1);
  });
});
