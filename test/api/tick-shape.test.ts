/**
 * api/tick-shape.ts: the API keeps one process.nextTick entry alive, so an idle spell's GC cannot
 * collect its hidden class and leave nextTick re-optimized from cleared feedback (a cached answer
 * measured 15–17 µs of CPU after 15 s idle against 12.5–13 µs fresh; bench figures in
 * docs/performance.md). What is checked here is the mechanism, in V8's own terms: the kept object
 * is a TickObject, and after full GCs a new TickObject still has its map.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("the kept TickObject", () => {
  it("is a nextTick entry, renewed, whose map outlives full GCs", async () => {
    const { stdout } = await run(process.execPath, ["--expose-gc", "--allow-natives-syntax", "--import", "tsx", "test/support/tick-shape-probe.ts"], { timeout: 30_000 });
    const probe = JSON.parse(stdout) as { keys: string[]; symbols: string[]; sameMap: boolean; renewed: boolean; afterOneStop: boolean; afterBothStops: boolean };
    expect(probe.keys).toEqual(["callback", "args"]);
    // Node 24 adds its async context frame.
    expect(probe.symbols.slice(0, 2)).toEqual(["Symbol(async_id_symbol)", "Symbol(trigger_async_id_symbol)"]);
    expect(probe.sameMap).toBe(true);
    expect(probe.renewed).toBe(true);
    expect(probe.afterOneStop).toBe(true);
    expect(probe.afterBothStops).toBe(true);
  }, 40_000);
});
