/**
 * `npm run bench:startup`: what the build step (npm run build: dist/) changes for a process that
 * starts — the sources through the tsx loader (what `tokenpool` ran before) against the compiled
 * build (what it runs now), alternated, BENCH_RUNS pairs (default 5):
 * - `tokenpool api` on a PostgreSQL database of its own (TEST_DATABASE_URL), or an embedded
 *   store without one: ms until /health answers, RSS 10 s later (settled), peak RSS.
 * - `tokenpool start` (devnet, indexer and API in one process, embedded store): ms until the
 *   first pool is served, and peak RSS.
 * Medians with min–max. Builds first (scripts/build.mjs).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "../test/support/port.js";
import { currentRssMb, peakRssMb, range, spread, stop } from "./load.js";

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const MODES = { tsx: ["--import", "tsx", "cli/main.ts"], build: ["dist/cli/main.js"] } as const;
type Mode = keyof typeof MODES;

async function until(ready: () => Promise<boolean>, p: ChildProcess, ms = 180_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (p.exitCode !== null) throw new Error(`exited with ${p.exitCode}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("not ready in time");
}

async function once(mode: Mode, command: "api" | "start", env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const p = spawn(process.execPath, [...MODES[mode], command], { env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" }, stdio: ["ignore", "ignore", "inherit"] });
  try {
    const ready =
      command === "api"
        ? async () => (await fetch(`${base}/health`)).status < 500
        : async () => ((await (await fetch(`${base}/pool/stats`)).json()) as { totalPools: number }).totalPools > 0;
    await until(ready, p);
    const ms = performance.now() - started;
    if (command === "api") await new Promise((r) => setTimeout(r, 10_000));
    return { ms, rss: currentRssMb(p.pid!), peak: peakRssMb(p.pid!) };
  } finally {
    await stop(p);
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const name = `tokenpool_startup_${process.pid}`;
  const admin = url ? postgres(url, { max: 1, onnotice: () => {} }) : undefined;
  const dirs: string[] = [];
  let apiEnv: Record<string, string>;
  if (admin && url) {
    await admin.unsafe(`create database "${name}"`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    apiEnv = { DATABASE_URL: target.toString() };
    execFileSync(process.execPath, ["dist/cli/main.js", "migrate"], { env: { ...process.env, ...apiEnv, LOG_LEVEL: "warn" } });
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-startup-"));
    dirs.push(dir);
    apiEnv = { DATA_DIR: dir, DATABASE_URL: "" };
  }
  const out: Record<string, Record<Mode, Array<{ ms: number; rss: number; peak: number }>>> = { api: { tsx: [], build: [] }, start: { tsx: [], build: [] } };
  try {
    for (let i = 0; i < RUNS; i++) {
      // Alternated, and each pair in the other order the next time.
      const order: Mode[] = i % 2 === 0 ? ["tsx", "build"] : ["build", "tsx"];
      for (const mode of order) out.api![mode].push(await once(mode, "api", apiEnv));
      for (const mode of order) {
        const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-startup-"));
        dirs.push(dir);
        out.start![mode].push(await once(mode, "start", { DATA_DIR: dir, DATABASE_URL: "", DEVNET_PORT: String(await freePort()) }));
      }
    }
  } finally {
    if (admin) {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
  const rows = [];
  for (const [command, modes] of Object.entries(out)) {
    for (const [mode, runs] of Object.entries(modes)) {
      rows.push({
        command: `tokenpool ${command}`,
        runs: mode === "tsx" ? "sources through tsx (before)" : "dist/ (npm run build)",
        [command === "api" ? "ms to /health" : "ms to a pool served"]: range(spread(runs.map((r) => Math.round(r.ms)))),
        "RSS settled (MB)": command === "api" ? range(spread(runs.map((r) => r.rss))) : "",
        "peak RSS (MB)": range(spread(runs.map((r) => r.peak))),
      });
    }
  }
  console.log(`\nTokenPool startup — ${RUNS} alternated runs each; median (min–max); api on ${admin ? "PostgreSQL" : "PGlite"}\n`);
  console.table(rows);
}

await main();
process.exit(0);
