/**
 * A database that hangs (issue 25, point 4), not one that refuses: a TCP relay in front of the
 * real Postgres stops forwarding in both directions without closing or resetting anything, as a
 * frozen host or a route that drops packets does. The server's statement_timeout cannot help (the
 * server is the one not answering), and before the request deadline reads waited 62–75 s, until
 * the database came back. Now every request answers within REQUEST_TIMEOUT_MS (503 with the error
 * body), a connection that heard nothing for API_STATEMENT_TIMEOUT_MS + 2 s is closed and never
 * returns to the pool, and /health says so within its own 2 s.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import type { DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { dbTargets } from "../support/db.js";
import { seedMarket } from "../support/fixtures.js";
import { startRelay, type Relay } from "../support/proxy.js";

const pg = dbTargets.find((t) => t.name === "postgres")!;
const DEADLINE_MS = 3_000;
const STATEMENT_TIMEOUT_MS = 1_000;
/** What a deadline may overrun by: timers, a loaded machine. */
const SLACK_MS = 1_500;

describe.skipIf(pg.skip)(`a database that hangs (Postgres)${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  let target: DbHandle & { drop(): Promise<void>; url?: string };
  let relay: Relay;
  let server: ApiServer;
  let base: string;
  /** Every read its own key: the cache must not answer it. */
  let key = 0;

  beforeAll(async () => {
    target = await pg.open();
    await seedMarket(target.db);
    const url = new URL(target.url!);
    relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) }, "postgres");
    url.host = new URL(relay.url).host;
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      JWT_SECRET: randomBytes(32).toString("base64url"),
      DATABASE_URL: url.toString(),
      RATE_LIMIT_MAX: "0",
      REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
      API_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    server = await startApiServer(config, createLogger("silent"));
    base = `http://127.0.0.1:${server.port}`;
  });
  afterEach(() => relay.unfreeze());
  afterAll(async () => {
    relay?.unfreeze();
    await server?.close();
    await relay?.close();
    await target?.drop();
  });

  /** A read of the store (a new key each time), its status, body and time; given up (status 0) past `patience`. */
  async function read(patience = DEADLINE_MS + 10_000): Promise<{ status: number; body: unknown; ms: number; retryAfter: string | null }> {
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}/pools?limit=${(key++ % 500) + 1}&sort=id`, { signal: AbortSignal.timeout(patience) });
      return { status: res.status, body: await res.json(), ms: performance.now() - t0, retryAfter: res.headers.get("retry-after") };
    } catch {
      return { status: 0, body: undefined, ms: performance.now() - t0, retryAfter: null };
    }
  }

  async function health(): Promise<{ status: number; ms: number }> {
    const t0 = performance.now();
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  }

  const UNAVAILABLE = { success: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) } };

  it("frozen: every read answers 503 within the deadline, /health 503 within 2 s; thawed: both recover", async () => {
    // Warm: several pool connections open (four reads at once).
    for (const r of await Promise.all([read(), read(), read(), read()])) expect(r.status).toBe(200);
    expect((await health()).status).toBe(200);

    relay.freeze();
    const frozenAt = performance.now();
    // Reads on the pool's open connections, and (all of them busy) on new ones the relay holds.
    const [reads, check] = await Promise.all([Promise.all(Array.from({ length: 6 }, () => read())), health()]);
    console.log(`frozen: reads answered in ${reads.map((r) => Math.round(r.ms)).join(", ")} ms; /health ${check.status} in ${Math.round(check.ms)} ms`);
    for (const r of reads) {
      expect(r.status, `a read answered after ${Math.round(r.ms)} ms`).toBe(503);
      expect(r.body).toEqual(UNAVAILABLE);
      expect(r.retryAfter).toMatch(/^\d+$/);
      expect(r.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    }
    expect(check.status).toBe(503);
    expect(check.ms).toBeLessThan(2_000 + SLACK_MS);
    // Later reads do not queue behind the frozen ones: each still answers within its own deadline.
    const later = await Promise.all([read(), read()]);
    for (const r of later) {
      expect(r.status).toBe(503);
      expect(r.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    }
    expect((await health()).status).toBe(503);

    relay.unfreeze();
    const thawed = performance.now();
    while ((await health()).status !== 200) {
      expect(performance.now() - thawed, "/health back to 200 after the thaw").toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    const after = await read();
    expect(after.status).toBe(200);
    console.log(`thawed: /health 200 and a read 200 after ${Math.round(performance.now() - thawed)} ms (frozen for ${Math.round(thawed - frozenAt)} ms)`);
  }, 60_000);

  it("connections that died without a RST (new ones work): they are closed and the API serves again while they stay frozen", async () => {
    for (const r of await Promise.all([read(), read(), read(), read()])) expect(r.status).toBe(200);
    expect((await health()).status).toBe(200);

    // Every connection open now hangs for good; the database itself is fine for new ones.
    relay.freeze({ existingOnly: true });
    const frozenAt = performance.now();
    const outcomes: { status: number; ms: number }[] = [];
    let recovered = false;
    while (!recovered) {
      expect(performance.now() - frozenAt, "the API serving again while the dead connections stay frozen").toBeLessThan(STATEMENT_TIMEOUT_MS + 2_000 + DEADLINE_MS + 8_000);
      const wave = await Promise.all([read(), read(), read(), read()]);
      for (const r of wave) {
        // A read answers (never hangs): 503 while it landed on a dead connection, else 200.
        expect([200, 503], `a read answered ${r.status} after ${Math.round(r.ms)} ms`).toContain(r.status);
        expect(r.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
        outcomes.push({ status: r.status, ms: Math.round(r.ms) });
      }
      recovered = wave.every((r) => r.status === 200);
    }
    const serving = Math.round(performance.now() - frozenAt);
    // /health's own connection died too: a failed check drops it, the next one opens a new one.
    const deadline = performance.now() + 10_000;
    while ((await health()).status !== 200) expect(performance.now()).toBeLessThan(deadline);
    console.log(`dead connections: reads ${outcomes.map((o) => `${o.status}/${o.ms}`).join(" ")}; serving again after ${serving} ms; /health 200 after ${Math.round(performance.now() - frozenAt)} ms`);
  }, 60_000);
});
