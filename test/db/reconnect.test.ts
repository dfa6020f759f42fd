/**
 * After a PostgreSQL restart the pool reconnects within seconds. postgres.js' own backoff counts
 * failures across the pool and waits up to 20 s: a 2 s restart left queries waiting 18–19 s.
 * A private cluster (test/support/pg-cluster.ts), stopped as a crash and started again.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.js";
import { until } from "../support/wait.js";
import { postgresBin, startPgCluster, type PgCluster } from "../support/pg-cluster.js";

const skip = postgresBin() ? undefined : "no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skip)(`reconnecting after a PostgreSQL restart${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let pg: PgCluster;
  let handle: DbHandle;
  beforeAll(async () => {
    pg = await startPgCluster();
    handle = await createDb({ databaseUrl: pg.url });
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await pg?.destroy();
  });

  it("after a 2 s outage no query waits 3 s: the pool reconnects at once, not after postgres.js' 20 s backoff", async () => {
    let stop = false;
    /** Start time of each query not settled yet. */
    const pending = new Map<number, number>();
    let next = 0;
    let answered = 0;
    let failed = 0;
    /** The longest a query took to settle (answered or failed) since `since` (ms). */
    let since = Infinity;
    let longest = 0;
    // Six writers' worth of traffic, as the indexer and the API make it: each failure counts.
    const worker = async () => {
      while (!stop) {
        const id = next++;
        const started = Date.now();
        pending.set(id, started);
        await handle.db.execute(sql`select pg_sleep(0.01)`).then(
          () => void (answered += 1),
          () => {
            failed += 1;
            return sleep(50);
          },
        );
        pending.delete(id);
        if (started >= since) longest = Math.max(longest, Date.now() - started);
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await until("queries answered before the outage", () => answered > 0, 10_000);
    await pg.stop("immediate");
    const down = Date.now();
    await until("queries failing during the outage", () => failed > 0, 10_000);
    await sleep(Math.max(0, 2_000 - (Date.now() - down))); // the outage lasts 2 s: the stimulus, not a wait for a result
    await pg.start();
    const up = Date.now();
    since = up;
    // Every query sent during the outage settled, and queries sent after the restart are answered
    // (bounded well past postgres.js' 20 s backoff, so a regression reads as a number, not a timeout).
    const after = answered;
    const stuck = () => [...pending.values()].some((t) => t < up);
    await until("the queries of the outage settled and one answered after the restart", () => !stuck() && answered > after, 30_000);
    const reconnected = Date.now() - up;
    const waited = Math.max(longest, ...[...pending.values()].map((t) => Date.now() - t));
    stop = true;
    await Promise.all(workers);
    expect(reconnected, "from the restart to the first answer (ms)").toBeLessThan(3_000);
    expect(waited, "the longest wait of a query sent after the restart (ms)").toBeLessThan(3_000);
    await handle.db.execute(sql`select 1`);
  }, 60_000);
});
