/** Section 5 of `npm run bench`: reads under ingest (see bench/suite.ts). */
import { spawn, type ChildProcess } from "node:child_process";
import { load, range, spread, stop, type LoadResult } from "./load.js";
import { INGEST_RATE, log, results, ROUTES, rows, RUNS, SECONDS } from "./settings.js";
import { BIG, HEAD, INGEST } from "./synthetic.js";

/**
 * The read routes at a fixed rate (INGEST_RATE, below saturation, so p99 is latency rather than
 * queueing behind autocannon on the same cores), idle and then while bench/ingest-load.ts commits
 * a block a second. Meanwhile a checker reads the big token's first holders page over and over:
 * its balances carry the block number that wrote them and its count grows by
 * INGEST.NEW_PER_BLOCK a block, so a page that mixes two blocks shows.
 */
export async function underIngest(base: string, env: Record<string, string>, auth: Record<string, string>): Promise<void> {
  type Page = { totalHolders: number; holders: { balance: string }[] };
  const measure = async () => {
    const out: Record<string, { p99: ReturnType<typeof spread>; p50: ReturnType<typeof spread>; errors: number }> = {};
    for (const [label, p, needsAuth] of ROUTES) {
      const runs: LoadResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await load(`${base}${p}`, SECONDS, needsAuth ? auth : {}, INGEST_RATE));
      out[label] = { p99: spread(runs.map((r) => r.p99)), p50: spread(runs.map((r) => r.p50)), errors: runs.reduce((n, r) => n + r.errors, 0) };
    }
    return out;
  };
  log("  idle, fixed rate…");
  const idle = await measure();
  const holdersPage = `${base}/assets/holders/${BIG}?limit=50`;
  const before = (await (await fetch(holdersPage, { headers: auth })).json()) as Page;
  const ingest = await new Promise<ChildProcess>((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", "bench/ingest-load.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
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
      // The synthetic balances end in …000001 (no ingest block yet); block n's end in n.
      const expected = block === 1 ? before.totalHolders : before.totalHolders + INGEST.NEW_PER_BLOCK * (block! - HEAD);
      checked++;
      blocks.add(block!);
      if (residues.size !== 1 || page.totalHolders !== expected) mixed.push(`balances of block(s) ${[...residues].join("/")} with ${page.totalHolders} holders`);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  let busy: Awaited<ReturnType<typeof measure>>;
  try {
    log("  under ingest, fixed rate…");
    busy = await measure();
  } finally {
    checking = false;
    await checker;
    await stop(ingest);
  }
  for (const [label] of ROUTES) {
    const a = idle[label]!;
    const b = busy[label]!;
    const ratio = b.p99.median / Math.max(1, a.p99.median);
    const errors = a.errors + b.errors;
    rows.push({ what: `under ingest at ${INGEST_RATE.toLocaleString("en")} req/s: ${label} p99 vs idle`, figure: `${range(b.p99, " ms")} vs ${range(a.p99, " ms")} = ${ratio.toFixed(2)}×${errors ? `; ${errors} errors!` : ""}`, target: "≤ 2×", met: ratio <= 2 && errors === 0 });
  }
  const line = summary.split("\n").find((l) => l.startsWith("{"));
  const ingestStats = line ? (JSON.parse(line) as { blocks: number; commitMs: number; commitMsMax: number }) : undefined;
  rows.push({
    what: `under ingest: holders pages read (${blocks.size} blocks seen) that mix two blocks`,
    figure: `${mixed.length} of ${checked}${ingestStats ? `; ${ingestStats.blocks} blocks committed, ${ingestStats.commitMs} ms each (max ${ingestStats.commitMsMax})` : ""}`,
    target: "0",
    met: mixed.length === 0 && blocks.size > 2,
  });
  results.underIngest = { rate: INGEST_RATE, idle, busy, checked, mixed: mixed.slice(0, 10), blocksSeen: blocks.size, ingest: ingestStats };
}

