/**
 * No answer mixes two blocks: while a writer commits "blocks" that each change every top
 * balance and add one holder, every holders page read at the same time shows balances and a
 * holder count of one and the same block (api/snapshot.ts runs each read in one snapshot).
 */
import { expect, it } from "vitest";
import { createApp } from "../../api/app.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { upsertHolders, upsertTokens } from "../../db/index.js";
import { createLogger } from "../../shared/logger.js";
import { describeDb } from "../support/db.js";

const TOKEN = 77;
const TOP = 20;
const account = (i: number) => `acct${String(i).padStart(44, "0")}`;
/** Top holder i's balance at step k: the rank order never changes, the last 3 digits say k. */
const balance = (i: number, k: number) => String(BigInt(TOP - i) * 1_000_000n + BigInt(k));

describeDb("reads under concurrent block commits", (ctx) => {
  it("every holders page shows one block: its balances' step equals its count's step", async () => {
    const db = ctx.db;
    await upsertTokens(db, [{ id: TOKEN, name: "Snap", symbol: "SNAP", decimals: 0, supply: "1000000000000", owner: null, kind: "asset", assetId: TOKEN, blockNumber: 1 }]);
    await upsertHolders(db, Array.from({ length: TOP }, (_, i) => ({ tokenId: TOKEN, account: account(i), balance: balance(i, 0), blockNumber: 1 })));
    const app = createApp({ db, ping: async () => {}, jwtSecret: "s".repeat(32), rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 }, trustProxy: 0, logger: createLogger("silent") });
    const reg = await app.request("/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "snap@example.com", password: "correct horse battery" }) });
    const auth = { authorization: `Bearer ${((await reg.json()) as { data: { token: string } }).data.token}` };

    let steps = 0;
    let writing = true;
    const writer = (async () => {
      for (let k = 1; writing && k < 1_000; k++) {
        // One "block": every top balance moves to step k, and one small new holder arrives.
        await db.transaction(async (tx) => {
          await upsertHolders(tx as never, [...Array.from({ length: TOP }, (_, i) => ({ tokenId: TOKEN, account: account(i), balance: balance(i, k), blockNumber: 1 + k })), { tokenId: TOKEN, account: account(1_000 + k), balance: "1", blockNumber: 1 + k }]);
        });
        steps = k;
        await new Promise((r) => setTimeout(r, 5)); // PGlite runs one thing at a time: let reads in
      }
    })();
    const seen = new Set<number>();
    const mixed: string[] = [];
    const started = Date.now();
    while (Date.now() - started < 2_000 || seen.size < 3) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const res = await app.request(`/assets/holders/${TOKEN}?limit=${TOP}`, { headers: auth });
          return (await res.json()) as { totalHolders: number; holders: { balance: string }[] };
        }),
      );
      for (const a of answers) {
        const fromCount = a.totalHolders - TOP;
        const fromBalances = new Set(a.holders.map((h) => Number(BigInt(h.balance) % 1_000n)));
        seen.add(fromCount);
        if (fromBalances.size !== 1 || !fromBalances.has(fromCount)) mixed.push(`count says step ${fromCount}, balances say ${[...fromBalances].join("/")}`);
      }
      if (Date.now() - started > 20_000) break;
      // PGlite answers within microtasks: without a turn of the event loop the writer's timer never fires.
      await new Promise((r) => setImmediate(r));
    }
    writing = false;
    await writer;
    expect(steps).toBeGreaterThan(2);
    expect(seen.size).toBeGreaterThan(2); // the reads did run while blocks landed
    expect(mixed).toEqual([]);
  });
});
