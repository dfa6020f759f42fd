/**
 * A diagnostic for "reads under ingest, pinned" (bench/under-ingest.ts), no target: the API and
 * the load on core 0, PostgreSQL on core 1, as there, and two routes read at a constant 5,000 req/s
 * (bench/open-loop.ts; autocannon's bursts before 2026-11-29, seventh session) while
 * core 1 is idle, busy with a plain CPU spin (no store at all), busy streaming memory (64 MB
 * copies), or running the real ingest (bench/ingest-load.ts) — then idle again. What a spin or a
 * memory stream on the other core does to core 0's p99 is not interference through the store:
 * it is the floor of what the pinned form can tell on the machine it runs on.
 *
 *   npx tsx bench/pinned-controls.ts   (TEST_DATABASE_URL or BENCH_DATABASE_URL; RUNS, default 5)
 *
 * A small store (20,000 holders of the big token; the wallet's 500 tokens and 50 LP positions as
 * in the full one), so it takes about 3 minutes.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { freshStore } from "./stores.js";
import { generate, SMALL_SWAPS, WALLET, KSM } from "./synthetic.js";
import { answers, child, quantile, stop, tokenOf } from "./load.js";
import { openLoop } from "./open-loop.js";
import { allCpus, cannotPin, pin, postgresPids } from "./pin.js";
import { LOAD_LIMITS } from "./settings.js";

const why = cannotPin();
if (why) {
  console.log(`pinned controls: skipped: ${why}`);
  process.exit(0);
}
const store = await freshStore({ onDisk: true });
await generate(store.handle.db, { ...SMALL_SWAPS, bigHolders: 20_000 });
await store.handle.close();
const port = 18000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const api = await child(["bin/tokenpool.mjs", "api"], { ...store.env, ...LOAD_LIMITS, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", JWT_SECRET: randomBytes(32).toString("base64url"), REDIS_URL: "" }, answers(`${base}/health`));
const hog = (kind: string): ChildProcess => {
  const code = kind === "spin" ? "for(;;){}" : "const a=Buffer.alloc(64<<20),b=Buffer.alloc(64<<20);for(;;){a.copy(b)}";
  const p = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  pin([p.pid!], "1");
  return p;
};
const ingest = async () => {
  const p = spawn(process.execPath, ["--import", "tsx", "bench/ingest-load.ts"], { env: { ...process.env, ...store.env }, stdio: ["ignore", "pipe", "inherit"] });
  pin([p.pid!], "1");
  await new Promise((r) => p.stdout!.once("data", r));
  return p;
};
try {
  const auth = await tokenOf((p, init) => fetch(`${base}${p}`, init));
  pin([process.pid, api.pid!], "0");
  pin(postgresPids(), "1");
  const RUNS = Number(process.env.RUNS ?? 5);
  for (const [label, path, h] of [["accounts", `/accounts/${WALLET}`, auth], ["oracle", `/oracle/value/${KSM}`, {}]] as const) {
    await openLoop(`${base}${path}`, 2, 5000, h);
    for (const mode of ["idle", "spin", "memory", "ingest", "idle"]) {
      const p = mode === "spin" || mode === "memory" ? hog(mode) : mode === "ingest" ? await ingest() : undefined;
      const p99 = [];
      let errors = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await openLoop(`${base}${path}`, 3, 5000, h);
        p99.push(quantile(r.latencies, 0.99));
        errors += r.errors;
      }
      if (p) { p.kill("SIGTERM"); await new Promise((r) => p.once("exit", r)); }
      p99.sort((a, b) => a - b);
      console.log(label, mode.padEnd(7), "p99 median", p99[Math.floor(RUNS / 2)], "all", p99.join(" "), errors ? `${errors} errors!` : "");
    }
  }
} finally {
  pin([process.pid, api.pid!, ...postgresPids()], allCpus());
  await stop(api);
  await store.drop();
}
process.exit(0);
