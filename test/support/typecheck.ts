/**
 * The type check `npm test` includes (`npm run typecheck`): tsc --noEmit over the project, its
 * tests and benches, then the dashboard's browser code under its own tsconfig. The global setup
 * starts it beside the build and the template stores, on the core they leave idle; the file
 * test/typecheck.test.ts waits for its result. Each project's result is a JSON file written whole
 * (then renamed) when its tsc exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

declare module "vitest" {
  interface ProvidedContext {
    /** Where the type check writes its results, or "" when this run did not start it. */
    typecheckDir: string;
  }
}

export const PROJECTS = ["tsconfig.json", "api/dashboard/src/tsconfig.json"] as const;

export interface TypecheckResult {
  failed: boolean;
  /** tsc's own messages (file, line, code). */
  out: string;
  /** How long tsc ran. */
  seconds: number;
}

export const resultFile = (dir: string, project: string) => path.join(dir, `typecheck-${project.replaceAll("/", "_")}.json`);

/** Runs tsc over each project in turn; stop() kills the one running (a run cut short). */
export function startTypecheck(dir: string): { stop(): void } {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  let child: ChildProcess | undefined;
  let stopped = false;
  void (async () => {
    for (const project of PROJECTS) {
      if (stopped) return;
      const started = performance.now();
      const result = await new Promise<Omit<TypecheckResult, "seconds">>((resolve) => {
        let out = "";
        child = spawn(process.execPath, [tsc, "--noEmit", "-p", project], { stdio: ["ignore", "pipe", "pipe"] });
        child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
        child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
        child.once("error", (err) => resolve({ failed: true, out: err.message }));
        child.once("close", (code, signal) => resolve({ failed: code !== 0, out: out || (code === 0 ? "" : `tsc exited with ${code ?? signal}`) }));
      });
      if (stopped) return; // the run ended: its directory may be gone
      await writeFile(`${resultFile(dir, project)}.partial`, JSON.stringify({ ...result, seconds: Math.round((performance.now() - started) / 100) / 10 }));
      await rename(`${resultFile(dir, project)}.partial`, resultFile(dir, project));
    }
  })().catch((err: unknown) => {
    // Never an unhandled rejection in vitest's own process; the test reports a missing result.
    if (!stopped) process.stderr.write(`[tokenpool tests] the type check could not record its result: ${String(err)}\n`);
  });
  return {
    stop() {
      stopped = true;
      child?.kill();
    },
  };
}

/** The result for a project, once its tsc has exited (polled: the writer is another process). */
export async function typecheckResult(dir: string, project: string, timeoutMs: number): Promise<TypecheckResult> {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
    const text = await readFile(resultFile(dir, project), "utf8").catch(() => undefined);
    if (text !== undefined) return JSON.parse(text) as TypecheckResult;
    if (Date.now() > until) throw new Error(`the type check of ${project} gave no result in ${timeoutMs / 1000} s`);
  }
}
