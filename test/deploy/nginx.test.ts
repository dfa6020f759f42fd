/**
 * The production shape, running: the real nginx (Debian's package) with the shipped
 * deploy/nginx.conf — only its upstream addresses and listen port rewritten — in front of two
 * `tokenpool api` processes sharing Postgres and Redis, as docker-compose.yml runs them:
 *
 * - REST through it, answered by both replicas;
 * - /ws through it: subscribe, and a push when a block is committed (the file before this test
 *   sent `Connection ""` and no `Upgrade`: no WebSocket could connect);
 * - the rate limit shared across the replicas: the 101st request is 429 whichever answers, and a
 *   forged X-Forwarded-For does not buy a fresh budget (nginx writes the client's own address; a
 *   replica reached directly drops it: TRUST_PROXY_FROM names nginx's address);
 * - a replica killed mid-load: nginx fails over, no client sees a 5xx beyond those in flight.
 *
 * Clients are told apart by their source address: the test binds each to its own loopback
 * address (127.0.0.x), which nginx forwards as the client's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, mkdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceBlocks, insertBlocks, insertPrices, type DbHandle } from "../../db/index.js";
import { dbTargets, services } from "../support/db.js";
import { HEAD_BLOCK, HEAD_TIME, KSM, seedMarket } from "../support/fixtures.js";
import { freePort } from "../support/port.js";
import { until } from "../support/wait.js";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));
const skip = !NGINX
  ? "no nginx binary (apt-get install nginx)"
  : !services.databaseUrl || !services.redisUrl
    ? "TEST_DATABASE_URL and TEST_REDIS_URL are needed (two replicas share Postgres and Redis)"
    : undefined;

interface Replica {
  child: ChildProcess;
  port: number;
  /** Request log lines this replica has written. */
  requests: () => number;
}

function spawnApi(env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, ["bin/tokenpool.mjs", "api"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  let requests = 0;
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      const text = d.toString();
      out += text;
      requests += text.split("\n").filter((l) => l.includes('"msg":"request"')).length;
      const m = /"port":(\d+)[^\n]*"msg":"api listening"/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), requests: () => requests });
    });
    child.once("exit", (code) => reject(new Error(`tokenpool api exited (${code}): ${out.slice(-500)}`)));
  });
}

/** One GET from the loopback address `from` (nginx sees it as the client). */
function get(port: number, target: string, from: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: target, localAddress: from, headers: { connection: "close", ...headers }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.end();
  });
}

/** The shipped file with only its addresses changed, inside a main config of a scratch prefix. */
function nginxConfig(dir: string, shipped: string, listen: number, upstreams: [number, number]): string {
  const site = shipped
    .replace("server api1:3000", `server 127.0.0.1:${upstreams[0]}`)
    .replace("server api2:3000", `server 127.0.0.1:${upstreams[1]}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`);
  expect(site, "the shipped file's addresses").not.toMatch(/api[12]:3000|listen 80;/);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${dir}/${t};`).join("\n  ");
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${temp}
${site}
}
`;
}

describe.skipIf(skip)(`deploy/nginx.conf in the real nginx, before two tokenpool api${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let store: DbHandle & { drop(): Promise<void>; url?: string };
  let replicas: Replica[] = [];
  let nginx: ChildProcess | undefined;
  let port: number;
  let dir: string;

  async function startNginx(shipped: string): Promise<void> {
    port = await freePort();
    writeFileSync(path.join(dir, "nginx.conf"), nginxConfig(dir, shipped, port, [replicas[0]!.port, replicas[1]!.port]));
    nginx = spawn(NGINX!, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "inherit", "inherit"] });
    await until("nginx answering", async () => (await get(port, "/health", "127.0.0.1").catch(() => ({ status: 0 }))).status === 200, 15_000);
  }

  async function stopNginx(): Promise<void> {
    if (nginx && nginx.exitCode === null) {
      nginx.kill("SIGQUIT");
      await new Promise((r) => nginx!.once("exit", r));
    }
  }

  async function commitBlock(number: number, price: string): Promise<void> {
    await store.db.transaction(async (tx) => {
      const t = tx as unknown as typeof store.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + (number - HEAD_BLOCK) * 12 };
      await insertBlocks(t, [block]);
      await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: price }]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
    });
  }

  beforeAll(async () => {
    store = await dbTargets.find((t) => t.name === "postgres")!.open();
    await seedMarket(store.db);
    dir = mkdtempSync(path.join(tmpdir(), "tokenpool-nginx-"));
    for (const t of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, t));
    chmodSync(dir, 0o755);
    const env = {
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      DATABASE_URL: store.url!,
      REDIS_URL: services.redisUrl!,
      REDIS_PREFIX: `nginx-${randomBytes(4).toString("hex")}`,
      TRUST_PROXY: "1",
      // nginx reaches the replicas from 127.0.0.1; clients of this test come from 127.0.0.2 and up.
      TRUST_PROXY_FROM: "127.0.0.1",
      RATE_LIMIT_MAX: "100",
      JWT_SECRET: randomBytes(32).toString("base64url"),
      DATA_DIR: dir,
    };
    replicas = await Promise.all([spawnApi(env), spawnApi(env)]);
    await startNginx(readFileSync("deploy/nginx.conf", "utf8"));
  }, 120_000);

  afterAll(async () => {
    await stopNginx();
    for (const r of replicas) if (r.child.exitCode === null) r.child.kill("SIGKILL");
    await store?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("REST through nginx: the seeded market, answered by both replicas", async () => {
    const before = replicas.map((r) => r.requests());
    const direct = await get(replicas[0]!.port, "/pool/stats", "127.0.0.2");
    for (let i = 0; i < 6; i++) {
      const a = await get(port, "/pool/stats", "127.0.0.2");
      expect(a.status).toBe(200);
      expect(a.body).toBe(direct.body);
    }
    expect(JSON.parse(direct.body).totalPools).toBeGreaterThan(0);
    await until("both replicas logged requests", () => replicas.every((r, i) => r.requests() > before[i]! + (i === 0 ? 1 : 0)), 5_000);
  });

  it("/ws through nginx: subscribe, then a committed block is pushed", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { localAddress: "127.0.0.3" });
    const messages: { id?: number; method?: string; result?: { subscription: string }; params?: { result: { valueUsd: string } } }[] = [];
    ws.on("message", (m) => messages.push(JSON.parse(String(m))));
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
      ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscribe", params: { topic: `oracle.value:${KSM}` } }));
    await until("the subscribe answer", () => messages.some((m) => m.id === 1 && m.result?.subscription), 5_000);
    await commitBlock(HEAD_BLOCK + 1, "13");
    await until("the push", () => messages.some((m) => m.params?.result?.valueUsd === "13"), 10_000);
    ws.close();
  });

  it("the rate limit is shared: the 101st request through nginx is 429 whichever replica answers, and a forged X-Forwarded-For changes nothing", async () => {
    const before = replicas.map((r) => r.requests());
    const from = "127.0.0.4";
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await get(port, "/oracle/value/0", from)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    const refused = await get(port, "/oracle/value/0", from);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.code).toBe("RATE_LIMITED");
    // nginx writes the client's own address over what it sent.
    expect((await get(port, "/oracle/value/0", from, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(429);
    // Straight to a replica (TRUST_PROXY_FROM=127.0.0.1): a forged X-Forwarded-For from another peer
    // is dropped, so it buys no fresh budget, and cannot spend another client's either.
    expect((await get(replicas[0]!.port, "/oracle/value/0", from, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(429);
    expect((await get(replicas[0]!.port, "/oracle/value/0", "127.0.0.6", { "X-Forwarded-For": from })).status).toBe(200);
    // Both replicas counted into the one limit.
    await until("the request logs", () => replicas.reduce((n, r, i) => n + r.requests() - before[i]!, 0) >= 102, 5_000);
    expect(replicas.every((r, i) => r.requests() - before[i]! >= 20)).toBe(true);
    // Another client is not limited.
    expect((await get(port, "/oracle/value/0", "127.0.0.5")).status).toBe(200);
  });

  it("a replica killed mid-load: nginx fails over, and no client sees a 5xx beyond those in flight", async () => {
    const statuses: number[] = [];
    let stop = false;
    const loops = Array.from({ length: 8 }, async (_, i) => {
      // Each loop a client of its own (its own 100 a minute).
      const from = `127.0.0.${20 + i}`;
      for (let n = 0; n < 90 && !stop; n++) {
        const a = await get(port, "/pool/stats", from).catch(() => ({ status: 0, body: "" }));
        statuses.push(a.status);
      }
    });
    await until("load under way", () => statuses.length >= 40, 10_000);
    replicas[1]!.child.kill("SIGKILL");
    const atKill = statuses.length;
    await until("load after the kill", () => statuses.length >= atKill + 120, 20_000);
    stop = true;
    await Promise.all(loops);
    const failed = statuses.filter((s) => s === 0 || s >= 500).length;
    console.log(`failover: ${statuses.length} requests, ${statuses.length - atKill} after the kill, ${failed} failed`);
    expect(failed, JSON.stringify(statuses.filter((s) => s !== 200))).toBeLessThanOrEqual(8);
    // After the kill, every later answer came from the surviving replica.
    expect(statuses.slice(atKill + 16).every((s) => s === 200)).toBe(true);
  });
});
