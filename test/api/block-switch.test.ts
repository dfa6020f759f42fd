/** Answers computed ahead of a block switch (api/block-switch.ts prewarm): bounded, and failures left out. */
import { describe, expect, it } from "vitest";
import { prewarm } from "../../api/block-switch.js";
import { captureLog } from "../support/log.js";

describe("prewarm", () => {
  it("stops waiting at its budget: a computation that never ends does not hold the block switch", async () => {
    const log = captureLog();
    const never = { fetch: () => new Promise<Response>(() => {}) };
    const started = performance.now();
    const staged = await prewarm(never, ["/pool/stats", "/pools"], log.logger, 150);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(staged.size).toBe(0);
  });

  it("leaves out an answer whose computation throws, says so in the log, and computes the others", async () => {
    const log = captureLog();
    const app = {
      fetch: async (req: Request, env: { prewarm: Map<string, unknown> }) => {
        const path = new URL(req.url).pathname;
        if (path === "/broken") throw new Error("boom");
        env.prewarm.set(path, { body: "{}" });
        return new Response("{}");
      },
    };
    const staged = await prewarm(app as never, ["/broken", "/pool/stats", "/pools"], log.logger);
    expect([...staged.keys()].sort()).toEqual(["/pool/stats", "/pools"]);
    expect(log.records().some((r) => r.msg === "api: computing an answer ahead of a block failed")).toBe(true);
  });
});
