/** The lines of `tokenpool status` about the indexer's long tasks and the latest backfill run. */
import type { BackfillProgress, TaskProgress } from "../db/index.js";
import { coverageText } from "./backfill-watch.js";

/** The bootstrap, history, re-read and verification lines of `tokenpool status`. */
export function taskLines({ bootstrap: b, history: h, reread: r, verification: v }: TaskProgress): string {
  let out = "";
  if (b) {
    const rate = b.perSecond !== null ? `, ${b.perSecond}/s` : "";
    const eta = !b.finished && b.etaSeconds !== null ? `, about ${b.etaSeconds} s left in the current map` : "";
    out += `bootstrap: ${b.finished ? "done" : "in progress"} at block ${b.block}, ${b.accounts} accounts read, ${b.holders} holders${rate}${eta}${b.resumed ? `, resumed ${b.resumed}×` : ""}${b.note ? ` (${b.note})` : ""}\n`;
  }
  if (h) {
    const total = h.to - h.from + 1;
    out += h.error ? `history: not backfilled: ${h.error}\n` : `history: ${h.finished ? "done" : "in progress"}, blocks ${h.from}–${h.to} (${h.hours} h), ${h.done}/${total}\n`;
  }
  if (r) out += `re-read: in progress at block ${r.block}, ${r.scope === "all" ? "a new snapshot" : `holders of ${r.tokenCount} token(s), ${r.rows} rows`} (${r.reasons.join("; ")})\n`;
  if (v) {
    const repaired = Object.entries(v.repaired).map(([k, n]) => `${k} ${n}`).join(", ") || "none";
    const last = v.lastPass ? `last full pass ${v.lastPass.pass} ended ${v.lastPass.endedAt} (blocks ${v.lastPass.startBlock}–${v.lastPass.endBlock}, ${v.lastPass.seconds} s, ${v.lastPass.checked} entries, ${v.lastPass.found} differences)` : "no full pass yet";
    const upgrade = v.upgrade ? `; verifying from the upgrade at block ${v.upgrade.block} (${v.upgrade.specName} ${v.upgrade.specVersion})` : "";
    out += `verification: pass ${v.pass}, ${v.phase} at block ${v.block}, ${v.checked} entries compared, ${v.found} differences; ${last}; repaired since the start: ${repaired}${upgrade}\n`;
  }
  return out;
}


/** "backfill: running, blocks 1–90000 (3 runtimes), 41000/90000 blocks, 41/90 chunks, 850.2 blocks/s, about 58 s left; history from block 49001, 2 gaps (1500 blocks)" */
export function backfillLine(b: BackfillProgress | null): string {
  if (!b) return "";
  const state = b.state === "stalled" ? `stalled (no progress written since ${b.updatedAt}: the process is gone; run the same command to resume)` : b.state === "interrupted" ? "interrupted (run the same command to resume)" : b.state;
  const eta = b.etaSeconds !== null ? `, about ${b.etaSeconds} s left` : "";
  const error = b.error ? ` (${b.error})` : "";
  // A whole chain's run stages every partition (18 on Polkadot Asset Hub): past two, one segment.
  const stages = b.bulkLoading;
  const bulk =
    stages.length > 2
      ? `; transfers of ${stages.length} partitions (blocks ${Math.min(...stages.map((s) => s.fromBlock))}–${Math.max(...stages.map((s) => s.toBlock))}) loading in bulk (held once attached)`
      : stages.map((s) => `; transfers of blocks ${s.fromBlock}–${s.toBlock} loading in bulk (held once attached)`).join("");
  return `backfill: ${state}${error}, blocks ${b.from}–${b.to} (${b.runtimes} runtime${b.runtimes === 1 ? "" : "s"}), ${b.blocksDone}/${b.blocksTotal} blocks, ${b.chunksDone}/${b.chunksTotal} chunks, ${b.blocksPerSecond} blocks/s${eta}; ${coverageText(b)}${bulk}\n`;
}
