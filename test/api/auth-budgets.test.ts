/**
 * Issue 38, finding 3: sign-in lockout and registration budgets against a hash flood.
 * - Only a wrong password counts toward the failed-login lockout: a login refused because the
 *   hash queue is full (someone else's flood) does not lock its user out.
 * - One client key (and one IPv6 /48) holds only its share of the hash queue.
 * - Registrations: 10 an hour per client key, 30 per IPv6 /48, 429 with Retry-After before hashing.
 */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeDb, services } from "../support/db.js";
import { RedisRateLimitStore } from "../../api/rate-limit/redis-store.js";
import { HASH_CONCURRENCY, HASH_PER_CLIENT, HASH_QUEUE, hashPassword } from "../../api/auth/password.js";
import { LOGIN_LIMITS, REGISTER_LIMITS, SIGNIN_LIMITS } from "../../api/routes/auth.js";
import type { RateLimitStore } from "../../api/rate-limit/store.js";
import { buildApp, expectError } from "../support/app.js";

const password = "correct horse battery";
type App = ReturnType<typeof buildApp>;

const send = (t: App, path: string, body: unknown, ip: string) =>
  t.request(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" }, ip });
const register = (t: App, email: string, ip = "203.0.113.7") => send(t, "/auth/register", { email, password }, ip);
const login = (t: App, email: string, pw: string, ip = "203.0.113.7") => send(t, "/auth/login", { email, password: pw }, ip);

describeDb("sign-in budgets", (ctx) => {
  it("a login refused as busy (503) while others flood the hash queue does not count toward the lockout", async () => {
    const t = buildApp(ctx.db);
    expect((await register(t, "victim@example.com")).status).toBe(200);
    // Other clients fill every running slot and waiting place, each within its share.
    const storm = Promise.allSettled(Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE }, (_, i) => hashPassword(`flood ${i}`, `198.18.${i >> 3}.${i & 7}`)));
    // The victim tries six times with the right password meanwhile: "busy", each time.
    for (let i = 0; i < 6; i++) {
      const res = await login(t, "victim@example.com", password);
      expect(res.headers.get("retry-after")).toBe("1");
      await expectError(res, 503, "SERVICE_UNAVAILABLE");
    }
    await storm;
    // Before the fix the five 503s were five failed attempts: 429 for 15 min.
    expect((await login(t, "victim@example.com", password)).status).toBe(200);
    // A wrong password still counts: five of them, and even the right one is refused.
    for (let i = 0; i < 5; i++) await expectError(await login(t, "victim@example.com", "wrong password"), 401, "INVALID_CREDENTIALS");
    await expectError(await login(t, "victim@example.com", password), 429, "RATE_LIMITED");
  }, 30_000);

  it("one client's burst of sign-ups holds 6 hashing places: the rest get 503 at once (not counted), and another client still signs up", async () => {
    const t = buildApp(ctx.db);
    const burst = Array.from({ length: 10 }, (_, i) => register(t, `burst${i}@example.com`, "198.51.100.66"));
    const bystander = register(t, "bystander@example.com", "203.0.113.9");
    const read = async (r: Response) => ({ status: r.status, retryAfter: r.headers.get("retry-after"), body: await r.text() });
    const answers = await Promise.all((await Promise.all(burst)).map(read));
    // Its share: the four past it refused at once, "from your address".
    const refused = answers.filter((a) => a.status === 503 && /from your address/.test(a.body));
    expect(refused).toHaveLength(10 - HASH_PER_CLIENT);
    expect(refused[0]!.retryAfter).toBe("1");
    expect(JSON.parse(refused[0]!.body)).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
    // The six it holds are hashed two at a time: each signs up, or, on a machine so loaded that its
    // turn comes after HASH_WAIT_MS, is refused by the queue's own rule (a 503 of no address).
    const held = answers.filter((a) => !refused.includes(a));
    expect(held.every((a) => a.status === 200 || (a.status === 503 && !/from your/.test(a.body)))).toBe(true);
    const signedUp = held.filter((a) => a.status === 200).length;
    expect(signedUp).toBeGreaterThan(0);
    // Another client is not refused for this one's share (it waits its turn with the six).
    const other = await read(await bystander);
    expect(other.body).not.toMatch(/from your/);
    if (other.status !== 200) expect((await register(t, "bystander@example.com", "203.0.113.9")).status).toBe(200);
    // Nothing refused was charged to its budget of 10: the rest get through, then 429.
    for (let i = signedUp; i < 10; i++) expect((await register(t, `later${i}@example.com`, "198.51.100.66")).status).toBe(200);
    await expectError(await register(t, "one-too-many@example.com", "198.51.100.66"), 429, "RATE_LIMITED");
  }, 60_000);

  it("10 registrations an hour per client key (EMAIL_TAKEN counts, a refused body does not): then 429 with Retry-After, checked before hashing", async () => {
    expect(REGISTER_LIMITS).toEqual({ windowMs: 3_600_000, perClient: 10, perPrefix: 30 });
    const t = buildApp(ctx.db);
    await expectError(await send(t, "/auth/register", { email: "bad", password }, "203.0.113.7"), 400, "VALIDATION_ERROR");
    for (let i = 0; i < 9; i++) expect((await register(t, `user${i}@example.com`)).status).toBe(200);
    await expectError(await register(t, "user0@example.com"), 409, "EMAIL_TAKEN"); // the tenth
    // Checked before hashing: with this client's hashing share full, it is 429, not 503 "busy".
    // The share is taken when the hashes are asked for; how they end does not matter here (on a
    // loaded machine the last ones wait past HASH_WAIT_MS and are refused 503, the queue's rule).
    const share = Promise.allSettled(Array.from({ length: HASH_PER_CLIENT }, (_, i) => hashPassword(`held ${i}`, "203.0.113.7")));
    const limited = await register(t, "user10@example.com");
    await share;
    expect(limited.headers.get("retry-after")).toBe("3600");
    expect(await expectError(limited, 429, "RATE_LIMITED")).toMatch(/Too many registrations from this client; retry after 3600 s/);
    // Nothing was made, and other clients are not affected.
    await expectError(await login(t, "user10@example.com", password), 401, "INVALID_CREDENTIALS");
    expect((await register(t, "other@example.com", "198.51.100.9")).status).toBe(200);
    // The window slides: an hour later the client may register again.
    t.clock.advance(3_600_000);
    expect((await register(t, "user10@example.com")).status).toBe(200);
  }, 30_000);

  it("30 registrations an hour per IPv6 /48 over all its /64s; another /48 is not affected", async () => {
    const t = buildApp(ctx.db);
    // Three /64s of one /48, ten each (one at a time per /64, the three side by side).
    await Promise.all(
      [1, 2, 3].map(async (n) => {
        for (let i = 0; i < 10; i++) expect((await register(t, `site${n}-${i}@example.com`, `2001:db8:7:${n}::1`)).status).toBe(200);
      }),
    );
    // A fourth /64 of the same /48 has used none of its own ten, and is refused by the /48's.
    const limited = await register(t, "site4@example.com", "2001:db8:7:4::1");
    expect(limited.headers.get("retry-after")).toBe("3600");
    expect(await expectError(limited, 429, "RATE_LIMITED")).toMatch(/network \(IPv6 \/48\)/);
    expect((await register(t, "elsewhere@example.com", "2001:db8:8:1::1")).status).toBe(200);
  }, 30_000);

  it.skipIf(!services.redisUrl)(`the registration budget is shared by the replicas on Redis${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
    const store = new RedisRateLimitStore(services.redisUrl as string, `tokenpool-test-${randomUUID()}`);
    await store.ready();
    try {
      // Two API replicas, one Redis: five accounts on each, then the client is refused on both.
      const [a, b] = [buildApp(ctx.db, { loginStore: store }), buildApp(ctx.db, { loginStore: store })];
      for (let i = 0; i < 10; i++) expect((await register(i % 2 ? a : b, `shared${i}@example.com`)).status).toBe(200);
      for (const t of [a, b]) {
        const limited = await register(t, "shared10@example.com");
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(3_500);
        await expectError(limited, 429, "RATE_LIMITED");
      }
    } finally {
      await store.close();
    }
  }, 30_000);

  it("sign-ins of any outcome: 10 a minute per client key, 30 per IPv6 /48 — correct passwords in a loop no longer hold the hash queue for free", async () => {
    expect(SIGNIN_LIMITS).toEqual({ windowMs: 60_000, perClient: 10, perPrefix: 30 });
    const t = buildApp(ctx.db);
    expect((await register(t, "looper@example.com", "198.51.100.20")).status).toBe(200);
    // Ten correct sign-ins pass; the eleventh, correct too, is refused before it is hashed.
    // HASH_CONCURRENCY at a time, so that none waits for a hashing slot: on a loaded machine a
    // wait past HASH_WAIT_MS is a 503, which is the queue's rule, not this budget's.
    for (let i = 0; i < 10; i += HASH_CONCURRENCY) {
      const size = Math.min(HASH_CONCURRENCY, 10 - i);
      const batch = await Promise.all(Array.from({ length: size }, () => login(t, "looper@example.com", password, "198.51.100.21")));
      expect(batch.map((r) => r.status)).toEqual(Array(size).fill(200));
    }
    const limited = await login(t, "looper@example.com", password, "198.51.100.21");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(50);
    expect(await expectError(limited, 429, "RATE_LIMITED")).toMatch(/Too many sign-ins from this client/);
    // Another client signs in; a minute later this one may again.
    expect((await login(t, "looper@example.com", password, "198.51.100.22")).status).toBe(200);
    t.clock.advance(60_000);
    expect((await login(t, "looper@example.com", password, "198.51.100.21")).status).toBe(200);
    // Fresh /64s of one /48 share its 30: the 31st is refused whichever /64 sends it.
    for (let i = 0; i < 30; i += HASH_CONCURRENCY) {
      const size = Math.min(HASH_CONCURRENCY, 30 - i);
      const batch = await Promise.all(Array.from({ length: size }, (_, j) => login(t, "looper@example.com", password, `2001:db8:9:${(i + j).toString(16)}::1`)));
      expect(batch.map((r) => r.status)).toEqual(Array(size).fill(200));
    }
    expect(await expectError(await login(t, "looper@example.com", password, "2001:db8:9:ff::1"), 429, "RATE_LIMITED")).toMatch(/network \(IPv6 \/48\)/);
    expect((await login(t, "looper@example.com", password, "2001:db8:a:1::1")).status).toBe(200);
  }, 90_000);

  it("with the shared counter store down, the sign-in budgets are kept in the process: a locked email stays locked", async () => {
    const down: RateLimitStore = {
      hit: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
      undo: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
      close: () => Promise.resolve(),
    };
    const t = buildApp(ctx.db, { loginStore: down });
    expect((await register(t, "target@example.com", "198.51.100.30")).status).toBe(200);
    for (let i = 0; i < LOGIN_LIMITS.perEmailAndClient; i++) await expectError(await login(t, "target@example.com", `guess ${i}`, "198.51.100.31"), 401, "INVALID_CREDENTIALS");
    // Before: every store error let the attempt through (60 guesses in 5 s, all 401).
    const locked = await login(t, "target@example.com", "guess 5", "198.51.100.31");
    await expectError(locked, 429, "RATE_LIMITED");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    // The right password from elsewhere still works: the fallback counts per client, as the store does.
    expect((await login(t, "target@example.com", password, "198.51.100.32")).status).toBe(200);
  }, 30_000);
});
