/**
 * Retention and writers on the partitions' locks (db/queries/partitions.ts, migration 0025), two
 * sessions at once on PostgreSQL (PGlite has one connection: nothing there ever waits for a
 * lock). prune-history's detach waits at most its lock_timeout and then says to run it again;
 * a writer making a partition waits at most ensure_block_partitions' own.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  createDb,
  insertTransfers,
  partitionsOf,
  PartitionLockTimeoutError,
  pruneTransfers,
  rowsOf,
  setCheckpoint,
  type Database,
  type DbHandle,
  type NewTransfer,
} from "../../db/index.js";
import { dbTargets, describeDb } from "../support/db.js";
import { gate, until } from "../support/wait.js";

const transfer = (blockNumber: number): NewTransfer => ({
  blockNumber,
  eventIndex: 0,
  timestamp: 1_700_000_000 + blockNumber * 6,
  tokenId: 1984,
  fromAccount: "alice",
  toAccount: "bob",
  amount: "1",
  kind: "transfer",
  event: "assets.Transferred",
});

/** `work`'s error (or "done"), or "still waiting" after `ms`: a wait without bound fails the test instead of hanging it. */
async function settled(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve("still waiting"), ms)));
  try {
    return await Promise.race([work.then(() => "done", (e: unknown) => e), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The messages of `err` and its causes (drizzle wraps the driver's error). */
function messages(err: unknown): string {
  const out: string[] = [];
  for (let e = err as { message?: unknown; hint?: unknown; cause?: unknown } | undefined, i = 0; e && typeof e === "object" && i < 5; e = e.cause as typeof e, i++) out.push(`${String(e.message)} ${e.hint ? String(e.hint) : ""}`);
  return out.join(" | ");
}

const postgresTarget = dbTargets.find((t) => t.name === "postgres")!;

describeDb(
  "partition locks",
  (ctx) => {
    const url = () => (ctx.handle as DbHandle & { url: string }).url;
    /** Whether some session holds `mode` on transfers (granted). */
    const held = async (mode: string) =>
      Number(rowsOf<{ n: string | number }>(await ctx.db.execute(sql`select count(*) as n from pg_locks where database = (select oid from pg_database where datname = current_database()) and relation = 'transfers'::regclass and mode = ${mode} and granted`))[0]!.n) > 0;
    const isTable = async (name: string) => rowsOf<{ t: string | null }>(await ctx.db.execute(sql`select to_regclass(${name})::text as t`))[0]!.t !== null;

    it("prune-history behind a writer that made a partition and has not committed gives up at its lock_timeout, names the writer and says to run again; the writer goes on", async () => {
      const pruner = await createDb({ databaseUrl: url(), lockTimeoutMs: 500, maxConnections: 2 });
      const writing = gate();
      let writer: Promise<void> | undefined;
      try {
        await insertTransfers(ctx.db, [transfer(10_000_010), transfer(11_000_010), transfer(12_500_000)]);
        await setCheckpoint(ctx.db, { blockNumber: 12_500_000, blockHash: "0x12", chainFinalized: 12_500_000 });
        // Making transfers_p14 takes SHARE UPDATE EXCLUSIVE on transfers until this transaction ends.
        writer = ctx.db.transaction(async (tx) => {
          await insertTransfers(tx as unknown as Database, [transfer(14_000_000)]);
          await writing.wait;
          await insertTransfers(tx as unknown as Database, [transfer(14_000_001)]);
        });
        await until("the lock held", () => held("ShareUpdateExclusiveLock"), 10_000);
        const refused = await settled(pruneTransfers(pruner.db, 12_000_000), 15_000);
        expect(refused).toBeInstanceOf(PartitionLockTimeoutError);
        expect((refused as Error).message).toMatch(/prune-history waited 500ms \(lock_timeout\) to detach or drop transfers_p10 of transfers, behind pid \d+ \(idle in transaction/);
        expect((refused as Error).message).toMatch(/Run tokenpool prune-history again once those transactions end/);
        writing.open();
        await writer;
        expect((await partitionsOf(ctx.db, "transfers")).some((p) => p.name === "transfers_p10")).toBe(true);
        expect(await pruneTransfers(pruner.db, 12_000_000)).toMatchObject({ dropped: 2, deleted: 0 });
        expect(await isTable("transfers_p10")).toBe(false);
        expect(await isTable("transfers_p11")).toBe(false);
      } finally {
        writing.open();
        await writer?.catch(() => {});
        await pruner.close();
      }
    });

    it("a prune that outwaits a long read leaves the partition half-detached and says to run again, writers making partitions meanwhile are not held up, and the next prune finishes it", async () => {
      const pruner = await createDb({ databaseUrl: url(), lockTimeoutMs: 2_000, maxConnections: 2 });
      const reading = gate();
      let reader: Promise<void> | undefined;
      try {
        await insertTransfers(ctx.db, [transfer(20_000_010), transfer(21_500_000)]);
        await setCheckpoint(ctx.db, { blockNumber: 21_500_000, blockHash: "0x21", chainFinalized: 21_500_000 });
        reader = ctx.db.transaction(async (tx) => {
          await tx.execute(sql`select count(*) from transfers`);
          await reading.wait;
        });
        await until("the read under way", () => held("AccessShareLock"), 10_000);
        const order: string[] = [];
        const prune = pruneTransfers(pruner.db, 21_000_000).finally(() => order.push("prune"));
        // The detach now waits for the read, holding no lock on transfers: a writer makes its partition at once.
        await until("the detach waiting for the read", async () => Number(rowsOf<{ n: string | number }>(await ctx.db.execute(sql`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event = 'virtualxid'`))[0]!.n) > 0, 10_000);
        await insertTransfers(ctx.db, [transfer(25_000_000)]);
        order.push("writer");
        const refused = await settled(prune, 15_000);
        expect(order).toEqual(["writer", "prune"]);
        expect(refused).toBeInstanceOf(PartitionLockTimeoutError);
        expect((refused as Error).message).toMatch(/to detach or drop transfers_p\d+ of transfers, behind pid \d+ \(idle in transaction.*Run tokenpool prune-history again/s);
        reading.open();
        await reader;
        expect(await pruneTransfers(pruner.db, 21_000_000)).toMatchObject({ deleted: 0 });
        expect(await isTable("transfers_p20")).toBe(false);
        expect(await isTable("transfers_p25")).toBe(true);
      } finally {
        reading.open();
        await reader?.catch(() => {});
        await pruner.close();
      }
    });

    it("a writer making a partition behind a session that never lets go of the table fails at ensure_block_partitions' lock_timeout, saying how to find it", async () => {
      const [fn] = rowsOf<{ config: string[] | null }>(await ctx.db.execute(sql`select proconfig as config from pg_proc where proname = 'ensure_block_partitions'`));
      expect(fn!.config).toEqual(["lock_timeout=2min"]);
      // Shortened for the test, in this suite's own database.
      await ctx.db.execute(sql`alter function ensure_block_partitions(regclass, bigint[]) set lock_timeout = '300ms'`);
      const holding = gate();
      let holder: Promise<void> | undefined;
      try {
        // A session that holds the table (a DETACH run by hand without lock_timeout, an idle transaction after a LOCK).
        holder = ctx.db.transaction(async (tx) => {
          await tx.execute(sql`lock table transfers in share update exclusive mode`);
          await holding.wait;
        });
        await until("the lock held", () => held("ShareUpdateExclusiveLock"), 10_000);
        const refused = await settled(insertTransfers(ctx.db, [transfer(30_000_000)]), 15_000);
        expect(messages(refused)).toMatch(/making partition transfers_p30 of public\.transfers waited 300ms \(lock_timeout\).*nothing was written, and the write is retried/);
        expect(messages(refused)).toMatch(/find it with: select pid, state, xact_start, query from pg_stat_activity/);
        expect((refused as { cause?: { code?: string } }).cause?.code).toBe("55P03");
        holding.open();
        await holder;
        await insertTransfers(ctx.db, [transfer(30_000_000)]);
        expect(await isTable("transfers_p30")).toBe(true);
      } finally {
        holding.open();
        await holder?.catch(() => {});
        await ctx.db.execute(sql`alter function ensure_block_partitions(regclass, bigint[]) set lock_timeout = '2min'`);
      }
    });
  },
  postgresTarget,
);
