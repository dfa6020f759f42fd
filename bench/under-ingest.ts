/** Section 5 of `npm run bench`: reads under ingest (see bench/suite.ts). */
import { spawn, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import postgres from "postgres";
import { load, range, spread, stop, type LoadResult } from "./load.js";
import { allCpus, cannotPin, pin, postgresPids } from "./pin.js";
import { INGEST_RATE, log, results, ROUTES as ALL_ROUTES, rows, RUNS, SECONDS, wanted } from "./settings.js";
import { BIG, HEAD, INGEST } from "./synthetic.js";

/** The routes measured: all, or those BENCH_ROUTES names (a diagnostic run of a few). */
const ROUTES = ALL_ROUTES.filter(([label]) => wanted(label));

type Page = { totalHolders: number; holders: { balance: string }[] };
type Figures = Record<string, { p99: ReturnType<typeof spread>; p50: ReturnType<typeof spread>; errors: number }>;

/**
 * The read routes at a fixed rate (INGEST_RATE, below saturation, so p99 is latency rather than
 * queueing behind autocannon on the same cores), idle and then while bench/ingest-load.ts commits
 * a block a second — in three forms: as the processes fall on the machine's cores; pinned
 * (bench/pin.ts: the API and the load generator on core 0, the indexer and Postgres on core 1);
 * and, as a diagnostic without a target, pinned with the indexer's own PostgreSQL backends at the
 * lowest CPU priority (nice 19): whether the reads' backends gain when the writer yields core 1 to
 * them (on 2026-11-29 they lost: 9 of 14 routes above 1.5× against 1 of 14 at equal priority).
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
  for (const [label] of ROUTES) {
    const a = f.idle[label]!;
    const b = f.busy[label]!;
    const ratio = b.p99.median / Math.max(1, a.p99.median);
    const errors = a.errors + b.errors;
    rows.push({
      what: `under ingest at ${INGEST_RATE.toLocaleString("en")} req/s${how}: ${label} p99 vs idle`,
      figure: `${range(b.p99, " ms")} vs ${range(a.p99, " ms")} = ${ratio.toFixed(2)}×${errors ? `; ${errors} errors!` : ""}`,
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

async function form(base: string, env: Record<string, string>, auth: Record<string, string>, cores?: { reads: number[]; writes: number[]; writerNice?: number }) {
  const measure = async () => {
    const out: Figures = {};
    for (const [label, p, needsAuth] of ROUTES) {
      const runs: LoadResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await load(`${base}${p}`, SECONDS, needsAuth ? auth : {}, INGEST_RATE));
      out[label] = { p99: spread(runs.map((r) => r.p99)), p50: spread(runs.map((r) => r.p50)), errors: runs.reduce((n, r) => n + r.errors, 0) };
    }
    return out;
  };
  const unpin = () => pin([...cores!.reads, ...cores!.writes, ...postgresPids()], allCpus());
  try {
    if (cores) {
      pin(cores.reads, "0");
      pin(cores.writes, "1");
    }
    log(`  ${cores ? "pinned" : "shared cores"}: idle, fixed rate…`);
    const idle = await measure();
    const holdersPage = `${base}/assets/holders/${BIG}?limit=50`;
    const before = (await (await fetch(holdersPage, { headers: auth })).json()) as Page;
    // The synthetic balances end in …000001 (no ingest block yet: the synthetic head); block n's
    // end in n. The pinned form starts where the first form's ingest stopped.
    const blockOf = (residue: number) => (residue === 1 ? HEAD : residue);
    const from = blockOf(Number(BigInt(before.holders[0]!.balance) % 1_000_000n));
    const ingest = await new Promise<ChildProcess>((resolve, reject) => {
      const p = spawn(process.execPath, ["--import", "tsx", "bench/ingest-load.ts"], { env: { ...process.env, ...env, PGAPPNAME: INGEST_APP }, stdio: ["ignore", "pipe", "inherit"] });
      if (cores) pin([p.pid!], "1");
      p.stdout!.once("data", () => resolve(p));
      p.once("exit", (code) => reject(new Error(`ingest-load exited ${code}`)));
    });
    let summary = "";
    ingest.stdout!.on("data", (d: Buffer) => (summary += d.toString()));
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
    let busy: Figures;
    try {
      // Inside the try: a failure here (no backends found, EPERM) still stops the ingest child.
      if (cores?.writerNice !== undefined) {
        // The child has committed a block: its pool's connections are open. They end with it, so nothing is set back.
        const pids = await backendsOf(env.DATABASE_URL!, INGEST_APP);
        if (pids.length === 0) throw new Error("the ingest child's PostgreSQL backends were not found (application_name)");
        for (const pid of pids) setPriority(pid, cores.writerNice);
        log(`  the ingest's ${pids.length} backends at nice ${cores.writerNice}`);
      }
      log("  under ingest, fixed rate…");
      busy = await measure();
    } finally {
      checking = false;
      await checker;
      await stop(ingest);
    }
    const line = summary.split("\n").find((l) => l.startsWith("{"));
    const stats = line ? (JSON.parse(line) as { blocks: number; commitMs: number; commitMsMax: number }) : undefined;
    return { idle, busy, checked, mixed: mixed.slice(0, 10), blocksSeen: blocks.size, ingest: stats };
  } finally {
    // The machine's Postgres serves everything else after the bench: its cores back as they were.
    if (cores) unpin();
  }
}
