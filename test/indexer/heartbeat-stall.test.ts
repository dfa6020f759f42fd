/**
 * A follower that waits on something that never answers writes no heartbeat and would log
 * nothing: the heartbeat's stall warning names the stage it waits on, once a minute.
 */
import { afterEach, expect, it, vi } from "vitest";
import { Heartbeat, STALL_WARN_MS } from "../../indexer/heartbeat.js";
import { createLogger } from "../../shared/logger.js";

afterEach(() => vi.useRealTimers());

it("warns after a minute without progress, naming the stage, again each minute, and not once progress resumes", async () => {
  vi.useFakeTimers();
  const lines: { msg: string; stage?: string; seconds?: number }[] = [];
  const logger = createLogger("info", "indexer", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const beat = new Heartbeat(async () => {}, () => ({ finalized: 1, block: 1 }), logger);
  beat.start(5_000);
  beat.stage = "start: loading the market from the store";
  await vi.advanceTimersByTimeAsync(STALL_WARN_MS - 5_000);
  expect(lines.filter((l) => l.msg.startsWith("indexer: no progress"))).toEqual([]);
  await vi.advanceTimersByTimeAsync(10_000);
  const warned = lines.filter((l) => l.msg.startsWith("indexer: no progress"));
  expect(warned).toHaveLength(1);
  expect(warned[0]).toMatchObject({ stage: "start: loading the market from the store", seconds: 60 });
  expect(warned[0]!.msg).toBe("indexer: no progress for 60 s; waiting on: start: loading the market from the store");
  await vi.advanceTimersByTimeAsync(STALL_WARN_MS);
  expect(lines.filter((l) => l.msg.startsWith("indexer: no progress"))).toHaveLength(2);

  beat.progressed();
  await vi.advanceTimersByTimeAsync(STALL_WARN_MS - 10_000);
  expect(lines.filter((l) => l.msg.startsWith("indexer: no progress"))).toHaveLength(2);
  await beat.stop();
});
