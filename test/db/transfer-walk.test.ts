/**
 * The walk of a transfer list through its partitions (issue 40, db/queries/transfer-walk.ts): where a
 * list is sparse below its newest partition, each later slice is swept — one index range per
 * side and partition, every kind at once — instead of merged per kind (eight ranges), its page
 * exact; where a slice holds more of the key than a sweep reads, the merge reads it; and a slice
 * a bound cuts is merged as before.
 */
import { sql, type SQL } from "drizzle-orm";
import { expect, it } from "vitest";
import { accountTransfers, dropPartitionsBefore, ensurePartitionsBetween, inListOrder, rowsOf, SWEEP_ROWS, tokenTransfers, type Database } from "../../db/index.js";
import { PgDialect } from "drizzle-orm/pg-core";
import { transferKindCode as kind } from "../../db/schema/transfers.js";
import { explaining } from "../support/explain.js";
import { describeDb } from "../support/db.js";

const PARTITIONS = 6;
const acct = (name: string) => name.padEnd(48, "0");
const DAVE = acct("dave");
const BUSY = acct("busy");
/** An account's id in account_ids, as SQL. */
const id = (a: string) => sql`(select id from account_ids where address = ${a})`;

/** Index scans of transfers' partitions in the plans of the statements `read` runs. */
async function rangesOf(db: Database, read: (db: Database) => Promise<unknown>): Promise<number> {
  const seen: SQL[] = [];
  const recording = (inner: Database): Database =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === "execute") return (q: SQL) => (seen.push(q), target.execute(q));
        if (prop === "transaction") return (run: (tx: Database) => Promise<unknown>) => target.transaction((tx) => run(recording(tx as unknown as Database)));
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  await read(recording(db));
  let scans = 0;
  for (const q of seen) {
    // Planned as the list plans it (inListOrder's settings).
    const [row] = rowsOf<Record<string, unknown>>(await inListOrder(db, (tx) => tx.execute(sql`explain (format json) ${q}`)));
    const raw = Object.values(row!)[0];
    scans += (JSON.stringify(typeof raw === "string" ? JSON.parse(raw) : raw).match(/"Index Name":\s*"transfers_p\d+_/g) ?? []).length;
  }
  return scans;
}

/** A handle on `db` that records the statements sent through it (and the transactions it opens), as SQL text. */
function recorder(db: Database): { db: Database; take(): string[] } {
  let seen: string[] = [];
  const dialect = new PgDialect();
  const recording = (inner: Database): Database =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === "execute") return (q: SQL) => (seen.push(dialect.sqlToQuery(q).sql.replace(/\s+/g, " ").trim()), target.execute(q));
        if (prop === "transaction") return (run: (tx: Database) => Promise<unknown>) => target.transaction((tx) => run(recording(tx as unknown as Database)));
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return { db: recording(db), take: () => [seen, (seen = [])][0]! };
}

describeDb("the walk of a transfer list", (ctx) => {
  /**
   * DAVE: 3 rows a partition (sent and received, three kinds), on PARTITIONS partitions but the
   * newest; BUSY: SWEEP_ROWS + 50 rows in partition 1, 2,000 from block 2,000,101 (partition 2
   * is mostly BUSY's: its statistics say so), and one in the newest.
   */
  async function fill(): Promise<void> {
    await dropPartitionsBefore(ctx.db, "transfers", Number.MAX_SAFE_INTEGER);
    await ensurePartitionsBetween(ctx.db, 0, PARTITIONS * 1_000_000 - 1);
    // The accounts' ids (account_ids keeps its rows across tests).
    await ctx.db.execute(sql`insert into account_ids (address) values (${DAVE}), (${BUSY}), (${acct("eve")}) on conflict (address) do nothing`);
    await ctx.db.execute(sql`
      insert into transfers (block_number, event_index, timestamp, token_id, from_id, to_id, amount, kind, event)
      select p * 1000000 + 500 + j * 10, j, 1700000000 + p, 7,
             case when j = 1 then ${id(acct("eve"))} else ${id(DAVE)} end, case when j = 1 then ${id(DAVE)} else ${id(acct("eve"))} end, 1,
             (array[${kind("transfer")}, ${kind("deposit")}, ${kind("fee")}]::smallint[])[j + 1], 'e'
      from generate_series(0, ${PARTITIONS - 2}) p, generate_series(0, 2) j`);
    await ctx.db.execute(sql`
      insert into transfers (block_number, event_index, timestamp, token_id, from_id, to_id, amount, kind, event)
      select 1000000 + i, 0, 1700000000, 9, ${id(BUSY)}, ${id(acct("eve"))}, 1, (array[${kind("transfer")}, ${kind("withdraw")}]::smallint[])[i % 2 + 1], 'e' from generate_series(1, ${SWEEP_ROWS + 50}) i
      union all select 2000100 + i, 5, 1700000000, 9, ${id(BUSY)}, ${id(acct("eve"))}, 1, ${kind("transfer")}::smallint, 'e' from generate_series(1, 2000) i
      union all select ${(PARTITIONS - 1) * 1_000_000 + 5}, 0, 1700000000, 9, ${id(BUSY)}, ${id(acct("eve"))}, 1, ${kind("mint")}::smallint, 'e'`);
    await ctx.db.execute(sql`analyze transfers`);
  }

  /** The list as one ordered query would give it: the reference the walk's pages must equal. */
  const reference = async (where: SQL) =>
    rowsOf<{ b: string | number; e: number }>(await ctx.db.execute(sql`select block_number as b, event_index as e from transfers where ${where} order by block_number desc, event_index desc`)).map((r) => [Number(r.b), r.e]);

  it("an account sparse below its newest partition: one index range per side and partition after the first slice, and every page exact", async () => {
    await fill();
    // The first slice (the newest partition, empty for DAVE) merges 8 kinds × 2 sides; the
    // sweeps then read 2 ranges a partition: 16 + 2 × 5. Merged per kind throughout it was 16 × 6.
    expect(await rangesOf(ctx.db, (db) => accountTransfers(db, DAVE, undefined, {}, 50))).toBe(16 + 2 * (PARTITIONS - 1));
    const all = await reference(sql`${id(DAVE)} in (from_id, to_id)`);
    expect(all).toHaveLength(3 * (PARTITIONS - 1));
    const walked: number[][] = [];
    let before: { blockNumber: number; eventIndex: number } | undefined;
    for (let n = 0; n < 10; n++) {
      const page = (await accountTransfers(ctx.db, DAVE, undefined, { before }, 4)).rows;
      walked.push(...page.map((r) => [r.blockNumber, r.eventIndex]));
      if (page.length < 4) break;
      before = page.at(-1)!;
    }
    expect(walked).toEqual(all);
    // Sent only, and a token's list: the same sweep, the same rows.
    expect((await accountTransfers(ctx.db, DAVE, "out", {}, 50)).rows.map((r) => [r.blockNumber, r.eventIndex])).toEqual(await reference(sql`from_id = ${id(DAVE)}`));
    expect((await tokenTransfers(ctx.db, { tokenId: 7 }, {}, 50)).map((r) => [r.blockNumber, r.eventIndex])).toEqual(await reference(sql`token_id = 7`));
  });

  it("a slice holding more of the key than a sweep reads is merged per kind: the page is exact and the rows read bounded", async () => {
    await fill();
    const probe = explaining(ctx.db, "transfers");
    const page = await accountTransfers(probe.db, BUSY, undefined, {}, 20);
    expect(page.rows.map((r) => [r.blockNumber, r.eventIndex])).toEqual((await reference(sql`from_id = ${id(BUSY)}`)).slice(0, 20));
    // The newest partition's one row, a sweep of SWEEP_ROWS + 1 given up, then the merge's page (and a row more a kind and side).
    expect(probe.work().rows).toBeLessThanOrEqual(1 + SWEEP_ROWS + 1 + 20 + 16);
  });

  it("a slice a bound cuts a partition of is merged per kind, never swept: the page is exact", async () => {
    await fill();
    // The newest partition (16 ranges), partitions 4 and 3 swept (4), then 2 and 1, cut by fromBlock: merged (2 × 16).
    const f = { fromBlock: 1_000_600 };
    expect(await rangesOf(ctx.db, (db) => accountTransfers(db, DAVE, undefined, f, 50))).toBe(16 + 4 + 32);
    expect((await accountTransfers(ctx.db, DAVE, undefined, f, 50)).rows.map((r) => [r.blockNumber, r.eventIndex])).toEqual(await reference(sql`${id(DAVE)} in (from_id, to_id) and block_number >= 1000600`));
  });
  it("a busy account's page is its statements and no more: the planner's settings undone with the list's transaction, the partitions read once per store handle", async () => {
    await fill();
    const page = (db: Database) => accountTransfers(db, BUSY, undefined, {}, 20);
    const handle = recorder(ctx.db);
    await page(handle.db);
    const first = handle.take();
    await page(handle.db);
    const again = handle.take();
    // Besides the slices' statements (the walk's: transfers.ts): the settings with the account's
    // id (one round trip), the page's addresses. No catalog read the second time (the handle's first page read the
    // partitions), and no statement setting the planner back (the rollback of the list's
    // savepoint does).
    const others = (qs: string[]) => qs.filter((q) => !q.includes("from transfers")).map((q) => (q.startsWith("select set_config") ? q : q.slice(0, 40)));
    const settings = "select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true), (select id from account_ids where address = $1) as first";
    expect(others(first)).toEqual([settings, "select c.relname as name, pg_get_expr(c.", "select id, address from account_ids wher"]);
    expect(others(again)).toEqual([settings, "select id, address from account_ids wher"]);
    expect(again.length).toBe(first.length - 1);
    // The same rows either way, newest first.
    expect((await page(ctx.db)).rows.map((r) => r.blockNumber)).toEqual([(PARTITIONS - 1) * 1_000_000 + 5, ...Array.from({ length: 19 }, (_, i) => 2_002_100 - i)]);
    // A partition made after the handle read the list (a million blocks on) is read at once, with
    // the newest it knows, in the first slice: the list the handle keeps is stale, the page is not.
    const ahead = (PARTITIONS + 3) * 1_000_000 + 7;
    await ensurePartitionsBetween(ctx.db, ahead, ahead);
    await ctx.db.execute(sql`insert into transfers (block_number, event_index, timestamp, token_id, from_id, to_id, amount, kind, event) values (${ahead}, 0, 1700000000, 9, ${id(BUSY)}, ${id(acct("eve"))}, 1, ${kind("transfer")}::smallint, 'e')`);
    expect((await page(handle.db)).rows.slice(0, 3).map((r) => r.blockNumber)).toEqual([ahead, (PARTITIONS - 1) * 1_000_000 + 5, 2_002_100]);
    expect(others(handle.take())).not.toContain("select c.relname as name, pg_get_expr(c.");
  });
  it("rows on the first and last block of every partition are each in exactly one slice: every page exact", async () => {
    await fill();
    const EDGE = acct("edge");
    await ctx.db.execute(sql`insert into account_ids (address) values (${EDGE}) on conflict (address) do nothing`);
    // The last block of each partition below the newest, and the first of each: where one slice ends and the next begins.
    await ctx.db.execute(sql`
      insert into transfers (block_number, event_index, timestamp, token_id, from_id, to_id, amount, kind, event)
      select b, 0, 1700000000, 7, ${id(EDGE)}, ${id(acct("eve"))}, 1, ${kind("transfer")}::smallint, 'e'
      from generate_series(1, ${PARTITIONS - 1}) p, unnest(array[p * 1000000 - 1, p * 1000000]) b`);
    const all = await reference(sql`${id(EDGE)} in (from_id, to_id)`);
    expect(all).toHaveLength(2 * (PARTITIONS - 1));
    const walked: number[][] = [];
    let before: { blockNumber: number; eventIndex: number } | undefined;
    for (let page = 0; page < 20; page++) {
      const { rows } = await accountTransfers(ctx.db, EDGE, undefined, { before }, 3);
      walked.push(...rows.map((r) => [r.blockNumber, r.eventIndex]));
      if (rows.length < 3) break;
      before = { blockNumber: rows.at(-1)!.blockNumber, eventIndex: rows.at(-1)!.eventIndex };
    }
    expect(walked).toEqual(all);
  });

  it("a slice the walk expected sparse that holds more of the key than a sweep reads, its newest rows of a kind the sweep reads last: the page is still the newest rows", async () => {
    await fill();
    const MIXED = acct("mixed");
    await ctx.db.execute(sql`insert into account_ids (address) values (${MIXED}) on conflict (address) do nothing`);
    // One row in the newest partition (so the next slice is judged sparse and swept); below it,
    // SWEEP_ROWS + 50 deposits, and 50 withdrawals newer than all of them: a sweep reads a side's
    // rows kind by kind (deposit before withdraw), so its first SWEEP_ROWS + 1 are deposits only.
    await ctx.db.execute(sql`
      insert into transfers (block_number, event_index, timestamp, token_id, from_id, to_id, amount, kind, event)
      select ${(PARTITIONS - 1) * 1_000_000 + 9}, 0, 1700000000, 7, ${id(MIXED)}, ${id(acct("eve"))}, 1, ${kind("transfer")}::smallint, 'e'
      union all select ${(PARTITIONS - 2) * 1_000_000 + 10} + i, 1, 1700000000, 7, ${id(MIXED)}, ${id(acct("eve"))}, 1, ${kind("deposit")}::smallint, 'e' from generate_series(1, ${SWEEP_ROWS + 50}) i
      union all select ${(PARTITIONS - 2) * 1_000_000 + 5_000} + i, 1, 1700000000, 7, ${id(MIXED)}, ${id(acct("eve"))}, 1, ${kind("withdraw")}::smallint, 'e' from generate_series(1, 50) i`);
    await ctx.db.execute(sql`analyze transfers`);
    const all = await reference(sql`${id(MIXED)} in (from_id, to_id)`);
    const { rows } = await accountTransfers(ctx.db, MIXED, undefined, {}, 40);
    expect(rows.map((r) => [r.blockNumber, r.eventIndex])).toEqual(all.slice(0, 40));
    expect(rows.slice(1).every((r) => r.kind === "withdraw")).toBe(true);
  });
});
