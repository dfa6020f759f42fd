/**
 * `npm run bench:start`: how long `npm start` on a fresh DATA_DIR takes to show each thing a new
 * user looks for — the API answering, the seeded tokens with their holders, pools with swaps and
 * prices, and a later block that moved them — against the target of one minute. BENCH_RUNS runs
 * (default 3), one after the other; the median of each milestone is the figure.
 */
import { spawnStart, type PoolStats, type StartedService } from "../test/support/start.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_S = 60;
const GIVE_UP_MS = 5 * 60_000;
/** Seeded assets and foreign assets (indexer/devnet/plan.ts): USDt, USDC, WHL, TEN, WETH, MEME, DOG, pUSDC, KAR. */
const ASSETS = 9;

interface AssetRow {
  tokenId: number;
  holders: number;
}

const MILESTONES = ["API answers", "tokens with holders", "pools, swaps and prices", "moving"] as const;
type Milestone = (typeof MILESTONES)[number];

async function once(): Promise<Record<Milestone, number>> {
  const service: StartedService = await spawnStart();
  const at = () => (Date.now() - service.started) / 1000;
  const times = {} as Record<Milestone, number>;
  try {
    // One request a second at most: the API's rate limit (100/min per IP) is on.
    await service.poll("the API", () => service.get("/health"), GIVE_UP_MS, 1_000);
    times["API answers"] = at();
    await service.poll("the seeded tokens", async () => {
      const list = await service.get<{ assets: AssetRow[] }>("/assets?limit=100");
      return list.assets.filter((a) => a.tokenId !== 0 && a.holders > 0).length >= ASSETS ? true : undefined;
    }, GIVE_UP_MS, 1_000);
    times["tokens with holders"] = at();
    const seeded = await service.poll("pools with swaps and a KSM price", async () => {
      const stats = await service.get<PoolStats>("/pool/stats");
      if (stats.totalPools === 0 || stats.swaps24h === 0) return undefined;
      await service.get("/oracle/value/0");
      return stats;
    }, GIVE_UP_MS, 1_000);
    times["pools, swaps and prices"] = at();
    await service.poll("a later block with more swaps", async () => {
      const stats = await service.get<PoolStats>("/pool/stats");
      return stats.blockNumber > seeded.blockNumber && stats.swaps24h > seeded.swaps24h ? true : undefined;
    }, GIVE_UP_MS, 1_000);
    times.moving = at();
  } finally {
    const code = await service.stop();
    if (code !== 0) throw new Error(`npm start exited with ${code}: ${service.stderr()}`);
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const runs: Record<Milestone, number>[] = [];
for (let i = 0; i < RUNS; i++) {
  runs.push(await once());
  process.stderr.write(`bench:start: run ${i + 1}/${RUNS}: moving after ${runs[i]!.moving.toFixed(1)} s\n`);
}
const table = MILESTONES.map((m) => {
  const row: Record<string, string> = { milestone: m };
  runs.forEach((r, i) => (row[`run ${i + 1} (s)`] = r[m].toFixed(1)));
  row["median (s)"] = median(runs.map((r) => r[m])).toFixed(1);
  row.target = m === "moving" ? `≤ ${TARGET_S} s` : "";
  return row;
});
console.table(table);
const moving = median(runs.map((r) => r.moving));
console.log(`npm start → moving: median ${moving.toFixed(1)} s over ${RUNS} runs (target ≤ ${TARGET_S} s: ${moving <= TARGET_S ? "met" : "MISSED"})`);
