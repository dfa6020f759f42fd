/**
 * The type check `npm test` starts with: `npm run typecheck` (tsc --noEmit over the project, its
 * tests and benches, then the dashboard's browser code under its own tsconfig). It runs as a
 * file of the suite, beside the others, rather than before them: on 2 cores the suite's
 * chain-backed files leave a fifth of the CPU idle, and tsc's minute fits in it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);

it("the project type-checks: tsc --noEmit, and the dashboard's own tsconfig", async () => {
  const result = await run("npm", ["run", "--silent", "typecheck"], { maxBuffer: 16 * 1024 * 1024 }).then(
    () => ({ code: 0, out: "" }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: `${err.stdout}${err.stderr}` }),
  );
  // tsc's own messages (file, line, code) are the failure's text.
  expect(result.out).toBe("");
  expect(result.code).toBe(0);
}, 300_000);
