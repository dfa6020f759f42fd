/**
 * The pool flood of issue 25 (point 3), against a real `tokenpool api` on Postgres: six client
 * addresses (X-Forwarded-For behind TRUST_PROXY=1), each inside the rate limit, send 100 deep
 * holder pages at once (`limit≈1000&page=100…199` of a token with 400,000 holders: every one a
 * different key, so neither the cache nor single flight absorbs them, and each an index walk of
 * 100,000–200,000 entries). Each read holds a pool connection for its snapshot: before the read
 * budget, they took all ten, so other clients' reads queued behind hundreds of them (seconds) and
 * /health timed out (503). Now a client runs at most 4 reads, the flood as a whole at most 8
 * minus the 2 kept for clients with none running, and /health has a connection of its own.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/index.js";
import { dbTargets } from "../support/db.js";
import { seedBigToken, seedMarket, TEN } from "../support/fixtures.js";

const pg = dbTargets.find((t) => t.name === "postgres")!;
const BIG = 1_000;
const HOLDERS = 400_000;
const FLOODERS = 6;
const PER_FLOODER = 100;

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * `tokenpool api` as its own process, as in production: the attackers' requests and the
 * measurements made here do not share its event loop. Resolves once it listens.
 */
function spawnApi(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["bin/tokenpool.mjs", "api"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /"port":(\d+)[^\n]*"msg":"api listening"/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once("exit", (code) => reject(new Error(`tokenpool api exited (${code}): ${out.slice(-500)}`)));
  });
}

interface Answer {
  status: number;
  code?: string;
  retryAfter?: string;
}

/** Runs test/support/flood.mjs: `ingested` once the server has read the burst (ms), `results` once every answer is in. */
function flood(port: number, requests: { path: string; headers: Record<string, string> }[], probe: { path: string; headers: Record<string, string> }) {
  const child = spawn(process.execPath, ["test/support/flood.mjs"], { stdio: ["pipe", "pipe", "inherit"] });
  child.stdin!.end(JSON.stringify({ port, requests, probe }));
  let ingested!: (ms: number) => void;
  let done!: (answers: Answer[]) => void;
  const results = new Promise<Answer[]>((resolve, reject) => {
    done = resolve;
    child.once("exit", (code) => reject(new Error(`the flood exited (${code}) before its results`)));
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const lines = out.split("\n");
    out = lines.pop()!;
    for (const line of lines) {
      const msg = JSON.parse(line) as { ingested?: number; results?: Answer[] };
      if (msg.ingested !== undefined) ingested(msg.ingested);
      if (msg.results) done(msg.results);
    }
  });
  return { ingested: new Promise<number>((resolve) => (ingested = resolve)), results };
}

describe.skipIf(pg.skip)(`database fairness under a pool flood (Postgres)${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  let target: DbHandle & { drop(): Promise<void>; url?: string };
  let api: ChildProcess | undefined;
  let port: number;
  let base: string;
  let auth: string;

  beforeAll(async () => {
    target = await pg.open();
    await seedMarket(target.db);
    await seedBigToken(target.db, BIG, HOLDERS);
    ({ child: api, port } = await spawnApi({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", JWT_SECRET: randomBytes(32).toString("base64url"), DATABASE_URL: target.url!, TRUST_PROXY: "1", REDIS_URL: "", DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "tokenpool-fairness-")) }));
    base = `http://127.0.0.1:${port}`;
    const reg = await fetch(`${base}/auth/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.1" }, body: JSON.stringify({ email: "fair@example.com", password: "correct horse battery" }) });
    auth = `Bearer ${((await reg.json()) as { data: { token: string } }).data.token}`;
  }, 60_000);
  afterAll(async () => {
    if (api && api.exitCode === null) {
      api.kill("SIGTERM");
      await new Promise((r) => api!.once("exit", r));
    }
    await target?.drop();
  });

  it("6 clients × 100 deep holder pages at once: other clients' reads stay fast (p99 ≤ 1 s under a loaded suite, ≤ 100 ms alone) and /health stays 200", async () => {
    const get = (path: string, ip: string) => fetch(`${base}${path}`, { headers: { authorization: auth, "x-forwarded-for": ip }, signal: AbortSignal.timeout(30_000) });
    // Warm: the pool's connections open and the index pages are cached, as on a running server;
    // the other clients below are already connected (keep-alive), as users in the middle of a visit.
    for (const page of [1, 150, 300]) expect((await get(`/assets/holders/${BIG}?limit=1000&page=${page}`, "192.0.2.2")).status).toBe(200);
    for (const i of [0, 1, 2]) expect((await get(`/assets/holders/${TEN}?limit=1000&page=${i + 1}`, `203.0.113.${i + 1}`)).status).toBe(200);

    // The flood comes from a process of its own (test/support/flood.mjs), as from the attackers'
    // machines. The server first has to read the burst itself: 600 requests at once are ≈ 0.5 s
    // of its event loop on a 2-core machine (parsing, routing, 429s), database or not. A request
    // sent right behind them that never reaches the database (a 404) is answered once they have
    // been read; from then on the flood is in the database, and that is what is measured.
    const requests = Array.from({ length: FLOODERS * PER_FLOODER }, (_, n) => {
      const flooder = n % FLOODERS;
      // Every read its own key: limit 1000 - flooder, page 100 + its number.
      return { path: `/assets/holders/${BIG}?limit=${1000 - flooder}&page=${100 + Math.floor(n / FLOODERS)}`, headers: { authorization: auth, "x-forwarded-for": `198.51.100.${flooder + 1}` } };
    });
    const started = performance.now();
    const attackers = flood(port, requests, { path: "/no-such-route", headers: { "x-forwarded-for": "203.0.113.98" } });
    let flooding = true;
    void attackers.results.finally(() => (flooding = false));
    const ingestMs = await attackers.ingested;
    const measured = performance.now();
    const during = () => flooding || performance.now() - measured < 2_000;

    // Three other clients, each reading one holder page after the other (every one a new key: a
    // database read), and a monitor asking /health, for as long as the flood lasts (at least 2 s).
    const latencies: number[] = [];
    const health: number[] = [];
    const others = Array.from({ length: 3 }, async (_, i) => {
      for (let k = 1; during(); k++) {
        const t0 = performance.now();
        const res = await get(`/assets/holders/${TEN}?limit=${k}&page=${i + 1}`, `203.0.113.${i + 1}`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    const monitor = (async () => {
      // At least 6 answers: on a loaded machine the flood may be over in fewer of its turns.
      while (during() || health.length < 6) {
        const res = await fetch(`${base}/health`, { headers: { "x-forwarded-for": "203.0.113.99" }, signal: AbortSignal.timeout(30_000) });
        health.push(res.status);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const results = await attackers.results;
    for (const r of results) {
      if (r.status === 200) continue;
      // Turned away, never failed: 429 (this client has its fill) or 503 (waited its turn in vain), with Retry-After.
      expect({ status: r.status, code: r.code }).toEqual(r.status === 429 ? { status: 429, code: "RATE_LIMITED" } : { status: 503, code: "SERVICE_UNAVAILABLE" });
      expect(r.retryAfter).toMatch(/^\d+$/);
    }
    const statuses = results.map((r) => r.status);
    await Promise.all([...others, monitor]);

    latencies.sort((a, b) => a - b);
    const summary = { samples: latencies.length, p50: Math.round(p(latencies, 0.5)), p99: Math.round(p(latencies, 0.99)), max: Math.round(latencies.at(-1)!), ingestMs, floodMs: Math.round(performance.now() - started), flood: { ok: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 429).length, busy: statuses.filter((s) => s === 503).length }, health };
    console.log(`pool flood: ${JSON.stringify(summary)}`);
    expect(health.length).toBeGreaterThan(5);
    expect(health.every((s) => s === 200), `/health answers ${health.join(" ")}`).toBe(true);
    // The target is ≤ 100 ms (met alone: p99 51–85 ms, docs/api.md); the suite runs files side
    // by side on 2 cores, so the test holds the line an order of magnitude under the failure it
    // guards against (p99 ≈ 13 s before the budget), and the figure is printed above.
    expect(summary.p99, JSON.stringify(summary)).toBeLessThanOrEqual(1_000);
    // The flood was served, within its budget, not dropped: reads were answered (how many fit in
    // the flood's seconds depends on the machine: 16–30 of 600 on a quiet one, deep pages taking
    // 0.13–0.4 s each; 6 on CI under a loaded suite, which is why not every flooder is sure of
    // one), and the rest were turned away with Retry-After above, never failed.
    const served = Array.from({ length: FLOODERS }, (_, f) => results.filter((r, n) => n % FLOODERS === f && r.status === 200).length);
    expect(served.reduce((a, b) => a + b, 0), `200s per flooder: ${served.join(" ")}`).toBeGreaterThan(0);
    // Shared, not taken by one: a client runs at most 4 reads at once, and admission goes round
    // the clients (test/api/read-budget.test.ts), so no flooder is served more than 4 beyond another.
    expect(Math.max(...served) - Math.min(...served), `200s per flooder: ${served.join(" ")}`).toBeLessThanOrEqual(4);
  }, 60_000);
});
