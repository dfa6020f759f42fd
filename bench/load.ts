/**
 * HTTP load for the bench: autocannon runs, alternated with a reference so that both see the
 * same machine (a 2-core box whose ceiling moves ±30 % between runs), and the median and spread
 * of what they give.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import type { Row } from "./results.js";

export const CONNECTIONS = 64;

export interface LoadResult {
  rps: number;
  /** 2xx answers per second: what a client got, refusals (429, 503) not counted. */
  ok: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answers received in all. */
  requests: number;
  /** The server's CPU time (user + system) per answer, in µs, when measured (onServer). */
  cpuUs?: number;
}

/** `rate`: requests per second over all connections (unset: as many as the server answers). */
export async function load(url: string, seconds: number, headers: Record<string, string> = {}, rate?: number): Promise<LoadResult> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, ...(rate ? { overallRate: rate } : {}) });
  return { rps: Math.round(r.requests.average), ok: Math.round(r["2xx"] / seconds), p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts, requests: r.requests.total };
}

/** A process's CPU time so far (user + system), in ms, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15 of stat)
}

/**
 * `run`, with the CPU the server process `pid` spent per answer during it: on a 2-core box the
 * load generator shares the machine, so throughput also measures the client; CPU per answer is
 * the server's own cost.
 */
export async function onServer(pid: number, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = cpuMs(pid);
  const r = await run();
  return { ...r, cpuUs: r.requests > 0 ? ((cpuMs(pid) - before) * 1000) / r.requests : undefined };
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The `q` quantile (0–1) of `values`, nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/**
 * `ours, reference, reference, ours …` `runs` pairs; each pair's ratio ours/reference. One run of
 * each comes first, unmeasured: a Node server under a new load takes seconds to reach its pace
 * (measured on a fresh process: 43k → 58k → 66k req/s over three 4 s runs, bare Hono alike), so
 * an unwarmed first run would compare a cold process with a warm one.
 */
export async function alternate(runs: number, ours: () => Promise<LoadResult>, reference: () => Promise<LoadResult>) {
  await ours();
  await reference();
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  // The order turns each run (ours first, then the reference first): whatever a run leaves
  // behind for the next one (sockets in TIME_WAIT, the client's heap) falls on both alike.
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      a.push(await ours());
      b.push(await reference());
    } else {
      b.push(await reference());
      a.push(await ours());
    }
  }
  return {
    ours: a,
    reference: b,
    ratio: spread(a.map((r, i) => r.rps / Math.max(1, b[i]!.rps))),
    rps: spread(a.map((r) => r.rps)),
    referenceRps: spread(b.map((r) => r.rps)),
    p99: spread(a.map((r) => r.p99)),
    cpuUs: a.every((r) => r.cpuUs !== undefined) ? spread(a.map((r) => r.cpuUs!)) : undefined,
    referenceCpuUs: b.every((r) => r.cpuUs !== undefined) ? spread(b.map((r) => r.cpuUs!)) : undefined,
    errors: a.reduce((n, r) => n + r.errors, 0),
  };
}

/** `84 % (78–88)` for shares, `41.2× (38.0–44.9)` for multiples. */
export const pct = (s: Spread) => `${(s.median * 100).toFixed(0)} % (${(s.min * 100).toFixed(0)}–${(s.max * 100).toFixed(0)})`;
export const times = (s: Spread) => `${s.median.toFixed(1)}× (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
export const range = (s: Spread, unit = "") => `${fmt(s.median)}${unit} (${fmt(s.min)}–${fmt(s.max)})`;
const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en") : n.toFixed(1));

/** Starts a child and resolves once `ready()` answers. */
export async function child(args: string[], env: Record<string, string>, ready: () => Promise<boolean>): Promise<ChildProcess> {
  const p = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  p.stdout!.resume();
  for (let i = 0; i < 1_500; i++) {
    if (p.exitCode !== null) throw new Error(`${args.join(" ")} exited with ${p.exitCode}`);
    if (await ready().catch(() => false)) return p;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${args.join(" ")} did not become ready`);
}
export const answers = (url: string) => async () => (await fetch(url)).status < 500;
/** Stops a child (SIGTERM) and waits for it; at once if it has exited already, by a code or a signal. */
export const stop = (p: ChildProcess) => new Promise<void>((r) => (p.exitCode !== null || p.signalCode !== null ? r() : (p.once("exit", () => r()), p.kill("SIGTERM"))));

/**
 * Starts a new peak for peakRssMb (Linux: writing 5 to clear_refs resets VmHWM), so a peak can be
 * measured over one phase — not the start's, when the TypeScript loader compiles every module.
 * False where it cannot (then the peak stays the whole life's).
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

export function currentRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** A bearer token from a new account on the API that `get` reaches. */
export async function tokenOf(get: (p: string, init?: RequestInit) => Promise<Response>): Promise<Record<string, string>> {
  const res = await get("/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `bench${Date.now()}${Math.random()}@example.com`, password: "correct horse battery" }) });
  return { authorization: `Bearer ${((await res.json()) as { data: { token: string } }).data.token}` };
}

/** The median and spread of `n` timed calls of `f`, in ms (two decimals). */
export async function timings(n: number, f: () => Promise<unknown>): Promise<Spread> {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await f();
    t.push(performance.now() - started);
  }
  const s = spread(t);
  return { median: Number(s.median.toFixed(2)), min: Number(s.min.toFixed(2)), max: Number(s.max.toFixed(2)) };
}

/** The median of `n` timed calls of `f`, in ms (two decimals). */
export async function median(n: number, f: () => Promise<unknown>): Promise<number> {
  return (await timings(n, f)).median;
}

/**
 * The machine's speed this run, as a row: one core's time per iteration of a plain JavaScript
 * loop, and the store's round trip (`select 1`, median of 200). These shared machines have varied
 * threefold and more between days, mostly in system calls and loopback round trips (0.4–0.7 ms
 * a `select 1` on a slow day) while the loop stayed ≈ 1.1 ns: each part's figures carry both.
 */
export async function machineSpeed(ping: () => Promise<unknown>): Promise<Row> {
  const loop = (n: number): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += i;
    return sum;
  };
  loop(1_000_000); // optimised before it is timed
  const start = process.hrtime.bigint();
  loop(100_000_000);
  const ns = Number(process.hrtime.bigint() - start) / 100_000_000;
  const trip = await timings(200, ping);
  return { what: "machine speed: a plain JS loop, ns per iteration; the store's round trip (select 1), ms", figure: `${ns.toFixed(1)} ns; ${range(trip, " ms")}` };
}
