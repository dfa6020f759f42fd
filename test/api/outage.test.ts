/**
 * A database outage and malformed HTTP against a real `tokenpool api` server: every route that
 * needs the store answers 503 SERVICE_UNAVAILABLE in the error body (answers cached for the
 * current block are still served), it recovers by itself, Node's own parser errors carry the
 * error body, and nothing secret or personal reaches the log on any of these paths.
 */
import { randomBytes } from "node:crypto";
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLog } from "../support/log.js";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { createDb, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { dbTargets } from "../support/db.js";
import { seedMarket, USDT } from "../support/fixtures.js";
import { startRelay, type Relay } from "../support/proxy.js";

/** The API's JWT secret in this file (random: a hand-made one would not pass the rule, shared/secret-strength.ts). */
const JWT_SECRET = randomBytes(32).toString("base64url");

const pg = dbTargets.find((t) => t.name === "postgres")!;
const EMAIL = "outage.victim@example.com";
const PASSWORD = "outage horse battery staple";

const capture = captureLog;

/** Sends raw bytes and returns the raw answer (until the server closes). */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
    socket.on("data", (d) => (answer += d.toString()));
    socket.on("error", () => {});
    socket.on("close", () => resolve(answer));
  });
}

function bodyOf(answer: string): any {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

describe.skipIf(pg.skip)(`database outage (Postgres)${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  let target: DbHandle & { drop(): Promise<void>; url?: string };
  let relay: Relay;
  let server: ApiServer;
  let base: string;
  const log = capture();
  let token: string;

  beforeAll(async () => {
    target = await pg.open();
    await seedMarket(target.db);
    const url = new URL(target.url!);
    relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) }, "postgres");
    url.host = new URL(relay.url).host;
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "debug", JWT_SECRET, DATABASE_URL: url.toString(), RATE_LIMIT_MAX: "0" });
    server = await startApiServer(config, log.logger);
    base = `http://127.0.0.1:${server.port}`;
    const reg = await fetch(`${base}/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    token = ((await reg.json()) as { data: { token: string } }).data.token;
  });
  afterAll(async () => {
    relay?.resume();
    await server?.close();
    await relay?.close();
    await target?.drop();
  });

  it("answers 503 with the error body on every route that needs the store, serves what is cached, and recovers", async () => {
    const cached = await (await fetch(`${base}/pool/stats`)).text();
    relay.pause();
    const auth = { authorization: `Bearer ${token}` };
    const json = { "content-type": "application/json" };
    const requests: [string, RequestInit][] = [
      [`/oracle/value/${USDT}`, {}],
      [`/assets/metadata/${USDT}`, { headers: auth }],
      [`/assets/holders/${USDT}`, { headers: auth }],
      ["/assets", {}],
      ["/pools", {}],
      [`/pool/stats/KSM/${USDT}`, {}],
      [`/oracle/history/${USDT}`, {}],
      ["/auth/login", { method: "POST", headers: json, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) }],
      ["/auth/login", { method: "POST", headers: json, body: JSON.stringify({ email: EMAIL, password: "wrong password" }) }],
      ["/auth/register", { method: "POST", headers: json, body: JSON.stringify({ email: "second@example.com", password: PASSWORD }) }],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(`${base}${path}`, init);
      const body = await res.json();
      expect({ path, status: res.status, body }).toEqual({ path, status: 503, body: { success: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) } } });
      expect(res.headers.get("retry-after")).toBe("5");
    }
    expect((await fetch(`${base}/health`)).status).toBe(503);
    // The answer computed for this block before the outage is still right, and served.
    const stats = await fetch(`${base}/pool/stats`);
    expect(stats.status).toBe(200);
    expect(await stats.text()).toBe(cached);

    relay.resume();
    const deadline = Date.now() + 20_000;
    while ((await fetch(`${base}/health`)).status !== 200) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await fetch(`${base}/oracle/value/${USDT}`)).status).toBe(200);
    const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    expect(login.status).toBe(200);
  }, 60_000);

  it("a failed register, login and outage leave no email, password, hash, token or SQL parameter in the log", async () => {
    // A register that fails inside the database (not a validation error): the name is too long for nothing, so force one.
    await target.db.execute(sql`alter table users add constraint users_no_outage check (email <> 'fails@example.com')`);
    const fail = await fetch(`${base}/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "fails@example.com", password: PASSWORD }) });
    expect(fail.status).toBe(500);
    await target.db.execute(sql`alter table users drop constraint users_no_outage`);
    const text = log.lines.join("");
    expect(text).toContain("a database query failed"); // the register, the outage: logged…
    for (const secret of [EMAIL, "fails@example.com", "second@example.com", PASSWORD, "wrong password", "scrypt$", token, token.split(".")[2]!, "insert into", "params"]) {
      expect(text.includes(secret), `the log contains ${secret}`).toBe(false); // …without what they carried
    }
  });

  it("Node's own parser errors carry the error body: bad request line, bad Content-Length, a 70 KB URL", async () => {
    const port = server.port;
    const bad = await raw(port, "GARBAGE\r\n\r\n");
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(bad)).toEqual({ success: false, error: { code: "VALIDATION_ERROR", message: expect.any(String) } });
    const length = await raw(port, "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
    expect(length).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(length).error.code).toBe("VALIDATION_ERROR");
    const long = await raw(port, `GET /pool/stats?${"a".repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(long).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(long).error.code).toBe("VALIDATION_ERROR");
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  it("a statement over API_STATEMENT_TIMEOUT_MS is cancelled by Postgres, and the request answers 503, not a hang or a crash", async () => {
    // An API whose statements may run 300 ms, straight to the database (no relay), and a read
    // that cannot finish: another session holds the tokens table locked.
    const quick = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", JWT_SECRET, DATABASE_URL: target.url!, RATE_LIMIT_MAX: "0", API_STATEMENT_TIMEOUT_MS: "300" }), log.logger);
    const at = `http://127.0.0.1:${quick.port}`;
    const locker = await createDb({ databaseUrl: target.url!, maxConnections: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const taken = new Promise<void>((r) => (locked = r));
    const holding = locker.db.transaction(async (tx) => {
      await tx.execute(sql`lock table tokens in access exclusive mode`);
      locked();
      await held;
    });
    try {
      await Promise.race([taken, holding]); // a failed lock statement ends the wait too
      const started = performance.now();
      const res = await fetch(`${at}/assets/metadata/${USDT}`, { headers: { authorization: `Bearer ${token}` } });
      const ms = performance.now() - started;
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 503, body: { success: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) } } });
      // Cancelled by the statement timeout, long before the API's own read deadline (≈ 7 s).
      expect(ms).toBeGreaterThanOrEqual(300);
      expect(ms).toBeLessThan(3_000);
      // Postgres itself cancelled the read (57014): no session has waited for the lock, which is
      // still held, longer than the 300 ms timeout allows. A read abandoned by the API's side (its
      // socket watchdog at 300 ms + 2 s, or its request deadline) would leave its backend waiting
      // in pg_locks until the release. (A background read of this API — the symbol list — may have
      // started waiting just now: Postgres cancels it at its own 300 ms.)
      const waiting = await target.db.execute(sql`select a.application_name, a.state, left(a.query, 200) as query, (now() - a.query_start)::text as waited from pg_locks l join pg_stat_activity a using (pid) where l.database = (select oid from pg_database where datname = current_database()) and l.relation = 'tokens'::regclass and not l.granted and a.query_start < now() - interval '1 second'`);
      expect(waiting, JSON.stringify(waiting)).toEqual([]);
      expect(log.records().filter((r) => r.msg === "store unavailable" && r.path === `/assets/metadata/${USDT}`).at(-1)?.err?.code).toBe("57014");
      release();
      await holding;
      // The same read once the lock is gone: the connection and the process are fine.
      const again = await fetch(`${at}/assets/metadata/${USDT}`, { headers: { authorization: `Bearer ${token}` } });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { tokenId: number }).tokenId).toBe(USDT);
    } finally {
      release();
      await holding.catch(() => {});
      await locker.close();
      await quick.close();
    }
  });
});
