/**
 * Once, up front: the build the suites' child processes run (`tokenpool …` runs dist/, as the
 * image does; nothing to do when it is current), the migrated stores every suite starts from
 * (see test/support/db.ts), and which service-backed suites this run skips and why.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { loadTestServices } from "../../shared/config.js";
import { makeTemplates } from "./db-templates.js";
import { startTypecheck } from "./typecheck.js";

/** Whether this run includes test/typecheck.test.ts: a run of named files without it has no use for tsc's half-minute of CPU. */
function runsTypecheck(): boolean {
  const named = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && !a.endsWith("vitest") && !a.endsWith("vitest.mjs"));
  return named.length === 0 || named.some((a) => "test/typecheck.test.ts".includes(a) || a.includes("typecheck"));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-templates-"));
  // The type check (one core) while the build and the stores take the other. Not in watch mode:
  // the setup runs once there, and a rerun would read the first run's result.
  const typecheck = runsTypecheck() && !project.vitest.config.watch ? startTypecheck(dir) : undefined;
  project.provide("typecheckDir", typecheck ? dir : "");
  const services = loadTestServices();
  if (!services.databaseUrl) process.stderr.write("[tokenpool tests] TEST_DATABASE_URL is not set: the Postgres runs of the db suites are skipped (PGlite runs).\n");
  if (!services.redisUrl) process.stderr.write("[tokenpool tests] TEST_REDIS_URL is not set: the Redis rate-limit suites are skipped.\n");
  const build = promisify(execFile)(process.execPath, [fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url))]).catch((err: Error & { stdout?: string; stderr?: string }) => {
    // tsc's messages as they are (vitest shows a setup error's first line and a code frame).
    process.stderr.write(`${err.stdout ?? ""}${err.stderr ?? ""}`);
    throw new Error("npm run build failed (tsc's messages above)");
  });
  // Both settled before a failure is thrown: what the other made is removed, not left running or kept.
  const [made, built] = await Promise.allSettled([makeTemplates(dir, services.databaseUrl), build]);
  if (made.status === "rejected" || built.status === "rejected") {
    typecheck?.stop();
    if (made.status === "fulfilled") await made.value.drop();
    await rm(dir, { recursive: true, force: true });
    throw made.status === "rejected" ? made.reason : (built as PromiseRejectedResult).reason;
  }
  const templates = made.value;
  project.provide("pgliteTemplate", templates.pglite);
  project.provide("postgresTemplate", templates.postgres ?? "");
  return async () => {
    typecheck?.stop();
    await templates.drop();
    await rm(dir, { recursive: true, force: true });
  };
}
