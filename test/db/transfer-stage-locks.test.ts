/**
 * The bulk path's finish (db/queries/transfer-stages.ts) beside other sessions, on PostgreSQL
 * (PGlite has one connection: nothing there runs beside a finish): rows appended to a stage while
 * its duplicates are removed, and a partition made row by row while its indexes are built.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  completeChunk,
  createDb,
  insertTransfers,
  missingIn,
  planStages,
  rowsOf,
  tokenTransfers,
  type Database,
  type DbHandle,
} from "../../db/index.js";
import { dbTargets, describeDb } from "../support/db.js";
import { loadChunk, transfersOf } from "../support/stages.js";
import { gate, until } from "../support/wait.js";

const M = 1_000_000;

const postgresTarget = dbTargets.find((t) => t.name === "postgres")!;

describeDb(
  "the bulk path's finish beside other sessions",
  (ctx) => {
    const url = () => (ctx.handle as DbHandle & { url: string }).url;
    const waiting = async (event: string) =>
      Number(rowsOf<{ n: string | number }>(await ctx.db.execute(sql`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event = ${event}`))[0]!.n) > 0;
    const listed = async (from: number, to: number) => (await tokenTransfers(ctx.db, { tokenId: 1984 }, { fromBlock: from, toBlock: to }, 100)).length;
    const isTable = async (name: string) => rowsOf<{ t: string | null }>(await ctx.db.execute(sql`select to_regclass(${name})::text as t`))[0]!.t !== null;

    it("rows appended to a stage while its duplicates are removed (a job taken over, still loading) wait for the finish instead of failing its second build", async () => {
      const base = 60 * M;
      const worker = await createDb({ databaseUrl: url(), maxConnections: 2 });
      const holding = gate();
      let holder: Promise<void> | undefined;
      try {
        expect(await planStages(ctx.db, [{ from: base + 1, to: base + 10 }], 1)).toEqual([base]);
        await loadChunk(ctx.db, "transfers_s60", base + 1, base + 10);
        await loadChunk(ctx.db, "transfers_s60", base + 1, base + 10); // a retry: the build of the key fails, the duplicates go
        // The duplicates' delete stops until the test lets go (a statement trigger waiting on a lock the test holds).
        await ctx.db.execute(sql.raw(`create function stage_test_stall() returns trigger language plpgsql as $$ begin perform pg_advisory_xact_lock(4711); return null; end $$`));
        await ctx.db.execute(sql.raw(`create trigger stall before delete on transfers_s60 for each statement execute function stage_test_stall()`));
        const locked = gate();
        holder = ctx.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(4711)`);
          locked.open();
          await holding.wait;
        });
        await locked.wait;
        const finishing = completeChunk(worker.db, { fromBlock: base + 1, toBlock: base + 10, swaps: 0 }, true);
        finishing.catch(() => {});
        await until("the duplicates' delete under way", () => waiting("advisory"), 10_000);
        // The old worker of a job taken over appends the chunk once more meanwhile.
        let appendDone = false;
        const appended = loadChunk(ctx.db, "transfers_s60", base + 1, base + 10).then(
          () => "appended",
          (e: unknown) => e,
        );
        void appended.finally(() => (appendDone = true));
        await until("the append done or waiting for the stage", async () => appendDone || (await waiting("relation")), 10_000);
        holding.open();
        await holder;
        expect(await finishing).toMatchObject({ how: "attached", rows: 20, duplicates: 20 });
        // It waited, and then found the stage attached (renamed): its chunk is run again, on the per-row path.
        expect(String(await appended)).toMatch(/transfers_s60/);
        expect(await listed(base, base + 20)).toBe(20);
        expect(await missingIn(ctx.db, base + 1, base + 10)).toBeUndefined();
      } finally {
        holding.open();
        await holder?.catch(() => {});
        await worker.close();
      }
    });

    it("a partition made row by row while the stage's indexes are built takes the stage's rows: merged, not attached over it", async () => {
      const base = 61 * M;
      const worker = await createDb({ databaseUrl: url(), maxConnections: 2 });
      const writing = gate();
      let writer: Promise<void> | undefined;
      try {
        expect(await planStages(ctx.db, [{ from: base + 1, to: base + 10 }], 1)).toEqual([base]);
        await loadChunk(ctx.db, "transfers_s61", base + 1, base + 10);
        // A writer on the per-row path (the follower, another run) makes transfers_p61 and has not committed.
        const made = gate();
        writer = ctx.db.transaction(async (tx) => {
          await insertTransfers(tx as unknown as Database, transfersOf(base + 9, base + 12));
          made.open();
          await writing.wait;
        });
        await made.wait;
        const finishing = completeChunk(worker.db, { fromBlock: base + 1, toBlock: base + 10, swaps: 0 }, true);
        finishing.catch(() => {});
        await until("the finish waiting for the table", () => waiting("relation"), 10_000);
        writing.open();
        await writer;
        expect(await finishing).toMatchObject({ how: "merged", rows: 20 });
        expect(await listed(base, base + 20)).toBe(24);
        expect(await isTable("transfers_s61")).toBe(false);
        expect(await missingIn(ctx.db, base + 1, base + 10)).toBeUndefined();
      } finally {
        writing.open();
        await writer?.catch(() => {});
        await worker.close();
      }
    });
  },
  postgresTarget,
);
