/**
 * Once, up front: the build the suites' child processes run (`tokenpool …` runs dist/, as the
 * image does; nothing to do when it is current), and which service-backed suites this run skips
 * and why.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadTestServices } from "../../shared/config.js";

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url))], { stdio: "inherit" });
  const services = loadTestServices();
  if (!services.databaseUrl) process.stderr.write("[tokenpool tests] TEST_DATABASE_URL is not set: the Postgres runs of the db suites are skipped (PGlite runs).\n");
  if (!services.redisUrl) process.stderr.write("[tokenpool tests] TEST_REDIS_URL is not set: the Redis rate-limit suites are skipped.\n");
}
