/**
 * Security-review fixes of the API:
 * - the request log writes paths scrubbed (tokens, emails, password hashes, long blobs) and cut;
 * - a client that aborts its request body is a client abort (debug log, 499), not a store outage;
 * - request-limit keys are only ever addresses (X-Forwarded-For `ip:port` and `[ipv6]:port`
 *   parsed; anything else never a key), so no request can name a login-failure counter.
 */
import { createHash, randomUUID } from "node:crypto";
import net from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLog } from "../support/log.js";
import { createApp } from "../../api/app.js";
import { CLIENT_CLOSED_REQUEST, handleError, isClientAbort, isUnavailable } from "../../api/errors.js";
import { clientAddress, clientKey, parseForwarded } from "../../api/middleware/client-ip.js";
import { LOGGED_PATH_MAX, loggedPath } from "../../api/middleware/request-log.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { RedisRateLimitStore } from "../../api/rate-limit/redis-store.js";
import type { RateLimitStore } from "../../api/rate-limit/store.js";
import { type DbHandle } from "../../db/index.js";
import { ApiMetrics } from "../../shared/metrics.js";
import { authHeader, buildApp, expectError, TEST_SECRET } from "../support/app.js";
import { memoryStore, services } from "../support/db.js";
import { until } from "../support/wait.js";

let handle: DbHandle;
async function db() {
  if (!handle) {
    handle = await memoryStore();
  }
  return handle.db;
}
afterAll(() => handle?.close());

const capture = captureLog;

describe("request log: paths are scrubbed and cut", () => {
  it("never writes a token, an email, a password hash or a long secret from the path", async () => {
    const log = capture();
    const t = buildApp(await db(), { logger: log.logger });
    const token = (await authHeader(t, "log-owner@example.com")).Authorization!.slice("Bearer ".length);
    const blob = "Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE0uI-_Xo"; // 39 base64url characters
    const hex = "9f".repeat(24);
    const hash = "scrypt$32768$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo/bW9yZQ";
    const paths = [
      `/assets/metadata/${token}`,
      "/pool/stats/victim@example.com/KSM",
      "/pool/stats/victim%40example.com/KSM", // percent-encoded: Hono's path keeps %40
      "/pool/stats/victim%2540example.com/KSM", // and encoded twice
      `/x/${hash}`,
      `/x/${blob}/y`,
      `/x/${hex}`,
      `/x/Bearer%20${token}`,
    ];
    for (const path of paths) await t.get(path);
    const logged = log.records().filter((r) => r.msg === "request").map((r) => r.path as string).slice(1); // after the register
    const text = log.text();
    for (const secret of [token, token.split(".")[2]!, "victim@example.com", "victim%40example.com", "victim%2540example.com", "victim", "scrypt$", "c2FsdHNhbHQ", "aGFzaGhhc2hoYXNo", "bW9yZQ", blob, hex]) {
      expect(text.includes(secret), `the log contains ${secret}`).toBe(false);
    }
    // What is left still says which route was asked for.
    expect(logged).toEqual(["/assets/metadata/[token]", "/pool/stats/[email]/KSM", "/pool/stats/[email]/KSM", "/pool/stats/[email]/KSM", "/x/[hash]", "/x/[blob]/y", "/x/[blob]", "/x/Bearer [token]"]);
  });

  it("cuts a long path to 200 characters, and keeps ordinary paths as they are", async () => {
    const log = capture();
    const t = buildApp(await db(), { logger: log.logger });
    await t.get(`/x/${"a/".repeat(4_000)}`);
    await t.get("/pool/stats/KSM/USDt");
    const [long, plain] = log.records().filter((r) => r.msg === "request").map((r) => r.path as string);
    expect(long!.length).toBeLessThanOrEqual(LOGGED_PATH_MAX);
    expect(long!.endsWith("…")).toBe(true);
    expect(plain).toBe("/pool/stats/KSM/USDt");
    expect(loggedPath("/accounts/5GrwvaEF5zXb")).toBe("/accounts/5GrwvaEF5zXb");
    expect(loggedPath("/oracle/history/1984")).toBe("/oracle/history/1984");
    expect(loggedPath("/x/%E0%A4%A")).toBe("/x/%E0%A4%A"); // undecodable escapes stay as they are
    // A token split over segments short enough to look like none (attack review, issue 25).
    const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsImV4cCI6MTc5NTAwMDAwMH0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
    for (const size of [10, 15, 30, 60]) {
      const split = jwt.match(new RegExp(`.{1,${size}}`, "g"))!.join("/");
      const logged = loggedPath(`/x/${split}`);
      expect(logged, `split every ${size}`).toBe("/x/[token]");
    }
    // Without its `eyJ`, a split secret leaves no run of 16 characters either.
    expect(loggedPath("/x/c2lnbmF0dXJlLW9m/LXRoZS10b2tlbg")).toBe("/x/[blob]/LXRoZS10b2tlbg");
  });

  it("scrubs the path of the error log lines too", async () => {
    const log = capture();
    const app = new Hono();
    app.get("/boom/*", () => {
      throw Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    });
    app.get("/bug/*", () => {
      throw new Error("a bug");
    });
    app.onError(handleError(log.logger));
    expect((await app.request("/boom/victim@example.com")).status).toBe(503);
    expect((await app.request("/bug/victim@example.com")).status).toBe(500);
    expect(log.text()).not.toContain("victim");
    expect(log.records().map((r) => r.path)).toEqual(["/boom/[email]", "/bug/[email]"]);
  });
});

describe("a client aborting its request body", () => {
  const log = capture();
  const metrics = new ApiMetrics();
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    const app = createApp({ metrics, db: await db(), ping: async () => {}, jwtSecret: TEST_SECRET, rateLimit: { store: new MemoryRateLimitStore(), max: 100, windowMs: 60_000 }, trustProxy: 0, logger: log.logger });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

  /**
   * Sends the start of a request (with Expect: 100-continue), waits for the server's 100 — it is
   * written as the request is handed to the app, so the abort below lands on a request in flight —
   * then closes the connection; resolves once it is logged.
   */
  async function abandon(head: string): Promise<Record<string, any>> {
    const before = log.records().filter((r) => r.msg === "request").length;
    let answer = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(head.replace("\r\n", "\r\nExpect: 100-continue\r\n")));
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("error", () => {});
    await until("the server's 100 Continue", () => answer.startsWith("HTTP/1.1 100 Continue\r\n\r\n"), 5_000);
    socket.destroy();
    const deadline = Date.now() + 5_000;
    for (;;) {
      const requests = log.records().filter((r) => r.msg === "request");
      if (requests.length > before) return requests[requests.length - 1]!;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it("is logged at debug as a client abort, never as a store outage or an error, and counted as 499, not 503", async () => {
    const chunked = await abandon('POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ema\r\n');
    expect(chunked.status).toBe(CLIENT_CLOSED_REQUEST);
    // With a Content-Length the body reader itself reports it (not an outage either).
    const sized = await abandon('POST /auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ema');
    expect(sized.status).toBeLessThan(500);
    const records = log.records();
    expect(records.filter((r) => r.level >= 40)).toEqual([]);
    expect(log.text()).not.toContain("store unavailable");
    expect(records.find((r) => r.msg === "client aborted the request")).toMatchObject({ level: 20, method: "POST", path: "/auth/login", code: "ECONNRESET" });
    const counted = await metrics.registry.getSingleMetricAsString("tokenpool_http_requests_total");
    expect(counted).toContain(`status="${CLIENT_CLOSED_REQUEST}"`);
    expect(counted).not.toMatch(/status="5\d\d"/);
    // The server is fine.
    expect((await fetch(`http://127.0.0.1:${port}/pool/stats`)).status).toBe(200);
  });

  it("tells the client's stream error from a store's: the store's ECONNRESET is still unavailable (503)", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" }); // node:_http_server abortIncoming
    const closed = new Error("Client connection prematurely closed."); // @hono/node-server's body reader
    const storeReset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", errno: -104, syscall: "read" });
    expect(isUnavailable(aborted)).toBe(false);
    expect(isUnavailable(new Error("Failed query", { cause: aborted }))).toBe(false);
    expect(isClientAbort(aborted)).toBe(true);
    expect(isClientAbort(closed)).toBe(true);
    expect(isUnavailable(storeReset)).toBe(true);
    expect(isClientAbort(storeReset)).toBe(false);
    expect(isUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isUnavailable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    // An abort error counts as the client's only once the request's signal says the client left.
    const abortError = Object.assign(new Error("This operation was aborted"), { name: "AbortError", code: "ABORT_ERR" });
    expect(isClientAbort(abortError)).toBe(false);
    expect(isClientAbort(abortError, AbortSignal.abort())).toBe(true);

    const log = capture();
    const app = new Hono();
    app.get("/store", () => {
      throw storeReset;
    });
    app.get("/client", () => {
      throw aborted;
    });
    app.onError(handleError(log.logger));
    const store = await app.request("/store");
    expect(store.headers.get("retry-after")).toBe("5");
    await expectError(store, 503, "SERVICE_UNAVAILABLE");
    expect((await app.request("/client")).status).toBe(CLIENT_CLOSED_REQUEST);
    expect(log.records().map((r) => [r.level, r.msg])).toEqual([
      [40, "store unavailable"],
      [20, "client aborted the request"],
    ]);
  });
});

describe("client keys behind a proxy (TRUST_PROXY)", () => {
  it("parses IPv4, IPv6, ipv4:port and [ipv6]:port entries; IPv6 by its /64", () => {
    expect(clientAddress("10.0.0.1", "5.6.7.8:1234", 1)).toBe("5.6.7.8");
    expect(clientAddress("10.0.0.1", "5.6.7.8", 1)).toBe("5.6.7.8");
    expect(clientAddress("10.0.0.1", "[2001:db8::1]:443", 1)).toBe("2001:db8:0:0::/64");
    expect(clientAddress("10.0.0.1", "[2001:db8::1]", 1)).toBe("2001:db8:0:0::/64");
    expect(clientAddress("10.0.0.1", "2001:db8::ffff:1", 1)).toBe("2001:db8:0:0::/64");
    expect(clientAddress("10.0.0.1", "[::ffff:192.0.2.1]:80", 1)).toBe("192.0.2.1");
    expect(clientAddress("10.0.0.1", "spoofed, 5.6.7.8:1234", 1)).toBe("5.6.7.8");
    expect(clientAddress("10.0.0.1", "1.1.1.1, 5.6.7.8:1234, 10.0.0.2:80", 2)).toBe("5.6.7.8");
    expect(parseForwarded("[1.2.3.4]:80")).toBeUndefined(); // brackets are for IPv6
    expect(parseForwarded("2001:db8::1:443")?.toString()).toBe("2001:db8::1:443"); // an IPv6 address, not a port
  });

  it("never uses an entry that is not an address: the nearest trusted hop to its right, else the socket's peer", () => {
    const hostile = ["login:AAAAAAAAAAAAAAAAAAAAAA:198.51.100.9", "login:198.51.100.9", "login:email:x:1.2.3.4", "unknown-host", "127.1", "3232235777", "1.2.3.4:port", "[1.2.3.4]:80", "[2001:db8::1]:", "1.2.3.4 5.6.7.8", "x".repeat(500), "_", "::ffff:1.2.3.4:80"];
    for (const entry of hostile) {
      expect(clientAddress("10.0.0.1", entry, 1), entry).toBe("10.0.0.1");
      expect(clientAddress("10.0.0.1", `${entry}, 9.9.9.9`, 2), entry).toBe("9.9.9.9");
      expect(clientAddress(undefined, entry, 1), entry).toBe("unknown");
      // A client key is an IPv4 address, an IPv6 /64 or "unknown": never a counter's name.
      const key = clientAddress("2001:db8:5::1", `${entry}, ${entry}`, 3);
      expect(key).toMatch(/^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){3}::\/64|unknown)$/);
    }
    // Without TRUST_PROXY the header is ignored, as before.
    expect(clientAddress("10.0.0.1", "5.6.7.8", 0)).toBe("10.0.0.1");
    // clientKey of a socket's own address is unchanged.
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  it("counts every source port of one client behind a proxy appending ip:port as one client", async () => {
    const t = buildApp(await db(), { rateLimit: { store: new MemoryRateLimitStore(), max: 2, windowMs: 60_000 }, trustProxy: 1 });
    const from = (xff: string) => t.request("/pool/stats", { ip: "10.0.0.1", headers: { "X-Forwarded-For": xff } });
    expect((await from("5.6.7.8:1111")).status).toBe(200);
    expect((await from("5.6.7.8:2222")).status).toBe(200);
    await expectError(await from("5.6.7.8:3333"), 429, "RATE_LIMITED");
    expect((await from("[2001:db8:1:2::1]:443")).status).toBe(200);
    expect((await from("[2001:db8:1:2::2]:50000")).status).toBe(200);
    await expectError(await from("2001:db8:1:2::3"), 429, "RATE_LIMITED");
    // Garbage is the proxy's own bucket, never a bucket per string.
    expect((await from("garbage-1")).status).toBe(200);
    expect((await from("garbage-2")).status).toBe(200);
    await expectError(await from("garbage-3"), 429, "RATE_LIMITED");
  });
});

/**
 * The attack: five failed logins lock an email out of a client for 15 min; a GET whose
 * X-Forwarded-For names that lockout's counter would run the request limit's 60 s window over it
 * and free it after 60 s. Both spellings of the login keys (before and after the fix) are tried.
 */
async function lockoutSurvives(store: RateLimitStore, advanceBeforeFailures: boolean): Promise<void> {
  const t = buildApp(await db(), { rateLimit: { store, max: 100, windowMs: 60_000 }, trustProxy: 1 });
  const email = `lockout-${randomUUID()}@example.com`;
  const victim = "198.51.100.9";
  const via = (xff: string, init: RequestInit = {}) => t.request(init.method ? "/auth/login" : "/pool/stats", { ...init, ip: "10.0.0.1", headers: { ...(init.headers as Record<string, string>), "X-Forwarded-For": xff } });
  const login = (pw: string) => via(victim, { method: "POST", body: JSON.stringify({ email, password: pw }), headers: { "Content-Type": "application/json" } });
  expect((await t.post("/auth/register", { email, password: "correct horse battery" })).status).toBe(200);
  // (The memory store sweeps idle keys once per window; the clock is set so that no sweep falls
  // in the last 60 s, and what is tested is the key namespace alone.)
  if (advanceBeforeFailures) t.clock.advance(50_000);
  for (let i = 0; i < 5; i++) await expectError(await login("wrong password"), 401, "INVALID_CREDENTIALS");
  await expectError(await login("correct horse battery"), 429, "RATE_LIMITED");
  if (advanceBeforeFailures) {
    t.clock.advance(50_000);
    expect((await via("203.0.113.50")).status).toBe(200);
    t.clock.advance(11_000);
  } else {
    t.clock.advance(61_000);
  }
  const who = createHash("sha256").update(email).digest("base64url").slice(0, 22);
  for (const key of [`login:${who}:${victim}`, `login:${victim}`, `login:email:${who}:${victim}`, `login:client:${victim}`]) {
    expect((await via(key)).status).toBe(200);
  }
  // Still locked out: 61 s is not 15 min.
  expect(await expectError(await login("correct horse battery"), 429, "RATE_LIMITED")).toMatch(/this email from this client/);
  t.clock.advance(15 * 60_000);
  expect((await login("correct horse battery")).status).toBe(200);
}

describe("request-limit keys cannot name a login-failure counter", () => {
  it("a GET with X-Forwarded-For: login:… does not shorten a 15-min lockout (memory store)", async () => {
    await lockoutSurvives(new MemoryRateLimitStore(), true);
  }, 30_000);

  it.skipIf(!services.redisUrl)(`the same on a shared Redis store${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
    const store = new RedisRateLimitStore(services.redisUrl as string, `tokenpool-test-${randomUUID()}`);
    await store.ready();
    try {
      await lockoutSurvives(store, false);
    } finally {
      await store.close();
    }
  }, 30_000);
});
