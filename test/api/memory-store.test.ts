/**
 * The in-process sliding-window log against a model that keeps every allowed timestamp and
 * counts those inside (now - window, now]: any sequence of hits, undos and clock steps gives the
 * same verdicts, counts and reset times, and the log stays within its stated memory bound.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";

type Op = { kind: "hit"; key: number; step: number } | { kind: "undo"; key: number; step: number };

describe("MemoryRateLimitStore", () => {
  it("answers every hit as a plain sliding window would, and keeps at most 2 × max + 64 timestamps a key", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.record({ kind: fc.constantFrom<"hit" | "undo">("hit", "hit", "hit", "undo"), key: fc.integer({ min: 0, max: 2 }), step: fc.integer({ min: 0, max: 30 }) }), { maxLength: 600 }),
        async (max, windowMs, ops: Op[]) => {
          const store = new MemoryRateLimitStore();
          const model = new Map<number, number[]>();
          const entries = new Map<number, string[]>();
          let now = 1_000_000;
          for (const op of ops) {
            now += op.step;
            const key = `k${op.key}`;
            if (op.kind === "undo") {
              const entry = entries.get(op.key)?.pop();
              if (!entry) continue;
              await store.undo(key, entry);
              const at = Number(entry.slice(0, entry.indexOf(":")));
              const log = model.get(op.key) ?? [];
              const i = log.lastIndexOf(at);
              // The store only undoes what is still in the window.
              if (i >= 0 && at > now - windowMs) log.splice(i, 1);
              continue;
            }
            const live = (model.get(op.key) ?? []).filter((t) => t > now - windowMs);
            const allowed = live.length < max;
            if (allowed) live.push(now);
            model.set(op.key, live);
            const want = { allowed, count: live.length, resetMs: live.length ? live[0]! + windowMs - now : windowMs };
            const got = await store.hit(key, now, windowMs, max);
            expect({ allowed: got.allowed, count: got.count, resetMs: got.resetMs }).toEqual(want);
            if (got.entry) (entries.get(op.key) ?? entries.set(op.key, []).get(op.key)!).push(got.entry);
            const kept = (store as unknown as { logs: Map<string, { t: number[] }> }).logs.get(key)?.t.length ?? 0;
            expect(kept).toBeLessThanOrEqual(2 * max + 64);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("at 50,000 hits a second in a one-second window, counts one second of them and keeps at most twice that", () => {
    const store = new MemoryRateLimitStore();
    const t0 = 1_000_000;
    // 5 s of hits, 50 per millisecond; every verdict allowed, the count one second's worth at most.
    let last = 0;
    for (let i = 0; i < 250_000; i++) {
      const hit = store.hitSync("bench", t0 + Math.floor(i / 50), 1_000, 1_000_000);
      expect(hit.allowed).toBe(true);
      last = hit.count;
    }
    expect(last).toBe(50_000);
    const kept = (store as unknown as { logs: Map<string, { t: number[] }> }).logs.get("bench")!.t.length;
    expect(kept).toBeLessThanOrEqual(2 * 50_000 + 64);
  });
});
