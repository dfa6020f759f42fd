import { sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { expect, it } from "vitest";
import { describeDb } from "../support/db.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { HASH_CONCURRENCY, HASH_QUEUE, HASH_WAIT_MS } from "../../api/auth/password.js";
import { authHeader, buildApp, expectError, TEST_SECRET } from "../support/app.js";
import { TEN, seedMarket } from "../support/fixtures.js";

const password = "correct horse battery";

function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString("utf8"));
}

describeDb("auth", (ctx) => {
  it("registers a user and answers the spec's envelope with a 24 h token", async () => {
    const t = buildApp(ctx.db);
    const res = await t.post("/auth/register", { email: "  Ada@Example.com ", password, name: "Ada" });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body).toEqual({
      success: true,
      message: expect.any(String),
      data: { userId: expect.stringMatching(/^[0-9a-f-]{36}$/), token: expect.any(String), expiresIn: 86400 },
    });
    const claims = decodeJwt(body.data.token);
    expect(claims.sub).toBe(body.data.userId);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(86400);
    expect(claims.iat).toBe(Math.floor(t.clock.ms / 1000));
  });

  it("logs in with the normalized email and returns token + expiresIn", async () => {
    const t = buildApp(ctx.db);
    await t.post("/auth/register", { email: "ada@example.com", password });
    const res = await t.post("/auth/login", { email: "ADA@example.com", password });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body).toEqual({ success: true, data: { token: expect.any(String), expiresIn: 86400 } });
    const meta = await t.get(`/assets/metadata/${TEN}`, { Authorization: `Bearer ${body.data.token}` });
    expect(meta.status).toBe(404); // authorised; the store is empty
    await expectError(meta, 404, "TOKEN_NOT_FOUND");
  });

  it("stores a scrypt hash, never the password", async () => {
    const t = buildApp(ctx.db);
    await t.post("/auth/register", { email: "ada@example.com", password });
    const rows = await ctx.db.execute(sql`select password_hash from users`);
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { password_hash: string }[];
    expect(list).toHaveLength(1);
    expect(list[0]?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(list[0]?.password_hash).not.toContain(password);
  });

  it("answers 409 EMAIL_TAKEN for a duplicate email, in any case", async () => {
    const t = buildApp(ctx.db);
    expect((await t.post("/auth/register", { email: "ada@example.com", password })).status).toBe(200);
    await expectError(await t.post("/auth/register", { email: "ADA@example.com", password: "another password" }), 409, "EMAIL_TAKEN");
  });

  it("rejects bad registrations with VALIDATION_ERROR naming the field, and creates nothing", async () => {
    const t = buildApp(ctx.db);
    const cases: [unknown, string][] = [
      [{ email: "not-an-email", password }, "email"],
      [{ email: "a@example.com", password: "short" }, "password"],
      [{ email: "a@example.com", password: "x".repeat(129) }, "password"],
      [{ email: "a@example.com", password, name: "" }, "name"],
      [{ email: "a@example.com", password, name: "n".repeat(65) }, "name"],
      [{ password }, "email"],
      [{ email: "a@example.com" }, "password"],
      [{ email: 42, password }, "email"],
    ];
    for (const [body, field] of cases) {
      const message = await expectError(await t.post("/auth/register", body), 400, "VALIDATION_ERROR");
      expect(message).toContain(`"${field}"`);
    }
    await expectError(await t.post("/auth/register", ["not", "an", "object"]), 400, "VALIDATION_ERROR");
    const login = await t.post("/auth/login", { email: "a@example.com", password });
    await expectError(login, 401, "INVALID_CREDENTIALS");
  });

  it("answers wrong password and unknown email with the same 401 and similar timing", async () => {
    const t = buildApp(ctx.db);
    await t.post("/auth/register", { email: "ada@example.com", password });
    await t.post("/auth/login", { email: "warm@example.com", password }); // warm the decoy hash
    const time = async (email: string) => {
      const start = performance.now();
      const res = await t.post("/auth/login", { email, password: "wrong password" });
      const ms = performance.now() - start;
      return { ms, message: await expectError(res, 401, "INVALID_CREDENTIALS") };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    let messages = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const a = await time("ada@example.com");
      const b = await time("nobody@example.com");
      known.push(a.ms);
      unknown.push(b.ms);
      messages = new Set([...messages, a.message, b.message]);
    }
    expect(messages.size).toBe(1);
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1] as number;
    // Both paths run one scrypt verification; without the decoy the unknown email would take ~0 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    expect(median(known)).toBeGreaterThan(median(unknown) * 0.4);
  });

  it("requires a valid bearer token on /assets/*", async () => {
    const t = buildApp(ctx.db);
    await seedMarket(ctx.db);
    const auth = await authHeader(t);
    expect((await t.get(`/assets/metadata/${TEN}`, auth)).status).toBe(200);
    expect((await t.get(`/assets/holders/${TEN}`, auth)).status).toBe(200);

    const valid = (auth.Authorization as string).slice("Bearer ".length);
    const [h, p, s] = valid.split(".") as [string, string, string];
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${p}.`;
    const otherKey = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject("x").setIssuedAt().setExpirationTime("1h").sign(new TextEncoder().encode("another-secret-another-secret-another"));
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...decodeJwt(valid), sub: "someone-else" })).toString("base64url")}.${s}`;
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject("x").setIssuedAt().sign(new TextEncoder().encode(TEST_SECRET));
    const bad: (Record<string, string> | undefined)[] = [
      undefined,
      { Authorization: "" },
      { Authorization: valid },
      { Authorization: `Basic ${valid}` },
      { Authorization: "Bearer" },
      { Authorization: "Bearer not-a-jwt" },
      { Authorization: `Bearer ${none}` },
      { Authorization: `Bearer ${otherKey}` },
      { Authorization: `Bearer ${tampered}` },
      { Authorization: `Bearer ${noExp}` },
    ];
    for (const headers of bad) {
      for (const path of [`/assets/metadata/${TEN}`, `/assets/holders/${TEN}`]) {
        const message = await expectError(await t.get(path, headers), 401, "UNAUTHORIZED");
        expect(message).toMatch(/invalid or expired|Missing access token/);
      }
    }
  });

  it("expires tokens exactly 24 h after issue (fake clock)", async () => {
    const t = buildApp(ctx.db);
    await seedMarket(ctx.db);
    const auth = await authHeader(t);
    t.clock.advance(86_400_000 - 1_000);
    expect((await t.get(`/assets/metadata/${TEN}`, auth)).status).toBe(200);
    t.clock.advance(1_000);
    const message = await expectError(await t.get(`/assets/metadata/${TEN}`, auth), 401, "UNAUTHORIZED");
    expect(message).toContain("invalid or expired");
    // A fresh login gives a new working token.
    const login = await t.post("/auth/login", { email: "reader@example.com", password });
    const { data }: any = await login.json();
    expect((await t.get(`/assets/metadata/${TEN}`, { Authorization: `Bearer ${data.token}` })).status).toBe(200);
  });

  it("keeps public routes public, but rejects a bad token wherever one is sent", async () => {
    const t = buildApp(ctx.db);
    await seedMarket(ctx.db);
    expect((await t.get("/pool/stats")).status).toBe(200);
    expect((await t.get("/oracle/value/0")).status).toBe(200);
    await expectError(await t.get("/pool/stats", { Authorization: "Bearer a.b.c" }), 401, "UNAUTHORIZED");
    await expectError(await t.get("/oracle/value/0", { Authorization: "Bearer a.b.c" }), 401, "UNAUTHORIZED");
  });
});

describeDb("login limits", (ctx) => {
  const login = (t: ReturnType<typeof buildApp>, email: string, pw: string, ip = "203.0.113.7") =>
    t.request("/auth/login", { method: "POST", body: JSON.stringify({ email, password: pw }), headers: { "Content-Type": "application/json" }, ip });

  it("5 failed logins per email and client per 15 min, 20 per client; 429 with Retry-After; success does not count", async () => {
    const t = buildApp(ctx.db);
    await t.post("/auth/register", { email: "victim@example.com", password });
    // Successful logins never use the budget.
    for (let i = 0; i < 8; i++) expect((await login(t, "victim@example.com", password)).status).toBe(200);
    // (Sign-ins of any outcome are 10 a minute per client, SIGNIN_LIMITS: the minutes pass between batches.)
    t.clock.advance(60_000);
    for (let i = 0; i < 5; i++) await expectError(await login(t, "victim@example.com", "wrong password"), 401, "INVALID_CREDENTIALS");
    const limited = await login(t, "victim@example.com", password); // even the right password now
    expect(limited.headers.get("retry-after")).toBe("900");
    expect(await expectError(limited, 429, "RATE_LIMITED")).toMatch(/this email from this client/);
    // Another client may still try that email; this client may try other emails.
    expect((await login(t, "victim@example.com", password, "198.51.100.9")).status).toBe(200);
    for (let i = 0; i < 15; i++) {
      if (i % 5 === 0) t.clock.advance(60_000);
      await expectError(await login(t, `other${i}@example.com`, "x"), 401, "INVALID_CREDENTIALS");
    }
    expect(await expectError(await login(t, "someone@example.com", "x"), 429, "RATE_LIMITED")).toMatch(/from this client/);
    // IPv6 clients by /64: another address of the same prefix is the same client.
    for (let i = 0; i < 5; i++) await login(t, "victim@example.com", "nope", `2001:db8:7::${i + 1}`);
    await expectError(await login(t, "victim@example.com", password, "2001:db8:7::ffff"), 429, "RATE_LIMITED");
    // The window slides: 15 min later the first client can try again.
    t.clock.advance(15 * 60_000 + 1);
    expect((await login(t, "victim@example.com", password)).status).toBe(200);
  });

  it("RATE_LIMIT_MAX=0 turns off the request limit only: failed logins are still throttled", async () => {
    const t = buildApp(ctx.db, { rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 } });
    await t.post("/auth/register", { email: "nolimit@example.com", password });
    for (let i = 0; i < 5; i++) await expectError(await login(t, "nolimit@example.com", "wrong password"), 401, "INVALID_CREDENTIALS");
    const limited = await login(t, "nolimit@example.com", password);
    expect(await expectError(limited, 429, "RATE_LIMITED")).toMatch(/this email from this client/);
    // The request limit itself is off: no RateLimit headers on reads.
    expect((await t.request("/pool/stats")).headers.get("ratelimit-limit")).toBeNull();
  });

  it("the lockout lasts its 15 min on the in-memory counters, whatever requests sweep them in between", async () => {
    const t = buildApp(ctx.db); // no Redis: MemoryRateLimitStore
    await t.post("/auth/register", { email: "swept@example.com", password });
    for (let i = 0; i < 5; i++) await expectError(await login(t, "swept@example.com", "wrong password"), 401, "INVALID_CREDENTIALS");
    // Requests in the 60 s window sweep idle keys; the login counters' window is 15 min.
    for (const minutes of [2, 3, 9]) {
      t.clock.advance(minutes * 60_000); // 2, 5, then 14 min after the failures
      expect((await t.request("/pool/stats", { ip: "198.51.100.77" })).status).toBe(200);
      await expectError(await login(t, "swept@example.com", password), 429, "RATE_LIMITED");
    }
    t.clock.advance(60_001);
    expect((await login(t, "swept@example.com", password)).status).toBe(200);
  });

  it("a burst of failed logins in one tick gets no more tries than the limit", async () => {
    const t = buildApp(ctx.db);
    await t.post("/auth/register", { email: "burst@example.com", password });
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(t, "burst@example.com", "wrong password")));
    expect(answers.filter((r) => r.status === 401)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(7);
  });

  it("password hashing is bounded: a login storm neither stalls bearer checks nor queues without bound", async () => {
    await seedMarket(ctx.db);
    const t = buildApp(ctx.db, { rateLimit: { store: new (await import("../../api/rate-limit/memory-store.js")).MemoryRateLimitStore(), max: 100_000, windowMs: 60_000 } });
    const auth = await authHeader(t, "storm@example.com");
    // A bearer-token read during the storm (a token never seen by this app: a full HMAC check),
    // on an app whose route already ran once (its first run's start-up cost is not the storm's),
    // warmed before the storm: its registration hashes a password, which in the storm would wait.
    const fresh = buildApp(ctx.db, { clock: t.clock });
    expect((await fresh.get(`/assets/metadata/${TEN}`, await authHeader(fresh, "warm@example.com"))).status).toBe(200);
    // 60 logins from 60 clients at once: two hash at a time, 32 wait, the rest are refused at once.
    expect(HASH_CONCURRENCY + HASH_QUEUE).toBeLessThan(60);
    const stormStart = performance.now();
    let full!: () => void;
    const refusing = new Promise<void>((r) => (full = r));
    const storm = Array.from({ length: 60 }, (_, i) =>
      login(t, "storm@example.com", "wrong password", `198.18.0.${i + 1}`).then((r) => {
        if (r.status === 503) full();
        return { r, ms: performance.now() - stormStart };
      }),
    );
    // The read once the storm fills the queue (its first refusal), or after it if none comes.
    await Promise.race([refusing, Promise.all(storm)]);
    const started = performance.now();
    const read = await fresh.get(`/assets/metadata/${TEN}`, auth);
    const readMs = performance.now() - started;
    const readEnd = performance.now() - stormStart;
    const timed = await Promise.all(storm);
    const answers = timed.map((x) => x.r);
    // The read is answered, and right: a 500 or 503 here would be the storm starving it.
    expect(read.status).toBe(200);
    expect(((await read.json()) as { tokenId: number; symbol: string })).toMatchObject({ tokenId: TEN, symbol: "TEN" });
    expect(readMs).toBeLessThan(1_000);
    // …and it was answered during the storm: hashes were still being finished after it.
    expect(timed.filter((x) => x.r.status === 401 && x.ms > readEnd).length).toBeGreaterThan(0);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    // The queue has a bound: those beyond it are refused at once, before any waiter's
    // HASH_WAIT_MS can run out (a queue without a bound refuses only by that timeout). Each hash
    // finished meanwhile lets one more wait instead.
    const atOnce = timed.filter((x) => x.r.status === 503 && x.ms < HASH_WAIT_MS);
    const finished = timed.filter((x) => x.r.status === 401 && x.ms < Math.max(...atOnce.map((y) => y.ms))).length;
    expect(atOnce.length).toBeGreaterThanOrEqual(60 - HASH_CONCURRENCY - HASH_QUEUE - finished);
    const busy = answers.find((r) => r.status === 503)!;
    expect(busy.headers.get("retry-after")).toBe("1");
    await expectError(busy, 503, "SERVICE_UNAVAILABLE");
  });
});
