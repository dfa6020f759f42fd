/**
 * The type check `npm test` starts with (`npm run typecheck`): tsc --noEmit over the project,
 * its tests and benches, then the dashboard's browser code under its own tsconfig. It runs as a
 * file of the suite, beside the others, rather than before them: on 2 cores the suite's
 * chain-backed files leave a fifth of the CPU idle, and tsc's half-minute of CPU fits in it.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

for (const project of ["tsconfig.json", "api/dashboard/src/tsconfig.json"]) {
  it(`the project type-checks: tsc --noEmit -p ${project}`, async () => {
    const result = await run(process.execPath, [tsc, "--noEmit", "-p", project], { maxBuffer: 16 * 1024 * 1024 }).then(
      () => ({ failed: false, out: "" }),
      (err: Error & { stdout?: string; stderr?: string }) => ({ failed: true, out: `${err.stdout ?? ""}${err.stderr ?? ""}` || err.message }),
    );
    // tsc's own messages (file, line, code) are the failure's text.
    expect(result.out).toBe("");
    expect(result.failed).toBe(false);
  }, 300_000);
}
