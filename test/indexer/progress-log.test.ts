import { expect, it } from "vitest";
import { createProgressLog, PROGRESS_EVERY_MS } from "../../indexer/progress-log.js";
import { captureLog } from "../support/log.js";

const batch = (n: number) => ({ from: n, to: n, blocks: 1, events: 10, swaps: 1, skipped: 0, holders: 3, lag: 0, ms: 500 });

/** A follower committing one block a second for 65 s (a devnet trading, a chain followed live). */
function follow(level: "info" | "debug") {
  const log = captureLog(level);
  let clock = 1_000_000;
  const progress = createProgressLog(log.logger, PROGRESS_EVERY_MS, () => clock);
  for (let n = 2; n <= 66; n++) {
    clock += 1_000;
    progress.committed(batch(n));
  }
  return log.records();
}

it("at info, a followed chain logs one summary per 30 s with its rate, not a line per block", () => {
  const lines = follow("info");
  expect(lines.filter((l) => l.msg === "indexer: batch committed")).toEqual([]);
  const summaries = lines.filter((l) => l.msg === "indexer: blocks indexed");
  expect(summaries.map((l) => ({ blocks: l.blocks, events: l.events, swaps: l.swaps, seconds: l.seconds, perSecond: l.perSecond, block: l.block, lag: l.lag, level: l.level }))).toEqual([
    // The first window opens when the first batch started, 0.5 s before its commit: 31 blocks in 30.5 s.
    { blocks: 31, events: 310, swaps: 31, seconds: 31, perSecond: 1.02, block: 32, lag: 0, level: 30 },
    { blocks: 30, events: 300, swaps: 30, seconds: 30, perSecond: 1, block: 62, lag: 0, level: 30 },
  ]);
  expect(lines).toHaveLength(2);
});

it("at debug, every batch is logged with its figures", () => {
  const batches = follow("debug").filter((l) => l.msg === "indexer: batch committed");
  expect(batches).toHaveLength(65);
  expect(batches[0]).toMatchObject({ level: 20, from: 2, to: 2, blocks: 1, events: 10, swaps: 1, holders: 3, lag: 0, ms: 500 });
});
