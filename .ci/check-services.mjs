// Fails CI when Postgres or Redis does not answer: a run that silently skipped their suites
// would prove nothing.
import postgres from "postgres";
import { Redis } from "ioredis";

const failures = [];
const sql = postgres(process.env.TEST_DATABASE_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
try {
  const [row] = await sql`select version()`;
  console.log(`ci: Postgres answers: ${row.version.split(" ").slice(0, 2).join(" ")}`);
} catch (err) {
  failures.push(`Postgres at ${process.env.TEST_DATABASE_URL} does not answer: ${err.message}`);
} finally {
  await sql.end({ timeout: 1 });
}
const redis = new Redis(process.env.TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0 });
redis.on("error", () => {});
try {
  await redis.connect();
  console.log(`ci: Redis answers: ${await redis.ping()}`);
} catch (err) {
  failures.push(`Redis at ${process.env.TEST_REDIS_URL} does not answer: ${err.message}`);
} finally {
  redis.disconnect();
}
// What the suites otherwise skip on: each is installed by .ci/run.
import { existsSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
const has = (cmd, args = ["--version"]) => {
  try {
    execFileSync(cmd, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const pgRoot = "/usr/lib/postgresql";
const pgBin = existsSync(pgRoot) && readdirSync(pgRoot).some((v) => existsSync(`${pgRoot}/${v}/bin/pg_ctl`) && existsSync(`${pgRoot}/${v}/bin/initdb`));
if (!pgBin) failures.push(`no PostgreSQL server binaries (pg_ctl, initdb) under ${pgRoot}: the fault campaign and the replica test need them`);
// The same paths the tests look at (test/browser/*.test.ts, test/deploy/nginx.test.ts).
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) failures.push(`no browser at ${chromium}: the browser tests need it (or set CHROMIUM_PATH)`);
if (!["/usr/sbin/nginx", "/usr/bin/nginx"].some((p) => existsSync(p))) failures.push("no nginx at /usr/sbin or /usr/bin: test/deploy/nginx.test.ts needs it");
if (!has("docker", ["compose", "version"]) && !has("docker-compose")) failures.push("neither `docker compose` nor `docker-compose`: test/deploy/compose.test.ts needs one");
if (!has("mkfifo", ["--version"])) failures.push("no mkfifo: test/shared/secret.test.ts needs it");
if (failures.length === 0) console.log("ci: PostgreSQL binaries, chromium, nginx, docker compose and mkfifo are here");

for (const f of failures) console.error(`ci: ${f}`);
process.exit(failures.length ? 1 : 0);
