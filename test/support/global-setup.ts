/**
 * Once, up front: the build the suites' child processes run (`tokenpool …` runs dist/, as the
 * image does; nothing to do when it is current), the migrated stores every suite starts from
 * (see test/support/db.ts), and which service-backed suites this run skips and why.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { loadTestServices } from "../../shared/config.js";
import { makeTemplates } from "./db-templates.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, [fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url))], { stdio: "inherit" });
  const services = loadTestServices();
  if (!services.databaseUrl) process.stderr.write("[tokenpool tests] TEST_DATABASE_URL is not set: the Postgres runs of the db suites are skipped (PGlite runs).\n");
  if (!services.redisUrl) process.stderr.write("[tokenpool tests] TEST_REDIS_URL is not set: the Redis rate-limit suites are skipped.\n");
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-templates-"));
  const templates = await makeTemplates(dir, services.databaseUrl);
  project.provide("pgliteTemplate", templates.pglite);
  project.provide("postgresTemplate", templates.postgres ?? "");
  return async () => {
    await templates.drop();
    await rm(dir, { recursive: true, force: true });
  };
}
