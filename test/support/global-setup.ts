/** Says once, up front, which service-backed suites this run skips and why. */
import { loadTestServices } from "../../shared/config.js";

export default function setup(): void {
  const services = loadTestServices();
  if (!services.databaseUrl) process.stderr.write("[tokenpool tests] TEST_DATABASE_URL is not set: the Postgres runs of the db suites are skipped (PGlite runs).\n");
  if (!services.redisUrl) process.stderr.write("[tokenpool tests] TEST_REDIS_URL is not set: the Redis rate-limit suites are skipped.\n");
}
