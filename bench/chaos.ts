/**
 * `npm run chaos`: the full fault campaign (test/chaos/campaign.ts) — CHAOS_KILLS (default 30)
 * SIGKILLs of the indexer, CHAOS_CUTS (8) chain-connection cuts, CHAOS_OUTAGES (5) PostgreSQL
 * crashes — and its counts. Exit 1 on any drift. CHAOS_SEED replays a run.
 */
import { runCampaign } from "../test/chaos/campaign.js";

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const result = await runCampaign({
  kills: num("CHAOS_KILLS", 30),
  cuts: num("CHAOS_CUTS", 8),
  outages: num("CHAOS_OUTAGES", 5),
  seed: process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : undefined,
  log: (line) => console.log(line),
});
const k = result.kills;
console.table([
  { what: "seed", value: result.seed },
  { what: "SIGKILLs (bootstrap / catch-up / follow)", value: `${k.bootstrap + k.catchUp + k.follow} (${k.bootstrap} / ${k.catchUp} / ${k.follow})` },
  { what: "chain connection cuts", value: result.cuts },
  { what: "PostgreSQL crashes (stop -m immediate, start)", value: result.outages },
  { what: "API requests", value: result.requests },
  { what: "blocks indexed / swap rows", value: `${result.blocks} / ${result.swaps}` },
  { what: "drift found", value: result.drift.length === 0 ? "none" : result.drift.join("; ") },
  { what: "duration", value: `${(result.durationMs / 1000).toFixed(0)} s` },
]);
process.exit(result.drift.length === 0 ? 0 : 1);
