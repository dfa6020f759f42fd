/**
 * upsertHolders keeps a balance's parts with it (the native token's free, reserved, frozen and
 * transferable; an asset account's status) in its one unnest statement, on PGlite and Postgres:
 * written, replaced by a newer read, untouched by an older one, null where a row has none.
 */
import { expect, it } from "vitest";
import { accountHoldings, countHolders, holdersAfter, holdersByOffset, upsertHolders } from "../../db/index.js";
import { describeDb } from "../support/db.js";

const ALICE = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";
const BOB = "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T";
const U128_MAX = (2n ** 128n - 1n).toString();

const parts = (h: { free: string | null; reserved: string | null; frozen: string | null; transferable: string | null; status: string | null }) => ({
  free: h.free,
  reserved: h.reserved,
  frozen: h.frozen,
  transferable: h.transferable,
  status: h.status,
});
const none = { free: null, reserved: null, frozen: null, transferable: null };

describeDb("holder parts", (ctx) => {
  it("are written with the balance in one statement, native and asset rows mixed, and read back by every reader", async () => {
    await upsertHolders(ctx.db, [
      { tokenId: 0, account: ALICE, balance: U128_MAX, free: (2n ** 128n - 11n).toString(), reserved: "10", frozen: "25", transferable: (2n ** 128n - 26n).toString(), blockNumber: 5 },
      { tokenId: 7, account: ALICE, balance: "42", status: "frozen", blockNumber: 5 },
      { tokenId: 7, account: BOB, balance: "43", status: "blocked", blockNumber: 5 },
      { tokenId: 8, account: BOB, balance: "1", blockNumber: 5 },
    ]);
    const held = await accountHoldings(ctx.db, ALICE);
    expect(held).toHaveLength(2);
    expect(parts(held[0]!)).toEqual({ free: (2n ** 128n - 11n).toString(), reserved: "10", frozen: "25", transferable: (2n ** 128n - 26n).toString(), status: null });
    expect(parts(held[1]!)).toEqual({ ...none, status: "frozen" });
    const ranked = await holdersByOffset(ctx.db, 7, 0, 10);
    expect(ranked.map((h) => [h.account, h.status])).toEqual([[BOB, "blocked"], [ALICE, "frozen"]]);
    expect((await holdersByOffset(ctx.db, 7, 1, 10, 2)).map((h) => h.status)).toEqual(["frozen"]);
    expect((await holdersAfter(ctx.db, 7, { balance: "43", account: BOB }, 10)).map((h) => h.status)).toEqual(["frozen"]);
    expect(parts((await accountHoldings(ctx.db, BOB)).find((h) => h.tokenId === 8)!)).toEqual({ ...none, status: null });
    expect([await countHolders(ctx.db, 0), await countHolders(ctx.db, 7), await countHolders(ctx.db, 8)]).toEqual([1, 2, 1]);
  });

  it("a newer read replaces every part (also with null), an older one changes none, a zero removes the row", async () => {
    await upsertHolders(ctx.db, [{ tokenId: 0, account: ALICE, balance: "100", free: "60", reserved: "40", frozen: "50", transferable: "50", blockNumber: 10 }]);
    await upsertHolders(ctx.db, [{ tokenId: 0, account: ALICE, balance: "100", free: "100", reserved: "0", frozen: "0", transferable: "100", blockNumber: 9 }]);
    expect(parts((await accountHoldings(ctx.db, ALICE))[0]!)).toEqual({ free: "60", reserved: "40", frozen: "50", transferable: "50", status: null });
    // Same balance, other parts (a reserve released): the parts move even though the rank does not.
    await upsertHolders(ctx.db, [{ tokenId: 0, account: ALICE, balance: "100", free: "100", reserved: "0", frozen: "50", transferable: "50", blockNumber: 11 }]);
    expect(parts((await accountHoldings(ctx.db, ALICE))[0]!)).toEqual({ free: "100", reserved: "0", frozen: "50", transferable: "50", status: null });
    await upsertHolders(ctx.db, [{ tokenId: 0, account: ALICE, balance: "100", blockNumber: 12 }]);
    expect(parts((await accountHoldings(ctx.db, ALICE))[0]!)).toEqual({ ...none, status: null });
    await upsertHolders(ctx.db, [{ tokenId: 7, account: ALICE, balance: "5", status: "liquid", blockNumber: 12 }]);
    await upsertHolders(ctx.db, [{ tokenId: 7, account: ALICE, balance: "5", status: "frozen", blockNumber: 13 }]);
    expect((await accountHoldings(ctx.db, ALICE)).map((h) => [h.tokenId, h.status])).toEqual([[0, null], [7, "frozen"]]);
    await upsertHolders(ctx.db, [{ tokenId: 7, account: ALICE, balance: "0", blockNumber: 14 }]);
    expect((await accountHoldings(ctx.db, ALICE)).map((h) => h.tokenId)).toEqual([0]);
    expect(await countHolders(ctx.db, 7)).toBe(0);
  });

  it("a token's holder count equals its rows after every batch: holders added to a token already counted, updated, removed, and read late", async () => {
    const rows = async () => (await holdersByOffset(ctx.db, 9, 0, 100)).length;
    const batches: Parameters<typeof upsertHolders>[1][] = [
      [{ tokenId: 9, account: "acct-a", balance: "5", blockNumber: 20 }, { tokenId: 9, account: "acct-b", balance: "6", blockNumber: 20 }],
      // A new holder beside an update of a counted one: the count grows by one, not by two.
      [{ tokenId: 9, account: "acct-c", balance: "7", blockNumber: 21 }, { tokenId: 9, account: "acct-a", balance: "8", blockNumber: 21 }],
      [{ tokenId: 9, account: "acct-b", balance: "0", blockNumber: 22 }, { tokenId: 9, account: "acct-d", balance: "1", blockNumber: 22 }, { tokenId: 9, account: "acct-e", balance: "2", blockNumber: 22 }],
      // An older read of a counted holder changes nothing; of a new one, it adds it.
      [{ tokenId: 9, account: "acct-c", balance: "70", blockNumber: 19 }, { tokenId: 9, account: "acct-f", balance: "3", blockNumber: 19 }],
      [{ tokenId: 9, account: "acct-a", balance: "0", blockNumber: 23 }],
    ];
    const counts: [number, number][] = [];
    for (const batch of batches) {
      await upsertHolders(ctx.db, batch);
      counts.push([await countHolders(ctx.db, 9), await rows()]);
    }
    expect(counts).toEqual([
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
      [4, 4],
    ]);
  });
});
