/**
 * After a PostgreSQL restart the pool reconnects within seconds. postgres.js' own backoff counts
 * failures across the pool and waits up to 20 s: a 2 s restart left queries waiting 18–19 s.
 * A private cluster (test/support/pg-cluster.ts), stopped as a crash and started again.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.js";
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

  it("4 s after a 2 s outage no query has waited 3 s: the pool reconnects at once, not after postgres.js' 20 s backoff", async () => {
    let stop = false;
    /** Start time of each query not settled yet. */
    const pending = new Map<number, number>();
    let next = 0;
    // Six writers' worth of traffic, as the indexer and the API make it: each failure counts.
    const worker = async () => {
      while (!stop) {
        const id = next++;
        pending.set(id, Date.now());
        await handle.db.execute(sql`select pg_sleep(0.01)`).catch(() => sleep(50));
        pending.delete(id);
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await sleep(500);
    await pg.stop("immediate");
    await sleep(2_000);
    await pg.start();
    // 4 s on, no query has waited 3 s: each was answered (or failed) soon after it was sent,
    // not held behind a reconnect scheduled for later.
    await sleep(4_000);
    const waited = pending.size ? Date.now() - Math.min(...pending.values()) : 0;
    stop = true;
    await Promise.all(workers);
    expect(waited, "the longest wait of a query not answered yet (ms)").toBeLessThan(3_000);
    await handle.db.execute(sql`select 1`);
  }, 60_000);
});
