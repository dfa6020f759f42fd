/**
 * COPY FROM STDIN on postgres.js (db/copy.ts), the bulk path's load: the text format's escapes,
 * and a COPY the server refuses rejects with its error and takes its transaction with it, where
 * postgres.js 3.4.9 left it pending for ever (porsager/postgres#1173; patches/postgres+3.4.9.patch).
 */
import { sql } from "drizzle-orm";
import net from "node:net";
import { expect, it, vi } from "vitest";
import { copyRows, copyText, postgresClient } from "../../db/copy.js";
import { createDb, rowsOf, type Database, type DbHandle } from "../../db/index.js";
import { dbTargets, describeDb, memoryStore } from "../support/db.js";

it("a value in COPY's text format: the four characters the format reads escaped, null as \\N, the rest as it is", () => {
  expect(copyText(null)).toBe("\\N");
  expect(copyText(42)).toBe("42");
  expect(copyText("balances.Transfer")).toBe("balances.Transfer");
  expect(copyText("a\\b\tc\nd\re\\N")).toBe("a\\\\b\\tc\\nd\\re\\\\N");
});

it("PGlite has no client to COPY through: the bulk path inserts there", async () => {
  const store = await memoryStore();
  try {
    expect(postgresClient(store.db)).toBeUndefined();
  } finally {
    await store.close();
  }
});

describeDb(
  "COPY FROM STDIN on postgres.js",
  (ctx) => {
    const count = async () => Number(rowsOf<{ n: string }>(await ctx.db.execute(sql`select count(*) as n from copy_probe`))[0]!.n);

    it("rows copied inside a transaction arrive as written; a refused row rejects with the server's error, rolls the transaction back and leaves the pool usable", async () => {
      await ctx.db.execute(sql`create table if not exists copy_probe (n integer, t text)`);
      await ctx.db.execute(sql`truncate copy_probe`);
      const text = "tab\there, newline\nthere, back\\slash, \\N";
      await ctx.db.transaction(async (tx) => copyRows(postgresClient(tx as unknown as Database)!, "copy_probe", ["n", "t"], [[1, text], [2, null]]));
      expect(rowsOf(await ctx.db.execute(sql`select n, t from copy_probe order by n`))).toEqual([{ n: 1, t: text }, { n: 2, t: null }]);

      // The second row is refused once the data is all sent (the writable ended): it must reject, not hang.
      const refused = ctx.db.transaction(async (tx) => {
        await tx.execute(sql`insert into copy_probe values (3, 'before the copy')`);
        await copyRows(postgresClient(tx as unknown as Database)!, "copy_probe", ["n", "t"], [[4, "fine"], ["not a number", "refused"]]);
      });
      await expect(refused).rejects.toThrow(/invalid input syntax for type integer/);
      expect(await count()).toBe(2);
      // Every connection of the pool (4) is still usable: none left in an aborted transaction.
      const alive = await Promise.all(Array.from({ length: 8 }, () => ctx.db.transaction(async (tx) => rowsOf<{ ok: number }>(await tx.execute(sql`select 1 as ok`))[0]!.ok)));
      expect(alive).toEqual(Array(8).fill(1));
      // A table that is not there.
      await expect(copyRows(postgresClient(ctx.db)!, "copy_probe_missing", ["n"], [[1]])).rejects.toThrow(/does not exist/);
    });

    it("a COPY on the pool, outside a transaction, has its connection to itself: a query issued meanwhile is not pipelined into its data", async () => {
      // One connection: postgres.js pipelines a query onto a busy one when no other is free.
      const store = await createDb({ databaseUrl: (ctx.handle as DbHandle & { url: string }).url, maxConnections: 1 });
      try {
        await store.db.execute(sql`create table if not exists copy_pool_probe (n integer, t text)`);
        const rows = Array.from({ length: 20_000 }, (_, i) => [i, `row ${i}`]);
        const [, other] = await Promise.all([copyRows(postgresClient(store.db)!, "copy_pool_probe", ["n", "t"], rows), store.db.execute(sql`select 1 as ok`)]);
        expect(rowsOf(other)).toEqual([{ ok: 1 }]);
        expect(rowsOf(await store.db.execute(sql`select count(*)::int as n from copy_pool_probe`))).toEqual([{ n: 20_000 }]);
      } finally {
        await store.close();
      }
    });

    it("every connection is opened with TCP_NODELAY, as libpq and node-postgres open theirs: a COPY's data and its end are two writes, and the second waited out the server's delayed ACK (≈ 40 ms a COPY)", async () => {
      const noDelay = vi.spyOn(net.Socket.prototype, "setNoDelay");
      const store = await createDb({ databaseUrl: (ctx.handle as DbHandle & { url: string }).url, maxConnections: 2 });
      try {
        await store.db.execute(sql`select 1`);
        expect(noDelay).toHaveBeenCalledWith(true);
      } finally {
        noDelay.mockRestore();
        await store.close();
      }
    });
  },
  dbTargets.find((t) => t.name === "postgres")!,
);
