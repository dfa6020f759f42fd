/**
 * `npm run bench:worker`: blocks per second of one backfill worker process (issue 40), against
 * the bench node (bench/node: today's Polkadot Asset Hub traffic, synthesized, answered at near
 * zero cost by a process of its own), into a fresh Postgres database per run
 * (BENCH_DATABASE_URL / TEST_DATABASE_URL).
 *
 * Measures, BENCH_RUNS times each (median and spread): one worker at 0 ms, one worker at 50 ms
 * round trip (25 ms each way) with the default prefetch (32) and with BENCH_PREFETCH_FAR (default
 * 128), and two worker processes side by side on halves of the range. Each run prints blocks/s,
 * the worker's CPU (its own process.cpuUsage over the run), the node's CPU (from /proc), the load
 * average, and the rows written (transfers, swaps, fees); a run that writes no transfers, no
 * swaps or no fees fails the bench. The rows go to bench/results.json (part "worker", one per measure: bench/results.ts).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { transferKindCode } from "../db/schema/transfers.js";
import { startBenchNode, type BenchNode } from "./node/start.js";
import { recordResults, type Row } from "./results.js";
import { freshStore } from "./stores.js";

const BLOCKS = Number(process.env.BENCH_WORKER_BLOCKS ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 1_000);
const PREFETCH = Number(process.env.BENCH_PREFETCH ?? 32);
const PREFETCH_FAR = Number(process.env.BENCH_PREFETCH_FAR ?? 128);
/** Extra node flags for the worker processes (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
const WORKER_FLAGS = (process.env.BENCH_WORKER_FLAGS ?? "").split(" ").filter(Boolean);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

interface WorkerResult {
  blocks: number;
  seconds: number;
  cpuSeconds: number;
}

function runWorker(env: Record<string, string>): Promise<WorkerResult> {
  const child = spawn(process.execPath, [...WORKER_FLAGS, "--import", "tsx", new URL("./worker-run.ts", import.meta.url).pathname], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (code !== 0 || !line) reject(new Error(`a worker exited (${code}): ${out}`));
      else resolve(JSON.parse(line) as WorkerResult);
    }),
  );
}

/** CPU seconds a process has used so far (utime + stime in /proc/<pid>/stat, 100 ticks a second). */
function processCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Run {
  blocksPerSecond: number;
  workerCpuPct: number;
  nodeCpuPct: number;
  load: number;
  /** Worker CPU per block: what the load average cannot move. */
  cpuMsPerBlock: number;
  rows: { transfers: number; fees: number; swaps: number; reserves: number };
}

async function count(db: { execute(q: unknown): Promise<unknown> }, query: ReturnType<typeof sql>): Promise<number> {
  const r = (await db.execute(query)) as unknown;
  const rows = (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { n: number }[];
  return Number(rows[0]!.n);
}

/** One run: `workers` processes, each on its share of blocks 1..BLOCKS, into a fresh database. */
async function measure(node: BenchNode, workers: number, prefetch: number): Promise<Run> {
  const store = await freshStore();
  try {
    const share = Math.ceil(BLOCKS / workers);
    const node0 = processCpu(node.child.pid!);
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        runWorker({ ...store.env, WS_URL: node.url, FROM: String(1 + i * share), TO: String(Math.min(BLOCKS, (i + 1) * share)), CHUNK: String(CHUNK), PREFETCH: String(prefetch) }),
      ),
    );
    const wall = (performance.now() - t0) / 1000;
    const nodeCpu = processCpu(node.child.pid!) - node0;
    const blocks = results.reduce((s, r) => s + r.blocks, 0);
    // Wall time of the slowest worker's indexing (process start-up excluded).
    const seconds = Math.max(...results.map((r) => r.seconds));
    const db = store.handle.db as unknown as { execute(q: unknown): Promise<unknown> };
    const rows = {
      transfers: await count(db, sql`select count(*)::int as n from transfers`),
      fees: await count(db, sql`select count(*)::int as n from transfers where kind = ${transferKindCode("fee")}::smallint`),
      swaps: await count(db, sql`select count(*)::int as n from swaps`),
      reserves: await count(db, sql`select count(*)::int as n from pool_reserves`),
    };
    if (rows.transfers === 0 || rows.fees === 0 || rows.swaps === 0) throw new Error(`the run indexed nothing useful: ${JSON.stringify(rows)}`);
    const cpu = results.reduce((s, r) => s + r.cpuSeconds, 0);
    return { blocksPerSecond: blocks / seconds, cpuMsPerBlock: (cpu * 1000) / blocks, workerCpuPct: (cpu / workers / seconds) * 100, nodeCpuPct: (nodeCpu / wall) * 100, load: loadavg()[0]!, rows };
  } finally {
    await store.drop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function series(label: string, latencyMs: number, workers: number, prefetch: number): Promise<Record<string, unknown>> {
  const node = await startBenchNode({ blocks: BLOCKS, latencyMs });
  try {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await measure(node, workers, prefetch);
      log(`${label} run ${i + 1}: ${r.blocksPerSecond.toFixed(1)} blocks/s, ${r.cpuMsPerBlock.toFixed(2)} CPU ms a block, worker CPU ${r.workerCpuPct.toFixed(0)} %, node CPU ${r.nodeCpuPct.toFixed(0)} %, load ${r.load.toFixed(2)}, rows ${JSON.stringify(r.rows)}`);
      runs.push(r);
    }
    const bps = runs.map((r) => r.blocksPerSecond);
    return {
      what: label,
      blocksPerSecond: { median: Number(median(bps).toFixed(1)), min: Number(Math.min(...bps).toFixed(1)), max: Number(Math.max(...bps).toFixed(1)) },
      perWorker: Number((median(bps) / workers).toFixed(1)),
      cpuMsPerBlock: Number(median(runs.map((r) => r.cpuMsPerBlock)).toFixed(2)),
      workerCpuPct: Math.round(median(runs.map((r) => r.workerCpuPct))),
      nodeCpuPct: Math.round(median(runs.map((r) => r.nodeCpuPct))),
      load: runs.map((r) => Number(r.load.toFixed(2))),
      rows: runs[0]!.rows,
      eventsPerBlock: node.eventsPerBlock,
    };
  } finally {
    node.stop();
  }
}

async function main(): Promise<void> {
  log(`bench:worker — ${BLOCKS} blocks, chunks of ${CHUNK}, ${RUNS} runs each`);
  const measures: Array<[string, number, number, number, string]> = [
    ["1 worker, 0 ms RTT", 0, 1, PREFETCH, "≥ 200 blocks/s"],
    [`1 worker, 50 ms RTT, prefetch ${PREFETCH}`, 25, 1, PREFETCH, "≥ 60 blocks/s"],
    [`1 worker, 50 ms RTT, prefetch ${PREFETCH_FAR}`, 25, 1, PREFETCH_FAR, "≥ 60 blocks/s"],
    ["2 worker processes, 0 ms RTT", 0, 2, PREFETCH, ""],
  ];
  const only = process.env.BENCH_WORKER_ONLY;
  const date = new Date().toISOString();
  const figures: Record<string, unknown>[] = [];
  for (const [label, latency, workers, prefetch, target] of measures) {
    if (only && !label.includes(only)) continue;
    figures.push({ ...(await series(label, latency, workers, prefetch)), target });
  }
  console.table(figures.map((f) => ({ what: f.what, "blocks/s": JSON.stringify(f.blocksPerSecond), "per worker": f.perWorker, "CPU ms/block": f.cpuMsPerBlock, "worker CPU %": f.workerCpuPct, "node CPU %": f.nodeCpuPct, load: (f.load as number[]).join("/"), rows: JSON.stringify(f.rows) })));
  // One row per measure (bench/results.ts): a partial run (BENCH_WORKER_ONLY) replaces only its own.
  recordResults(figures.map((f) => workerRow(f as unknown as Figure)), date, { worker: { blocks: BLOCKS, chunk: CHUNK, runs: RUNS, figures } });
}

interface Figure {
  what: string;
  target: string;
  blocksPerSecond: { median: number; min: number; max: number };
  perWorker: number;
  cpuMsPerBlock: number;
  workerCpuPct: number;
  nodeCpuPct: number;
  load: number[];
  eventsPerBlock: number;
}

/** A measure's row: its name stays the same from run to run, the outcome is in the figure. */
function workerRow(f: Figure): Row {
  const b = f.blocksPerSecond;
  const goal = Number(f.target.replace(/[^\d]/g, ""));
  return {
    what: `backfill worker: ${f.what} (blocks/s; bench node, ${f.eventsPerBlock} events a block)`,
    figure: `${b.median} (${b.min}–${b.max}); ${f.perWorker} per worker; ${f.cpuMsPerBlock} CPU ms a block (≈ ${Math.round(1000 / f.cpuMsPerBlock)} blocks per CPU-second); worker CPU ${f.workerCpuPct} %, node CPU ${f.nodeCpuPct} %; load ${f.load.join("/")}`,
    ...(f.target ? { target: f.target, met: b.median >= goal } : {}),
    part: "worker",
    median: b.median,
    min: b.min,
    max: b.max,
  };
}

await main();
process.exit(0);
