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
for (const f of failures) console.error(`ci: ${f}`);
process.exit(failures.length ? 1 : 0);
