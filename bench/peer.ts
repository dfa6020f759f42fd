/** Section 6 of `npm run bench`: the api-sidecar peer and `tokenpool start`'s memory (see bench/suite.ts). */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../test/support/port.js";
import { alternate, answers, child, load, peakRssMb, range, spread, stop, times, tokenOf, type LoadResult } from "./load.js";
import { LOAD_LIMITS, results, rows, RUNS, SECONDS } from "./settings.js";
import { freshStore } from "./stores.js";
import { KSM, USDT } from "./synthetic.js";

export async function sidecarPeer(genesis: string | undefined): Promise<void> {
  const pg = await freshStore();
  if (pg.label !== "PostgreSQL") {
    await pg.drop();
    rows.push({ what: "vs api-sidecar", figure: "skipped: the like-for-like peer is `tokenpool api` on Postgres (set BENCH_DATABASE_URL or TEST_DATABASE_URL)" });
    return;
  }
  await pg.handle.close();
  const devPort = await freePort();
  const dev = spawn(process.execPath, ["bin/tokenpool.mjs", "devnet"], { env: { ...process.env, ...(genesis ? { DEVNET_GENESIS: genesis } : {}), DEVNET_PORT: String(devPort), DEVNET_SWAP_INTERVAL_MS: "3600000", LOG_LEVEL: "error" }, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    dev.stdout!.on("data", (d: Buffer) => d.toString().includes("devnet: ws://") && resolve());
    dev.once("exit", (code) => reject(new Error(`devnet exited ${code}`)));
  });
  const wsUrl = `ws://127.0.0.1:${devPort}`;
  const common = { WS_URL: wsUrl, HOST: "127.0.0.1", LOG_LEVEL: "warn", ORACLE_MIN_LIQUIDITY_USD: "1", JWT_SECRET: randomBytes(32).toString("base64url"), REDIS_URL: "", ...LOAD_LIMITS };
  const procs: ChildProcess[] = [];
  const dataDir = await mkdtemp(path.join(tmpdir(), "tokenpool-bench-peer-"));
  try {
    const scPort = await freePort();
    procs.push(await child(["node_modules/@substrate/api-sidecar/build/src/main.js"], { SAS_SUBSTRATE_URL: wsUrl, SAS_EXPRESS_PORT: String(scPort), SAS_EXPRESS_BIND_HOST: "127.0.0.1", SAS_LOG_LEVEL: "error" }, answers(`http://127.0.0.1:${scPort}/blocks/head/header`)));
    const sidecar = {
      asset: `http://127.0.0.1:${scPort}/pallets/assets/${USDT}/asset-info`,
      pools: `http://127.0.0.1:${scPort}/pallets/asset-conversion/liquidity-pools`,
    };
    procs.push(await child(["bin/tokenpool.mjs", "indexer"], { ...common, ...pg.env }, async () => true));
    const indexed = (port: number) => async () => {
      const res = await fetch(`http://127.0.0.1:${port}/pool/stats`);
      return res.ok && ((await res.json()) as { totalPools: number }).totalPools > 0;
    };
    const peer: Record<string, unknown> = {};
    /** Both warmed, then sidecar and TokenPool alternated RUNS times on each route. */
    const compare = async (name: string, tpPort: number, target: number | undefined) => {
      const tp = `http://127.0.0.1:${tpPort}`;
      const auth = await tokenOf((p, init) => fetch(`${tp}${p}`, init));
      for (const [label, scUrl, tpPath, headers] of [
        ["asset", sidecar.asset, `/assets/metadata/${USDT}`, auth],
        ["pools", sidecar.pools, "/pool/stats", {}],
      ] as const) {
        await load(scUrl, 1);
        await load(`${tp}${tpPath}`, 1, headers);
        // Answers served (2xx) per second on both sides: a refusal is fast, and counting it as an
        // answer made a server that turns most of a flood away look quick.
        const served = async (r: Promise<LoadResult>) => ({ ...(await r), rps: (await r).ok });
        const r = await alternate(RUNS, () => served(load(`${tp}${tpPath}`, SECONDS, headers)), () => served(load(scUrl, SECONDS)));
        // Warmed (the response cache), the pools answer is bigger than the asset's: 15× there.
        const t = label === "pools" && target === 40 ? 15 : target;
        peer[`${name} ${label}`] = { ratio: r.ratio, tokenpool: r.rps, sidecar: r.referenceRps, errors: r.errors, tokenpoolP99: r.p99 };
        rows.push({
          what: `vs api-sidecar, ${label} route, ${name}: answers/s`,
          figure: `${times(r.ratio)}: ${range(r.rps)} vs ${range(r.referenceRps)}${r.errors ? `; ${r.errors} refused or failed` : ""}`,
          ...(t === undefined ? {} : { target: `≥ ${t}×`, met: r.ratio.median >= t && r.errors === 0 }),
        });
      }
    };
    for (const [name, env, target] of [
      ["`tokenpool api` on Postgres, warmed", {}, 40],
      // The load generator is one address with 64 connections standing for many clients: each
      // client's share of the read budget (API_READS_PER_CLIENT, 4) would turn most of it away.
      ["`tokenpool api`, cache off (RESPONSE_CACHE_MB=0)", { RESPONSE_CACHE_MB: "0", API_READS_PER_CLIENT: "64" }, 1],
    ] as const) {
      const tpPort = await freePort();
      const api = await child(["bin/tokenpool.mjs", "api"], { ...common, ...pg.env, ...env, PORT: String(tpPort) }, indexed(tpPort));
      try {
        await compare(name, tpPort, target);
      } finally {
        await stop(api);
      }
    }
    for (const p of procs.splice(1)) await stop(p); // the indexer: `tokenpool start` indexes for itself
    // The embedded default under the same load: indexer, API and PGlite in one process.
    const startPort = await freePort();
    const start = await child(["bin/tokenpool.mjs", "start"], { ...common, DATA_DIR: dataDir, DATABASE_URL: "", PORT: String(startPort) }, indexed(startPort));
    try {
      const auth = await tokenOf((p, init) => fetch(`http://127.0.0.1:${startPort}${p}`, init));
      const devRoutes: Array<[string, boolean]> = [[`/assets/metadata/${USDT}`, true], ["/pool/stats", false], [`/oracle/value/${KSM}`, false], ["/pools", false], ["/assets", false], [`/assets/holders/${USDT}`, true], [`/pool/stats/${KSM}/${USDT}`, false], [`/pools/${KSM}/${USDT}/ohlcv?interval=5m`, false]];
      const served: number[] = [];
      for (const [p, needsAuth] of devRoutes) served.push((await load(`http://127.0.0.1:${startPort}${p}`, SECONDS, needsAuth ? auth : {})).rps);
      const rss = peakRssMb(start.pid!);
      rows.push({ what: `\`tokenpool start\` (PGlite) peak RSS under load, ${devRoutes.length} routes at ${range(spread(served))} req/s`, measure: "`tokenpool start` (PGlite) peak RSS under load", figure: `${rss} MB`, target: "≤ 400 MB", met: rss <= 400 });
      results.startPeakRssMb = rss;
    } finally {
      await stop(start);
    }
    results.sidecar = peer;
  } finally {
    for (const p of procs) await stop(p);
    await stop(dev);
    await pg.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

