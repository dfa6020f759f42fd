/**
 * A backfill chunk commits a batch while it derives the next (indexer/commit-queue.ts): the
 * commits still run one at a time and in order, a failure reaches the chunk, and no count of
 * committed blocks arrives after the chunk has given up.
 */
import { describe, expect, it } from "vitest";
import { CommitQueue } from "../../indexer/commit-queue.js";

/** A store whose commits end when the test says so. */
function store() {
  const log: string[] = [];
  const open = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  const commit = (b: { id: number; size: number }) =>
    new Promise<void>((resolve, reject) => {
      log.push(`start ${b.id}`);
      open.set(b.id, { resolve: () => (log.push(`end ${b.id}`), resolve()), reject });
    });
  return { log, open, commit };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("a chunk's commit queue", () => {
  it("returns while a batch commits, starts the next only once it ended, and counts blocks in order", async () => {
    const s = store();
    const counted: number[] = [];
    const q = new CommitQueue(s.commit, (n) => counted.push(n));
    await q.push({ id: 1, size: 3 });
    // The caller derives the next batch meanwhile; its push waits for commit 1.
    const second = q.push({ id: 2, size: 5 });
    await tick();
    expect(s.log).toEqual(["start 1"]);
    s.open.get(1)!.resolve();
    await second;
    expect(s.log).toEqual(["start 1", "end 1", "start 2"]);
    let drained = false;
    const drain = q.drain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    s.open.get(2)!.resolve();
    await drain;
    expect(counted).toEqual([3, 5]);
  });

  it("fails the next push (or drain) with a failed commit, and settle waits for the one in flight without throwing", async () => {
    const s = store();
    const counted: number[] = [];
    const q = new CommitQueue(s.commit, (n) => counted.push(n));
    await q.push({ id: 1, size: 3 });
    const second = q.push({ id: 2, size: 5 });
    s.open.get(1)!.reject(new Error("connection lost"));
    await expect(second).rejects.toThrow("connection lost");
    await expect(q.drain()).rejects.toThrow("connection lost");
    expect(s.log).toEqual(["start 1"]);

    const t = store();
    const q2 = new CommitQueue(t.commit, (n) => counted.push(n));
    await q2.push({ id: 7, size: 2 });
    let settled = false;
    const settle = q2.settle().then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    t.open.get(7)!.resolve();
    await settle;
    expect(counted).toEqual([2]);
  });
});
