/** Section 5 of `npm run bench`: reads under ingest (see bench/suite.ts). */
import { spawn, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { createInterface } from "node:readline";
import postgres from "postgres";
import { quantile, range, spread, stop, type Spread } from "./load.js";
import { loadProcess, type OpenLoopResult } from "./open-loop.js";
import { allCpus, cannotPin, pin, postgresPids } from "./pin.js";
import { INGEST_RATE, log, results, ROUTES as ALL_ROUTES, rows, RUNS, SECONDS, wanted } from "./settings.js";
import { BIG, HEAD, INGEST } from "./synthetic.js";

/** The routes measured: all, or those BENCH_ROUTES names (a diagnostic run of a few). */
const ROUTES = ALL_ROUTES.filter(([label]) => wanted(label));

type Page = { totalHolders: number; holders: { balance: string }[] };
/** Per route and condition: the p99 and p50 of all its runs' answers pooled, each run's p99, the answers and errors. */
type Figures = Record<string, { p99: number; runsP99: Spread; p50: number; answers: number; errors: number; lateMax: number }>;

/**
 * The read routes at a constant rate (INGEST_RATE, open loop: bench/open-loop.ts, requests evenly
 * spaced and timed from when each was due, from a process of its own), idle and while bench/ingest-load.ts commits a
 * block a second — in three forms: as the processes fall on the machine's cores; pinned
 * (bench/pin.ts: the API and the load generator on core 0, the indexer and Postgres on core 1);
 * and, as a diagnostic without a target, pinned with the indexer's own PostgreSQL backends at the
 * lowest CPU priority (nice 19): whether the reads' backends gain when the writer yields core 1 to
 * them (on 2026-11-29 they lost: 9 of 14 routes above 1.5× against 1 of 14 at equal priority).
 *
 * Idle and busy runs alternate route by route on one ingest child, paused between busy runs
 * (schedule()), and a condition's p99 is that of all its answers pooled (RUNS × SECONDS ×
 * INGEST_RATE of them). Before 2026-11-29 (seventh session) the load was autocannon's
 * `overallRate` (a burst at full speed each second, and 1 ms phantom answers: see
 * bench/open-loop.ts), every idle run came first and every busy run minutes later, and the figure
 * was the median of each run's p99.
 *
 * Meanwhile a checker reads the big token's first holders page over and over: its balances carry
 * the block number that wrote them and its count grows by INGEST.NEW_PER_BLOCK a block, so a page
 * that mixes two blocks shows.
 */
export async function underIngest(base: string, env: Record<string, string>, auth: Record<string, string>, apiPid: number): Promise<void> {
  const shared = await form(base, env, auth);
  report("", "≤ 2×", 2, shared);
  const why = cannotPin();
  if (why) {
    rows.push({ what: "under ingest, pinned", figure: `skipped: ${why}` });
    results.underIngest = { rate: INGEST_RATE, shared };
    return;
  }
  const pinned = await form(base, env, auth, { reads: [process.pid, apiPid], writes: postgresPids() });
  report(", pinned (API and load on core 0, indexer and Postgres on core 1)", "≤ 1.5×", 1.5, pinned);
  const yielding = await form(base, env, auth, { reads: [process.pid, apiPid], writes: postgresPids(), writerNice: 19 });
  // A diagnostic, not a target: whether reads gain when the writer's backends yield core 1 to them.
  report(", pinned, the indexer's backends at nice 19", undefined, undefined, yielding);
  results.underIngest = { rate: INGEST_RATE, shared, pinned, yielding };
}

function report(how: string, target: string | undefined, bound: number | undefined, f: Awaited<ReturnType<typeof form>>): void {
  const ms = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
  for (const [label] of ROUTES) {
    const a = f.idle[label]!;
    const b = f.busy[label]!;
    const ratio = b.p99 / Math.max(1, a.p99);
    const errors = a.errors + b.errors;
    rows.push({
      what: `under ingest at ${INGEST_RATE.toLocaleString("en")} req/s${how}: ${label} p99 vs idle`,
      // The p99 of all a condition's answers, then each run's p99 (median, min–max) in brackets.
      figure: `${ms(b.p99)} ms (runs ${range(b.runsP99)}) vs ${ms(a.p99)} ms (runs ${range(a.runsP99)}) = ${ratio.toFixed(2)}×; ${RUNS} × ${SECONDS} s alternated, constant rate${errors ? `; ${errors} errors!` : ""}`,
      ...(target !== undefined && bound !== undefined ? { target, met: ratio <= bound && errors === 0 } : {}),
    });
  }
  rows.push({
    what: `under ingest${how}: holders pages read that mix two blocks`,
    figure: `${f.mixed.length} of ${f.checked} (${f.blocksSeen} blocks seen)${f.ingest ? `; ${f.ingest.blocks} blocks committed, ${f.ingest.commitMs} ms each (max ${f.ingest.commitMsMax})` : ""}`,
    target: "0",
    met: f.mixed.length === 0 && f.blocksSeen > 2,
  });
}

/** The PostgreSQL backends of the ingest child (its connections carry INGEST_APP as application_name). */
const INGEST_APP = "tokenpool-bench-ingest";
async function backendsOf(databaseUrl: string, app: string): Promise<number[]> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return (await client<{ pid: number }[]>`select pid from pg_stat_activity where application_name = ${app}`).map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** Idle and busy runs alternate, each pair in the other order than the last (idle, busy, busy, idle, …): the machine's drift over a form falls on both sides. */
export function schedule(runs: number): Array<"idle" | "busy"> {
  return Array.from({ length: runs }, (_, i) => (i % 2 ? (["busy", "idle"] as const) : (["idle", "busy"] as const))).flat();
}

/**
 * The ingest child, driven by lines on its stdin (bench/ingest-load.ts): resumed for a busy run,
 * paused (no block under way) for an idle one. A child that has exited fails the form at the next
 * step (alive()), so no run measures "under ingest" without one.
 */
export function ingestControl(child: ChildProcess) {
  const waiting: Array<{ word: string; resolve: () => void; reject: (e: Error) => void }> = [];
  let summary = "";
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.startsWith("{")) summary = line;
    const i = waiting.findIndex((w) => w.word === line);
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve();
  });
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `ingest-load exited (${signal ?? code})`;
    waiting.splice(0).forEach((w) => w.reject(new Error(`${exited} while "${w.word}" was awaited`)));
  });
  const alive = () => {
    if (exited) throw new Error(exited);
  };
  let state: "idle" | "busy" = "busy";
  const expect = (word: string, command: string) =>
    new Promise<void>((resolve, reject) => {
      if (exited) return reject(new Error(exited));
      const timer = setTimeout(() => reject(new Error(`ingest-load: no "${word}" within 60 s`)), 60_000);
      waiting.push({ word, resolve: () => (clearTimeout(timer), resolve()), reject: (e) => (clearTimeout(timer), reject(e)) });
      child.stdin!.write(`${command}\n`);
    });
  return {
    async set(mode: "idle" | "busy"): Promise<void> {
      alive();
      if (mode === state) return;
      await expect(mode === "idle" ? "paused" : "resumed", mode === "idle" ? "pause" : "resume");
      state = mode;
    },
    /** After a run: the child was there all along. */
    alive,
    summary: () => summary,
  };
}

async function form(base: string, env: Record<string, string>, auth: Record<string, string>, cores?: { reads: number[]; writes: number[]; writerNice?: number }) {
  // The load generator: a process of its own, on the reading core with the API when pinned.
  const generator = await loadProcess();
  const unpin = () => pin([...cores!.reads, generator.pid, ...cores!.writes, ...postgresPids()], allCpus());
  try {
    if (cores) {
      pin([...cores.reads, generator.pid], "0");
      pin(cores.writes, "1");
    }
    const holdersPage = `${base}/assets/holders/${BIG}?limit=50`;
    const before = (await (await fetch(holdersPage, { headers: auth })).json()) as Page;
    // The synthetic balances end in …000001 (no ingest block yet: the synthetic head); block n's
    // end in n. The pinned form starts where the first form's ingest stopped.
    const blockOf = (residue: number) => (residue === 1 ? HEAD : residue);
    const from = blockOf(Number(BigInt(before.holders[0]!.balance) % 1_000_000n));
    const ingest = await new Promise<ChildProcess>((resolve, reject) => {
      const p = spawn(process.execPath, ["--import", "tsx", "bench/ingest-load.ts"], { env: { ...process.env, ...env, PGAPPNAME: INGEST_APP }, stdio: ["pipe", "pipe", "inherit"] });
      if (cores) pin([p.pid!], "1");
      p.stdout!.once("data", () => resolve(p));
      p.once("exit", (code) => reject(new Error(`ingest-load exited ${code}`)));
    });
    const control = ingestControl(ingest);
    let checking = true;
    let checked = 0;
    const blocks = new Set<number>();
    const mixed: string[] = [];
    const checker = (async () => {
      while (checking) {
        const page = (await (await fetch(holdersPage, { headers: auth })).json()) as Page;
        const residues = new Set(page.holders.map((h) => Number(BigInt(h.balance) % 1_000_000n)));
        const [block] = [...residues];
        const expected = before.totalHolders + INGEST.NEW_PER_BLOCK * (blockOf(block!) - from);
        checked++;
        blocks.add(block!);
        if (residues.size !== 1 || page.totalHolders !== expected) mixed.push(`balances of block(s) ${[...residues].join("/")} with ${page.totalHolders} holders`);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const idle: Figures = {};
    const busy: Figures = {};
    try {
      // Inside the try: a failure here (no backends found, EPERM) still stops the ingest child.
      if (cores?.writerNice !== undefined) {
        // The child has committed a block: its pool's connections are open. They end with it, so nothing is set back.
        const pids = await backendsOf(env.DATABASE_URL!, INGEST_APP);
        if (pids.length === 0) throw new Error("the ingest child's PostgreSQL backends were not found (application_name)");
        for (const pid of pids) setPriority(pid, cores.writerNice);
        log(`  the ingest's ${pids.length} backends at nice ${cores.writerNice}`);
      }
      log(`  ${cores ? "pinned" : "shared cores"}: idle and under ingest, alternated, constant rate…`);
      for (const [label, p, needsAuth] of ROUTES) {
        const headers = needsAuth ? auth : {};
        // Unmeasured: a route's first second at a new pace (the previous route's answers, cold code paths).
        await generator.run(`${base}${p}`, 1, INGEST_RATE, headers);
        const runs = { idle: [] as OpenLoopResult[], busy: [] as OpenLoopResult[] };
        for (const mode of schedule(RUNS)) {
          await control.set(mode);
          runs[mode].push(await generator.run(`${base}${p}`, SECONDS, INGEST_RATE, headers));
          control.alive();
        }
        for (const [mode, out] of [["idle", idle], ["busy", busy]] as const) {
          const all = runs[mode].flatMap((r) => r.latencies);
          out[label] = {
            p99: quantile(all, 0.99),
            runsP99: spread(runs[mode].map((r) => quantile(r.latencies, 0.99))),
            p50: quantile(all, 0.5),
            answers: all.length,
            errors: runs[mode].reduce((n, r) => n + r.errors, 0),
            lateMax: Math.max(...runs[mode].map((r) => r.lateMax)),
          };
        }
      }
    } finally {
      checking = false;
      await checker;
      await stop(ingest);
    }
    const line = control.summary();
    if (!line) throw new Error("ingest-load ended without its summary (blocks committed, commit times)");
    const stats = JSON.parse(line) as { blocks: number; commitMs: number; commitMsMax: number };
    return { idle, busy, checked, mixed: mixed.slice(0, 10), blocksSeen: blocks.size, ingest: stats };
  } finally {
    // The machine's Postgres serves everything else after the bench: its cores back as they were.
    if (cores) unpin();
    await generator.close();
  }
}
