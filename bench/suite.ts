/**
 * `npm run bench`: TokenPool's read path against its ceilings and a peer, on one machine, in one
 * run; every target is a ratio of figures from this run. Prints a table, writes
 * bench/results.json.
 *
 * 1. A synthetic store (bench/synthetic.ts: 1M holders, 1,000 pools, 5M swaps over 48 h) in
 *    Postgres (BENCH_DATABASE_URL / TEST_DATABASE_URL) or PGlite; BENCH_SCALE shrinks it.
 * 2. Query latency without the HTTP layer or the response cache (median of 25): holders page 1,
 *    500k deep by cursor, page=10000; pool stats with 5M swaps and with 10k swaps.
 * 3. HTTP load with autocannon (64 connections, BENCH_SECONDS each, rate limit off) on every
 *    read endpoint of a `tokenpool api` child process, next to bare Hono and bare node:http
 *    children answering a JSON body of the same size; the API's peak RSS.
 * 4. With DEVNET_GENESIS: @substrate/api-sidecar and TokenPool against the same chopsticks
 *    devnet, on their equivalent routes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { createApp } from "../api/app.js";
import { MemoryRateLimitStore } from "../api/rate-limit/memory-store.js";
import { encodeCursor } from "../api/services/cursor.js";
import { upsertHolders, type DbHandle } from "../db/index.js";
import { createLogger } from "../shared/logger.js";
import { freePort } from "../test/support/port.js";
import fc from "fast-check";
import { bruteForceCandles, INTERVAL_SECONDS } from "../test/support/candles.js";
import { freshStore } from "./stores.js";
import { BIG, FIRST_POOL_TOKEN, FULL, generate, HEAD_TIME, KSM, SMALL_SWAPS, USDT, WALLET, type Scale } from "./synthetic.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const CONNECTIONS = 64;
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const scaled = (s: Scale): Scale => ({ ...s, bigHolders: Math.round(s.bigHolders * SCALE), otherHolders: Math.round(s.otherHolders * SCALE), swaps: Math.round(s.swaps * SCALE) });

interface Row {
  what: string;
  figure: string;
  target?: string;
  met?: boolean;
}
const rows: Row[] = [];
const results: Record<string, unknown> = { date: new Date().toISOString(), scale: SCALE, seconds: SECONDS, connections: CONNECTIONS };

/** Starts a child and resolves once `ready(url)` answers. */
async function child(args: string[], env: Record<string, string>, ready: () => Promise<boolean>): Promise<ChildProcess> {
  const p = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 600; i++) {
    if (p.exitCode !== null) throw new Error(`${args.join(" ")} exited with ${p.exitCode}`);
    if (await ready().catch(() => false)) return p;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${args.join(" ")} did not become ready`);
}
const answers = (url: string) => async () => (await fetch(url)).status < 500;
const stop = (p: ChildProcess) => new Promise<void>((r) => (p.exitCode !== null ? r() : (p.once("exit", () => r()), p.kill("SIGTERM"))));

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function load(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts };
}

async function median(n: number, f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(n / 2)]!.toFixed(2));
}

function uncachedApp(handle: DbHandle) {
  const app = createApp({ db: handle.db, ping: handle.ping, jwtSecret: "b".repeat(32), rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 }, trustProxy: 0, logger: createLogger("silent") });
  return async (path: string, headers: Record<string, string> = {}) => {
    const res = await app.request(path, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
}

async function tokenOf(get: (p: string, init?: RequestInit) => Promise<Response>): Promise<Record<string, string>> {
  const res = await get("/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `bench${Date.now()}@example.com`, password: "correct horse battery" }) });
  return { authorization: `Bearer ${((await res.json()) as { data: { token: string } }).data.token}` };
}

async function latencies(big: DbHandle, small: DbHandle): Promise<void> {
  const get = uncachedApp(big);
  const app = createApp({ db: big.db, ping: big.ping, jwtSecret: "b".repeat(32), rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 }, trustProxy: 0, logger: createLogger("silent") });
  const auth = await tokenOf((p, init) => Promise.resolve(app.request(p, init)));
  const deep = Math.min(500_000, Math.round(FULL.bigHolders * SCALE) - 1);
  const found = (await big.db.execute(sql`select balance::text as balance, account from holders where token_id = ${BIG} order by balance desc nulls last, account offset ${deep - 1} limit 1`)) as unknown;
  // postgres.js answers an array of rows, PGlite an object with `rows`.
  const [at] = (Array.isArray(found) ? found : (found as { rows: unknown[] }).rows) as { balance: string; account: string }[];
  const cursor = encodeCursor({ balance: at!.balance, account: at!.account, rank: deep });
  const page1 = await median(25, () => get(`/assets/holders/${BIG}?limit=50`, auth));
  const byCursor = await median(25, () => get(`/assets/holders/${BIG}?limit=50&cursor=${cursor}`, auth));
  const page10k = await median(25, () => get(`/assets/holders/${BIG}?page=10000&limit=50`, auth));
  rows.push({ what: `holders page 1 (ms)`, figure: String(page1) });
  rows.push({ what: `holders ${deep.toLocaleString("en")} deep by cursor (ms)`, figure: String(byCursor), target: "≤ 2× page 1", met: byCursor <= 2 * page1 });
  rows.push({ what: "holders page=10000&limit=50 (ms)", figure: String(page10k), target: "< 50 ms", met: page10k < 50 });
  const getSmall = uncachedApp(small);
  for (const [label, p] of [["/pool/stats", "/pool/stats"], ["pair stats", `/pool/stats/${KSM}/${USDT}`]] as const) {
    const many = await median(25, () => get(p));
    const few = await median(25, () => getSmall(p));
    rows.push({ what: `${label}: 5M swaps vs 10k swaps (ms)`, figure: `${many} vs ${few}`, target: "≤ 1.5×", met: many <= 1.5 * few });
  }
  // The wallet and trader routes: at 5M swaps and 1M holders within 2× of the 10k-swap store.
  const authSmall = await tokenOf((p, init) => Promise.resolve(createApp({ db: small.db, ping: small.ping, jwtSecret: "b".repeat(32), rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 }, trustProxy: 0, logger: createLogger("silent") }).request(p, init)));
  const newRoutes: Array<[string, string, boolean]> = [
    ["/pools/{a}/{b}/swaps", `/pools/${KSM}/${USDT}/swaps?limit=50`, false],
    ["/pools/{a}/{b}/ohlcv 1m × 1000", `/pools/${KSM}/${USDT}/ohlcv?interval=1m&from=${HEAD_TIME - 999 * 60}`, false],
    ["/pools/{a}/{b}/ohlcv 5m × 576 (48 h)", `/pools/${KSM}/${USDT}/ohlcv?interval=5m&from=${HEAD_TIME - 48 * 3600}`, false],
    ["/accounts/{address}", `/accounts/${WALLET}`, true],
    ["/assets/{id}/history 15m × 192", `/assets/${BIG}/history?interval=15m&from=${HEAD_TIME - 48 * 3600}`, true],
  ];
  const newLatency: Record<string, { big: number; small: number }> = {};
  for (const [label, p, needsAuth] of newRoutes) {
    const many = await median(25, () => get(p, needsAuth ? auth : {}));
    const few = await median(25, () => getSmall(p, needsAuth ? authSmall : {}));
    newLatency[label] = { big: many, small: few };
    rows.push({ what: `${label}: 5M swaps vs 10k swaps (ms)`, figure: `${many} vs ${few}`, target: "≤ 2×", met: many <= 2 * Math.max(few, 1) });
  }
  results.latencyMs = { page1, byCursor, page10k, newRoutes: newLatency };

  // Candles of the 5M-swap store against a brute-force scan of its raw rows, on windows drawn
  // from a fixed seed (the candle test does the same on a small store in npm test).
  const names = Object.keys(INTERVAL_SECONDS) as (keyof typeof INTERVAL_SECONDS)[];
  const windows = fc.sample(fc.record({ interval: fc.constantFrom(...names), end: fc.integer({ min: HEAD_TIME - 47 * 3_600, max: HEAD_TIME }), flip: fc.boolean() }), { seed: 42, numRuns: 12 });
  let equal = 0;
  let candles = 0;
  for (const w of windows) {
    const from = Math.max(HEAD_TIME - 48 * 3_600, w.end - 200 * INTERVAL_SECONDS[w.interval]);
    const [a, b] = w.flip ? [{ id: USDT, decimals: 6 }, { id: KSM, decimals: 12 }] : [{ id: KSM, decimals: 12 }, { id: USDT, decimals: 6 }];
    const body = JSON.parse(await get(`/pools/${a.id}/${b.id}/ohlcv?interval=${w.interval}&from=${from}&to=${w.end}`)) as { candles: unknown[] };
    const expected = await bruteForceCandles(big.db, a, b, w.interval, from, w.end);
    candles += expected.length;
    if (JSON.stringify(body.candles) === JSON.stringify(expected)) equal++;
  }
  rows.push({ what: `candles vs brute-force scan, ${windows.length} random windows (${candles.toLocaleString("en")} candles)`, figure: `${equal} equal`, target: `${windows.length}`, met: equal === windows.length });
  results.candlesChecked = { windows: windows.length, equal, candles };
}

async function ingestion(handle: DbHandle): Promise<void> {
  const n = 100_000;
  const data = Array.from({ length: n }, (_, i) => ({ tokenId: 9, account: `ingest${String(i).padStart(42, "0")}`, balance: String(BigInt(i + 1) * 1_000_000_007n), blockNumber: 1 }));
  const t = performance.now();
  for (let i = 0; i < n; i += 10_000) await handle.db.transaction((tx) => upsertHolders(tx as never, data.slice(i, i + 10_000)));
  const rate = Math.round(n / ((performance.now() - t) / 1000));
  rows.push({ what: "ingestion: holder rows/s", figure: rate.toLocaleString("en"), target: "≥ 50,000 (Postgres)", met: rate >= 50_000 });
  results.ingestRowsPerSecond = rate;
}

async function httpLoad(env: Record<string, string>): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = await child(["bin/tokenpool.mjs", "api"], { ...env, PORT: String(port), HOST: "127.0.0.1", RATE_LIMIT_MAX: "0", LOG_LEVEL: "warn", JWT_SECRET: "b".repeat(32) }, answers(`${base}/health`));
  try {
    const auth = await tokenOf((p, init) => fetch(`${base}${p}`, init));
    const body = await (await fetch(`${base}/oracle/value/${KSM}`)).text();
    const bodyFile = path.join(tmpdir(), `tokenpool-bench-body-${process.pid}.json`);
    writeFileSync(bodyFile, body);
    const ceilings: Record<string, number> = {};
    for (const mode of ["hono", "node"]) {
      const cport = await freePort();
      const c = await child(["--import", "tsx", "bench/ceiling.ts", mode, String(cport), bodyFile], {}, answers(`http://127.0.0.1:${cport}/`));
      const r = await load(`http://127.0.0.1:${cport}/`);
      await stop(c);
      ceilings[mode] = r.rps;
      rows.push({ what: `ceiling: bare ${mode === "hono" ? "Hono" : "node:http"} (${body.length} B JSON) req/s`, figure: `${r.rps.toLocaleString("en")} (p50 ${r.p50} ms, p99 ${r.p99} ms)` });
    }
    const hot: Array<[string, string, boolean]> = [
      ["/oracle/value", `/oracle/value/${KSM}`, false],
      ["/assets/metadata", `/assets/metadata/${USDT}`, true],
      ["/pool/stats", "/pool/stats", false],
      ["pair stats", `/pool/stats/${KSM}/${USDT}`, false],
    ];
    const other: Array<[string, string, boolean]> = [
      ["/assets/holders page 1", `/assets/holders/${BIG}`, true],
      ["/assets/holders page=10000", `/assets/holders/${BIG}?page=10000&limit=50`, true],
      ["/assets (list)", "/assets?sort=marketCap", false],
      ["/pools (list)", "/pools", false],
      ["/oracle/history", `/oracle/history/${KSM}`, false],
      [`pair by symbol`, `/pool/stats/KSM/T${FIRST_POOL_TOKEN}`, false],
      ["/pools/{a}/{b}/swaps", `/pools/${KSM}/${USDT}/swaps`, false],
      ["/pools/{a}/{b}/ohlcv", `/pools/${KSM}/${USDT}/ohlcv?interval=5m`, false],
      ["/accounts/{address}", `/accounts/${WALLET}`, true],
      ["/assets/{id}/history", `/assets/${BIG}/history?interval=15m`, true],
    ];
    const http: Record<string, unknown> = {};
    for (const [label, p, needsAuth] of [...hot, ...other]) {
      const r = await load(`${base}${p}`, needsAuth ? auth : {});
      http[label] = r;
      const isHot = hot.some(([l]) => l === label);
      const share = r.rps / ceilings.hono!;
      rows.push({
        what: `${label} req/s${r.errors ? ` (${r.errors} errors!)` : ""}`,
        figure: `${r.rps.toLocaleString("en")} = ${(share * 100).toFixed(0)} % of Hono (p50 ${r.p50} ms, p99 ${r.p99} ms)`,
        ...(isHot ? { target: "≥ 70 % of Hono, p99 ≤ 10 ms", met: share >= 0.7 && r.p99 <= 10 && r.errors === 0 } : {}),
      });
    }
    const rss = peakRssMb(api.pid!);
    rows.push({ what: "API process peak RSS under load (MB)", figure: String(rss), target: "≤ 250 MB", met: rss <= 250 });
    Object.assign(results, { ceilings, http, apiPeakRssMb: rss });
  } finally {
    await stop(api);
  }
}

async function sidecarPeer(genesis: string): Promise<void> {
  const devPort = await freePort();
  const dev = spawn(process.execPath, ["bin/tokenpool.mjs", "devnet"], { env: { ...process.env, DEVNET_GENESIS: genesis, DEVNET_PORT: String(devPort), DEVNET_SWAP_INTERVAL_MS: "3600000", LOG_LEVEL: "error" }, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    dev.stdout!.on("data", (d: Buffer) => d.toString().includes("devnet: ws://") && resolve());
    dev.once("exit", (code) => reject(new Error(`devnet exited ${code}`)));
  });
  const wsUrl = `ws://127.0.0.1:${devPort}`;
  const tpPort = await freePort();
  const scPort = await freePort();
  const dataDir = path.join(tmpdir(), `tokenpool-bench-peer-${process.pid}`);
  const tp = await child(["bin/tokenpool.mjs", "start"], { WS_URL: wsUrl, DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", PORT: String(tpPort), HOST: "127.0.0.1", RATE_LIMIT_MAX: "0", LOG_LEVEL: "warn", ORACLE_MIN_LIQUIDITY_USD: "1", JWT_SECRET: "b".repeat(32) }, async () => {
    const res = await fetch(`http://127.0.0.1:${tpPort}/pool/stats`);
    return res.ok && ((await res.json()) as { totalPools: number }).totalPools > 0;
  });
  const sc = await child(["node_modules/@substrate/api-sidecar/build/src/main.js"], { SAS_SUBSTRATE_URL: wsUrl, SAS_EXPRESS_PORT: String(scPort), SAS_EXPRESS_BIND_HOST: "127.0.0.1", SAS_LOG_LEVEL: "error" }, answers(`http://127.0.0.1:${scPort}/blocks/head/header`));
  try {
    const auth = await tokenOf((p, init) => fetch(`http://127.0.0.1:${tpPort}${p}`, init));
    const pairs: Array<[string, string, string, Record<string, string>, number]> = [
      ["asset", `http://127.0.0.1:${scPort}/pallets/assets/${USDT}/asset-info`, `http://127.0.0.1:${tpPort}/assets/metadata/${USDT}`, auth, 40],
      ["pools", `http://127.0.0.1:${scPort}/pallets/asset-conversion/liquidity-pools`, `http://127.0.0.1:${tpPort}/pool/stats`, {}, 15],
    ];
    const peer: Record<string, unknown> = {};
    for (const [label, scUrl, tpUrl, headers, target] of pairs) {
      const s = await load(scUrl);
      const t = await load(tpUrl, headers);
      const ratio = t.rps / Math.max(1, s.rps);
      peer[label] = { sidecar: s, tokenpool: t, ratio };
      rows.push({ what: `vs api-sidecar, ${label} route: req/s`, figure: `${t.rps.toLocaleString("en")} vs ${s.rps.toLocaleString("en")} = ${ratio.toFixed(1)}×${s.errors ? ` (sidecar ${s.errors} errors)` : ""}`, target: `≥ ${target}×`, met: ratio >= target && t.errors === 0 });
    }
    results.sidecar = peer;
  } finally {
    await stop(sc);
    await stop(tp);
    await stop(dev);
  }
}

async function main(): Promise<void> {
  log(`synthetic store, scale ${SCALE}…`);
  const big = await freshStore({ onDisk: true });
  const small = await freshStore();
  try {
    await generate(big.handle.db, scaled(FULL), log);
    await generate(small.handle.db, { ...SMALL_SWAPS, bigHolders: Math.min(SMALL_SWAPS.bigHolders, scaled(FULL).bigHolders) }, () => {});
    results.store = big.label;
    log("latencies…");
    await latencies(big.handle, small.handle);
    await ingestion(small.handle);
    await big.handle.close(); // PGlite: one process per DATA_DIR — the API child opens it next
    log("HTTP load…");
    await httpLoad(big.env);
  } finally {
    await big.drop();
    await small.drop();
  }
  const genesis = process.env.DEVNET_GENESIS;
  if (genesis) {
    log("api-sidecar peer on the devnet…");
    await sidecarPeer(genesis);
  } else rows.push({ what: "vs api-sidecar", figure: "skipped: set DEVNET_GENESIS" });
  console.log(`\nTokenPool bench — ${results.store}, scale ${SCALE}, ${CONNECTIONS} connections × ${SECONDS} s\n`);
  console.table(rows.map((r) => ({ what: r.what, figure: r.figure, target: r.target ?? "", met: r.met === undefined ? "" : r.met ? "yes" : "NO" })));
  results.rows = rows;
  writeFileSync(new URL("./results.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
process.exit(0);
