/**
 * The type check `npm test` includes (`npm run typecheck`): tsc --noEmit over the project, its
 * tests and benches, then the dashboard's browser code under its own tsconfig. The global setup
 * runs it beside the build (test/support/typecheck.ts): on 2 cores the build leaves one idle, and
 * tsc's half-minute of CPU fits there instead of in a worker's time. Run alone, or in a run whose
 * setup did not start it, this file runs tsc itself.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { PROJECTS, startTypecheck, typecheckResult } from "./support/typecheck.js";

let dir = inject("typecheckDir");
let own: { stop(): void; dir: string } | undefined;
if (!dir) {
  dir = await mkdtemp(path.join(tmpdir(), "tokenpool-typecheck-"));
  own = { ...startTypecheck(dir), dir };
}
afterAll(async () => {
  own?.stop();
  if (own) await rm(own.dir, { recursive: true, force: true });
});

for (const project of PROJECTS) {
  it(`the project type-checks: tsc --noEmit -p ${project}`, async () => {
    const asked = performance.now();
    const result = await typecheckResult(dir, project, 290_000);
    process.stdout.write(`typecheck ${project}: tsc ran ${result.seconds} s; this test waited ${((performance.now() - asked) / 1000).toFixed(1)} s for it\n`);
    // tsc's own messages (file, line, code) are the failure's text.
    expect(result.out).toBe("");
    expect(result.failed).toBe(false);
  }, 300_000);
}
