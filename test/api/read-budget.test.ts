/**
 * The read budget's rules, decided synchronously: a burst in one tick admits exactly what the
 * limits say; waiting reads are let in round-robin, a client with none running first; a heavy
 * read runs alone; a read answered by its deadline frees its client's place at once and the
 * pool's only when its snapshot ends. (test/api/db-fairness.test.ts is the same against a server.)
 */
import { describe, expect, it } from "vitest";
import { ReadBudget, type Slot } from "../../api/middleware/read-budget.js";

const tick = () => new Promise((r) => setImmediate(r));

async function granted(slots: (Slot | undefined)[]): Promise<boolean[]> {
  const state = slots.map(() => false);
  slots.forEach((s, i) => void s?.ready.then((ok) => (state[i] = ok)));
  await tick();
  return state;
}

describe("read budget", () => {
  it("a burst of 20 reads from one client in one tick: 4 run, 8 wait, 8 are refused", async () => {
    const budget = new ReadBudget({ perClient: 4, total: 8, reserve: 2 });
    const slots = Array.from({ length: 20 }, () => budget.enter("198.51.100.1"));
    expect(slots.filter((s) => s === undefined)).toHaveLength(8);
    expect((await granted(slots)).filter(Boolean)).toHaveLength(4);
    expect(budget.inUse).toBe(4);
    // One ends: the first waiting read runs.
    slots[0]!.release();
    expect((await granted(slots)).filter(Boolean)).toHaveLength(4 + 1 - 1 + 1);
  });

  it("past the shared slots, only a client with none running gets in; waiting reads are let in round-robin", async () => {
    const budget = new ReadBudget({ perClient: 4, total: 4, reserve: 1, queueMs: 60_000 });
    // A floods: 3 run (the shared slots), the 4th waits (the last slot is kept).
    const a = Array.from({ length: 4 }, () => budget.enter("a")!);
    expect(await granted(a)).toEqual([true, true, true, false]);
    // B has none running: it takes the kept slot at once.
    const b1 = budget.enter("b")!;
    expect(await granted([b1])).toEqual([true]);
    // B and C now wait too, behind A's waiting read.
    const b2 = budget.enter("b")!;
    const c1 = budget.enter("c")!;
    expect(await granted([b2, c1])).toEqual([false, false]);
    // A slot frees: it is one of the kept ones, so C (none running) takes it, not A or B.
    a[0]!.release();
    expect(await granted([a[3], b2, c1])).toEqual([false, false, true]);
    a[1]!.release();
    expect(await granted([a[3], b2])).toEqual([false, false]);
    // Below the shared slots again: the next waiting read in turn.
    a[2]!.release();
    expect(await granted([a[3], b2])).toEqual([true, false]);
    b1.release();
    expect(await granted([b2])).toEqual([true]);
  });

  it("waiting reads are let in round-robin between clients, not first come first served", async () => {
    const budget = new ReadBudget({ perClient: 1, total: 1, reserve: 0, queueMs: 60_000 });
    const order: string[] = [];
    const running: Slot[] = [];
    for (const key of ["a", "a", "a", "b", "b", "c"]) {
      const slot = budget.enter(key)!;
      void slot.ready.then((ok) => {
        if (!ok) return;
        order.push(key);
        running.push(slot);
      });
    }
    await tick();
    // One read at a time: end the one running, and see who is let in next.
    for (let i = 0; i < 5; i++) {
      running.shift()!.release();
      await tick();
    }
    expect(order).toEqual(["a", "b", "c", "a", "b", "a"]);
  });

  it("one heavy read at a time, one per client; light reads pass beside it", async () => {
    const budget = new ReadBudget({ perClient: 4, total: 8, reserve: 2, heavy: 1, queueMs: 60_000 });
    const h1 = budget.enter("a", true)!;
    const h2 = budget.enter("b", true)!;
    const light = budget.enter("c", false)!;
    expect(await granted([h1, h2, light])).toEqual([true, false, true]);
    h1.release();
    expect(await granted([h2])).toEqual([true]);
  });

  it("a waiting read gives up after queueMs, or when its deadline passes", async () => {
    const budget = new ReadBudget({ perClient: 1, total: 1, reserve: 0, queueMs: 50 });
    const first = budget.enter("a")!;
    const waited = budget.enter("a")!;
    expect(await waited.ready).toBe(false);
    const deadline = new AbortController();
    const aborted = budget.enter("a", false, deadline.signal)!;
    deadline.abort();
    expect(await aborted.ready).toBe(false);
    expect(budget.timedOut).toBe(2);
    first.release();
    expect(budget.inUse).toBe(0);
  });

  it("a read its deadline answered frees its client's place, and the pool's only when it ends", async () => {
    const budget = new ReadBudget({ perClient: 1, total: 2, reserve: 0, queueMs: 60_000 });
    const stuck = budget.enter("a")!;
    stuck.leave(); // answered 503; its snapshot still holds a connection
    const next = budget.enter("a")!;
    expect(await granted([next])).toEqual([true]);
    expect(budget.inUse).toBe(2);
    const other = budget.enter("b")!;
    expect(await granted([other])).toEqual([false]); // the pool's places are both held
    stuck.release();
    expect(await granted([other])).toEqual([true]);
  });
});
