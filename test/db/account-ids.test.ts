/**
 * Accounts as integer ids in the transfer history (db/queries/account-ids.ts, migration 0024):
 * each address gets one id however many writers ask at once, a rolled-back batch never leaves a
 * row naming an id that is gone, a reset of the indexed data keeps them, and the lists answer
 * addresses, never ids.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { accountIds, accountTransfers, insertTransfers, resetIndexedData, rowsOf, tokenTransfers, type NewTransfer } from "../../db/index.js";
import { Batch } from "../../indexer/writer.js";
import { describeDb } from "../support/db.js";

const transfer = (eventIndex: number, from: string | null, to: string | null, blockNumber = 10): NewTransfer => ({
  blockNumber,
  eventIndex,
  timestamp: 1_700_000_000,
  tokenId: 1984,
  fromAccount: from,
  toAccount: to,
  amount: String(eventIndex + 1),
  kind: from === null ? "mint" : to === null ? "burn" : "transfer",
  event: "assets.Transferred",
});

describeDb("account ids", (ctx) => {
  it("one id an address, whoever asks and however often; a list answers the addresses", async () => {
    const first = await accountIds(ctx.db, ["bob", "alice", null, "bob"]);
    expect([...first.keys()].sort()).toEqual(["alice", "bob"]);
    expect(await accountIds(ctx.db, ["alice", "carol"])).toEqual(new Map([["alice", first.get("alice")], ["carol", expect.any(Number)]]));
    // Ten writers at once, each with the same new addresses in its own order: one id each, no deadlock.
    const names = Array.from({ length: 50 }, (_, i) => `new${i}`);
    const got = await Promise.all(Array.from({ length: 10 }, (_, w) => accountIds(ctx.handle.db, w % 2 ? names : [...names].reverse())));
    for (const m of got) expect(m).toEqual(got[0]);
    const [n] = rowsOf<{ n: string | number }>(await ctx.db.execute(sql`select count(*) as n from account_ids where address like 'new%'`));
    expect(Number(n!.n)).toBe(50);

    await insertTransfers(ctx.db, [transfer(0, "alice", "bob"), transfer(1, null, "carol"), transfer(2, "bob", null)]);
    expect((await accountTransfers(ctx.db, "bob", undefined, {}, 10)).rows.map((r) => [r.eventIndex, r.fromAccount, r.toAccount])).toEqual([
      [2, "bob", null],
      [0, "alice", "bob"],
    ]);
    expect((await tokenTransfers(ctx.db, { tokenId: 1984 }, {}, 10)).map((r) => [r.fromAccount, r.toAccount])).toEqual([
      ["bob", null],
      [null, "carol"],
      ["alice", "bob"],
    ]);
    // An address no transfer ever named has an empty list (and gets no id for asking).
    expect((await accountTransfers(ctx.db, "nobody", undefined, {}, 10)).rows).toEqual([]);
    expect(rowsOf(await ctx.db.execute(sql`select id from account_ids where address = 'nobody'`))).toEqual([]);
  });

  it("a batch whose transaction fails leaves ids that still name their addresses: the next batch's rows read back by address", async () => {
    const fenced = new Batch();
    fenced.transfers.push(transfer(0, "frank", "dave", 21));
    await expect(fenced.commit(ctx.db, { blockNumber: 21, blockHash: "0x21", chainFinalized: 21 }, async () => {
      throw new Error("fenced");
    })).rejects.toThrow("fenced");
    // The fenced batch wrote nothing, yet its accounts have ids (given out before its transaction)...
    expect(rowsOf(await ctx.db.execute(sql`select block_number from transfers where block_number = 21`))).toEqual([]);
    // ...that the next batch, from the same writer's cache, writes rows with, read back by address.
    const next = new Batch();
    next.transfers.push(transfer(1, "frank", "dave", 22));
    await next.commitHistory(ctx.db);
    expect((await accountTransfers(ctx.db, "frank", undefined, {}, 10)).rows.map((r) => [r.blockNumber, r.fromAccount, r.toAccount])).toEqual([[22, "frank", "dave"]]);
  });

  it("a list whose ids name no address (account_ids edited under the store) fails, never answers a transfer from no one", async () => {
    await insertTransfers(ctx.db, [transfer(0, "ivy", "jo", 40)]);
    await ctx.db.execute(sql`delete from account_ids where address = 'jo'`);
    await expect(accountTransfers(ctx.db, "ivy", undefined, {}, 10)).rejects.toThrow("names no address");
  });

  it("a reset of the indexed data keeps the ids, so a running writer's cached ones stay right", async () => {
    const before = await accountIds(ctx.db, ["gina"]);
    await resetIndexedData(ctx.db);
    expect(rowsOf<{ id: number }>(await ctx.db.execute(sql`select id from account_ids where address = 'gina'`)).map((r) => Number(r.id))).toEqual([before.get("gina")]);
    await insertTransfers(ctx.db, [transfer(0, "gina", "hal", 30)], await accountIds(ctx.db, ["gina", "hal"]));
    expect((await accountTransfers(ctx.db, "gina", undefined, {}, 10)).rows.map((r) => r.toAccount)).toEqual(["hal"]);
  });
});
