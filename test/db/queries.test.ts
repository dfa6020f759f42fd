import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import {
  countHolders,
  createDb,
  deleteTokens,
  getBalance,
  getToken,
  insertSwaps,
  latestPrice,
  insertPrices,
  swapTotals,
  upsertHolders,
  upsertTokens,
  findTokensBySymbol,
} from "../../db/index.js";
import { describeDb } from "../support/db.js";
import { ALICE, BOB, HEAD_TIME, KSM, seedMarket, TEN, USDT } from "../support/fixtures.js";

describeDb("db layer", (ctx) => {
  it("latest block wins: an older read never overwrites a newer one", async () => {
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "500", blockNumber: 10 }]);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "100", blockNumber: 9 }]);
    expect(await getBalance(ctx.db, 1, ALICE)).toBe(500n);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "700", blockNumber: 10 }]);
    expect(await getBalance(ctx.db, 1, ALICE)).toBe(700n);
    await upsertTokens(ctx.db, [{ id: 5, name: "New", symbol: "N", decimals: 3, supply: "9", blockNumber: 20 }]);
    await upsertTokens(ctx.db, [{ id: 5, name: "Old", symbol: "O", decimals: 3, supply: "1", blockNumber: 19 }]);
    expect(await getToken(ctx.db, 5)).toMatchObject({ name: "New", supply: "9", isNative: false, status: "live" });
  });

  it("a zero balance deletes the holder, unless a newer balance is stored", async () => {
    await upsertHolders(ctx.db, [
      { tokenId: 1, account: ALICE, balance: "5", blockNumber: 10 },
      { tokenId: 1, account: BOB, balance: "6", blockNumber: 10 },
    ]);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "0", blockNumber: 11 }]);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: BOB, balance: "0", blockNumber: 9 }]);
    expect(await countHolders(ctx.db, 1)).toBe(1);
    expect(await getBalance(ctx.db, 1, ALICE)).toBe(0n);
    expect(await getBalance(ctx.db, 1, BOB)).toBe(6n);
  });

  it("stores u128 balances exactly", async () => {
    const max = (2n ** 128n - 1n).toString();
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: max, blockNumber: 1 }]);
    expect((await getBalance(ctx.db, 1, ALICE)).toString()).toBe(max);
  });

  it("swap rows keyed by (block, event, hop): inserting twice counts once", async () => {
    await seedMarket(ctx.db);
    const window = { from: HEAD_TIME - 86_400, to: HEAD_TIME };
    const before = await swapTotals(ctx.db, window);
    await seedMarket(ctx.db); // the whole market again: every write is idempotent
    expect(await swapTotals(ctx.db, window)).toEqual(before);
    expect(before).toEqual({ volumeUsd: "160.5", feeUsd: "0.4815", swaps: 3 });
    await insertSwaps(ctx.db, []);
  });

  it("latest price per token, optionally as of a block", async () => {
    await seedMarket(ctx.db);
    expect((await latestPrice(ctx.db, KSM))?.priceUsd).toMatch(/^12\.50*$/);
    expect((await latestPrice(ctx.db, KSM, 1_999))?.priceUsd).toMatch(/^10(\.0*)?$/);
    await insertPrices(ctx.db, [{ tokenId: USDT, blockNumber: 1_000, priceUsd: "1" }]); // replay is a no-op
    expect(await latestPrice(ctx.db, 12345)).toBeUndefined();
  });

  it("symbols match case-insensitively; destroyed tokens disappear", async () => {
    await seedMarket(ctx.db);
    expect((await findTokensBySymbol(ctx.db, "dup")).map((t) => t.id).sort()).toEqual([21, 22]);
    expect((await findTokensBySymbol(ctx.db, "ten")).map((t) => t.id)).toEqual([TEN]);
    await deleteTokens(ctx.db, [TEN]);
    expect(await getToken(ctx.db, TEN)).toBeUndefined();
  });

  it("migrations are idempotent", async () => {
    await ctx.handle.migrate();
    await ctx.handle.migrate();
    await ctx.handle.ping();
  });
});

it("PGlite keeps its data in DATA_DIR across restarts", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-"));
  try {
    const first = await createDb({ dataDir: dir });
    await first.migrate();
    await upsertHolders(first.db, [{ tokenId: 1, account: ALICE, balance: "42", blockNumber: 1 }]);
    await first.close();
    const second = await createDb({ dataDir: dir });
    await second.migrate();
    expect(await getBalance(second.db, 1, ALICE)).toBe(42n);
    expect(second.kind).toBe("pglite");
    await second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
