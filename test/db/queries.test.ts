import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
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
  latestPrices,
  insertBlocks,
  insertPrices,
  priceBuckets,
  swapTotals,
  poolStatsNow,
  swapTotalsByPool,
  holdersByOffset,
  upsertHolders,
  upsertTokens,
  findTokensBySymbol,
  schema,
} from "../../db/index.js";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../../db/client.js";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { describeDb } from "../support/db.js";
import { ALICE, BOB, HEAD_TIME, KSM, seedMarket, TEN, USDT } from "../support/fixtures.js";

/** Swap `i` of a KSM pool with hash-spread USD values (18 decimals, so sums are exact only in fixed point). */
function swapRow(i: number, at: { blockNumber: number; eventIndex: number; pool: number; timestamp: number }) {
  return {
    blockNumber: at.blockNumber,
    eventIndex: at.eventIndex,
    hop: 0,
    token0Id: 0,
    token1Id: at.pool,
    tokenIn: 0,
    tokenOut: at.pool,
    amountIn: "1000",
    amountOut: "990",
    fee: "3",
    volumeUsd: `${(i * 7919) % 1000}.${String((i * 104729) % 1e6).padStart(6, "0")}000000000001`,
    feeUsd: `0.${String((i * 31) % 1000).padStart(3, "0")}000000000000001`,
    account: ALICE,
    timestamp: at.timestamp,
  };
}

describeDb("db layer", (ctx) => {
  it("latest block wins: an older read never overwrites a newer one", async () => {
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "500", blockNumber: 10 }]);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "100", blockNumber: 9 }]);
    expect(await getBalance(ctx.db, 1, ALICE)).toBe(500n);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "700", blockNumber: 10 }]);
    expect(await getBalance(ctx.db, 1, ALICE)).toBe(700n);
    await upsertTokens(ctx.db, [{ id: 5, name: "New", symbol: "N", decimals: 3, supply: "9", blockNumber: 20 }]);
    await upsertTokens(ctx.db, [{ id: 5, name: "Old", symbol: "O", decimals: 3, supply: "1", blockNumber: 19 }]);
    expect(await getToken(ctx.db, 5)).toMatchObject({ name: "New", supply: "9", kind: "asset", status: "live" });
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

  it("holder counts follow every write exactly: inserts, updates, stale writes, zero balances, replays, destroyed tokens", async () => {
    const scan = async (tokenId: number) => (await ctx.db.select().from(schema.holders).where(eq(schema.holders.tokenId, tokenId))).length;
    await upsertHolders(ctx.db, [
      { tokenId: 1, account: ALICE, balance: "5", blockNumber: 10 },
      { tokenId: 1, account: BOB, balance: "6", blockNumber: 10 },
      { tokenId: 2, account: ALICE, balance: "7", blockNumber: 10 },
    ]);
    await upsertHolders(ctx.db, [{ tokenId: 1, account: ALICE, balance: "9", blockNumber: 11 }]); // update: no new holder
    await upsertHolders(ctx.db, [{ tokenId: 1, account: BOB, balance: "1", blockNumber: 9 }]); // stale: ignored
    await upsertHolders(ctx.db, [{ tokenId: 1, account: BOB, balance: "0", blockNumber: 12 }]); // gone
    await upsertHolders(ctx.db, [{ tokenId: 1, account: BOB, balance: "0", blockNumber: 12 }]); // replayed: nothing to delete
    await upsertHolders(ctx.db, [{ tokenId: 2, account: ALICE, balance: "0", blockNumber: 9 }]); // stale zero: kept
    expect([await countHolders(ctx.db, 1), await countHolders(ctx.db, 2)]).toEqual([await scan(1), await scan(2)]);
    expect([await countHolders(ctx.db, 1), await countHolders(ctx.db, 2)]).toEqual([1, 1]);
    await upsertTokens(ctx.db, [{ id: 2, name: "Two", symbol: "TWO", decimals: 0, supply: "7", blockNumber: 10 }]);
    await deleteTokens(ctx.db, [2], 11);
    expect(await countHolders(ctx.db, 2)).toBe(0);
    expect(await countHolders(ctx.db, 99)).toBe(0);
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

  it("24 h totals from hourly buckets plus the partial hours equal a scan of the swaps, for any window", async () => {
    // 300 swaps over 3 pools, spread over 30 h at irregular seconds, with 18-decimal USD values.
    const start = HEAD_TIME - 30 * 3_600;
    const rows = Array.from({ length: 300 }, (_, i) => swapRow(i, { blockNumber: 10_000 + i, eventIndex: i % 7, pool: [USDT, TEN, 18][i % 3]!, timestamp: start + Math.floor((i * 30 * 3_600) / 300) + (i % 11) * 17 }));
    // In two transactions, the second overlapping the first: replays must not count twice.
    await ctx.db.transaction((tx) => insertSwaps(tx as never, rows.slice(0, 200)));
    await ctx.db.transaction((tx) => insertSwaps(tx as never, rows.slice(100)));
    const scan = (w: { from: number; to: number }, pool?: number) => {
      const inside = rows.filter((r) => r.timestamp > w.from && r.timestamp <= w.to && (pool === undefined || r.token1Id === pool));
      const sum = (k: "volumeUsd" | "feeUsd") => inside.reduce((acc, r) => acc + parseFixed(r[k], USD_SCALE), 0n);
      return { volumeUsd: formatFixed(sum("volumeUsd"), USD_SCALE), feeUsd: formatFixed(sum("feeUsd"), USD_SCALE), swaps: inside.length };
    };
    const windows = [
      { from: HEAD_TIME - 86_400, to: HEAD_TIME },
      { from: start - 1, to: start + 1_799 },
      { from: start + 3_599, to: start + 7_201 },
      { from: start + 1_234, to: start + 1_235 },
      { from: start - 10, to: HEAD_TIME + 10 },
    ];
    for (const w of windows) {
      expect(await swapTotals(ctx.db, w), JSON.stringify(w)).toEqual(scan(w));
      expect(await swapTotals(ctx.db, w, { token0Id: 0, token1Id: TEN }), JSON.stringify(w)).toEqual(scan(w, TEN));
    }
  });

  it("/pool/stats's one statement (poolStatsNow) gives the 24 h totals of the window ending at the newest block, equal to swapTotals and a scan, wherever the block falls in its hour and minute", async () => {
    const start = HEAD_TIME - 30 * 3_600;
    // And one swap on the first second of a minute: the head's own minute, read swap by swap, starts with it.
    const onMinute = Math.floor((HEAD_TIME - 2 * 3_600) / 60) * 60 + 7 * 60;
    const rows = [
      ...Array.from({ length: 300 }, (_, i) => swapRow(i, { blockNumber: 10_000 + i, eventIndex: i % 7, pool: [USDT, TEN, 18][i % 3]!, timestamp: start + Math.floor((i * 30 * 3_600) / 300) + (i % 11) * 17 })),
      swapRow(300, { blockNumber: 10_300, eventIndex: 0, pool: USDT, timestamp: onMinute }),
    ];
    await ctx.db.transaction((tx) => insertSwaps(tx as never, rows));
    expect(await poolStatsNow(ctx.db)).toMatchObject({ head: undefined, volumeUsd: "0", feeUsd: "0", swaps: 0 });
    // Heads on an hour, on a minute, a second before and after each, and in between.
    // And the window's own edges: a swap 86,399 s before the head is in it, one 86,400 s before is not.
    const heads = [HEAD_TIME, HEAD_TIME - 1, HEAD_TIME + 1, start + 24 * 3_600, start + 24 * 3_600 + 59, start + 25 * 3_600 + 60, start + 26 * 3_600 + 3_599, start + 27 * 3_600 + 1_234, HEAD_TIME + 3 * 3_600 + 17, rows[5]!.timestamp + 86_399, rows[5]!.timestamp + 86_400, onMinute, onMinute + 30];
    for (const [i, t] of heads.entries()) {
      await insertBlocks(ctx.db, [{ number: 50_000 + i, hash: `0x${i}`, timestamp: t }]);
      const w = { from: t - 86_400, to: t };
      const inside = rows.filter((r) => r.timestamp > w.from && r.timestamp <= w.to);
      const sum = (k: "volumeUsd" | "feeUsd") => formatFixed(inside.reduce((acc, r) => acc + parseFixed(r[k], USD_SCALE), 0n), USD_SCALE);
      const now = await poolStatsNow(ctx.db);
      expect(now, `head at ${t}`).toMatchObject({ head: { number: 50_000 + i, timestamp: t }, volumeUsd: sum("volumeUsd"), feeUsd: sum("feeUsd"), swaps: inside.length });
      expect({ volumeUsd: now.volumeUsd, feeUsd: now.feeUsd, swaps: now.swaps }).toEqual(await swapTotals(ctx.db, w));
    }
  });

  it("totals per pool and of all pools, partial hours added or taken from their whole hour, equal a scan for random windows", async () => {
    // 1,200 swaps over 3 pools, one every ~9 s for 3 h: every minute has swaps, so each way of
    // reading a partial hour (its minutes added, or the whole hour less the rest) is exercised.
    const start = HEAD_TIME - 3 * 3_600;
    const pools = [USDT, TEN, 18];
    const rows = Array.from({ length: 1_200 }, (_, i) => swapRow(i, { blockNumber: 20_000 + i, eventIndex: 0, pool: pools[(i * 7) % 3]!, timestamp: start + i * 9 + (i % 5) }));
    await ctx.db.transaction((tx) => insertSwaps(tx as never, rows));
    const scan = (w: { from: number; to: number }) => {
      const out = new Map<string, { volume: bigint; fee: bigint; swaps: number }>();
      for (const r of rows) {
        if (r.timestamp <= w.from || r.timestamp > w.to) continue;
        for (const key of [`0/${r.token1Id}`, "all"]) {
          const t = out.get(key) ?? { volume: 0n, fee: 0n, swaps: 0 };
          t.volume += parseFixed(r.volumeUsd, USD_SCALE);
          t.fee += parseFixed(r.feeUsd, USD_SCALE);
          t.swaps += 1;
          out.set(key, t);
        }
      }
      return new Map([...out].map(([k, t]) => [k, { volumeUsd: formatFixed(t.volume, USD_SCALE), feeUsd: formatFixed(t.fee, USD_SCALE), swaps: t.swaps }]));
    };
    let seed = 12_345;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const windows = [
      { from: start + 401, to: start + 3 * 3_600 - 1 }, // leading partial hour from its hour, trailing by minutes
      { from: start + 3_000, to: start + 2 * 3_600 + 3_000 }, // leading by minutes, trailing from its hour
      { from: start + 61, to: start + 119 }, // inside one minute
      { from: start + 600, to: start + 3_000 }, // inside one hour
      ...Array.from({ length: 30 }, () => {
        const from = start - 100 + next(3 * 3_600);
        return { from, to: from + 1 + next(3 * 3_600) };
      }),
    ];
    for (const w of windows) {
      const expected = scan(w);
      const all = expected.get("all");
      expected.delete("all");
      expect(await swapTotalsByPool(ctx.db, w), JSON.stringify(w)).toEqual(expected);
      expect(await swapTotalsByPool(ctx.db, w, "all"), JSON.stringify(w)).toEqual(all ? new Map([["-1/-1", all]]) : new Map());
      expect(await swapTotals(ctx.db, w, { token0Id: 0, token1Id: TEN }), JSON.stringify(w)).toEqual(expected.get(`0/${TEN}`) ?? { volumeUsd: "0", feeUsd: "0", swaps: 0 });
    }
  });

  it("a deep holders page found from the far end of the rank index is the page found from the front, ties included", async () => {
    // 201 holders, balances from 7 values (long runs of ties broken by address).
    const rows = Array.from({ length: 201 }, (_, i) => ({ tokenId: 7, account: `acct${String((i * 37) % 201).padStart(4, "0")}`, balance: String(1 + ((i * 13) % 7) * 1_000), blockNumber: 1 }));
    await upsertHolders(ctx.db, rows);
    const total = await countHolders(ctx.db, 7);
    expect(total).toBe(201);
    for (const offset of [1, 50, 99, 100, 101, 102, 150, 190, 195, 199, 200, 201, 250]) {
      for (const limit of [1, 6, 51]) {
        const forward = await holdersByOffset(ctx.db, 7, offset, limit);
        expect(await holdersByOffset(ctx.db, 7, offset, limit, total), `offset ${offset}, limit ${limit}`).toEqual(forward);
      }
    }
  });

  it("latest price per token, optionally as of a block", async () => {
    await seedMarket(ctx.db);
    expect((await latestPrice(ctx.db, KSM))?.priceUsd).toMatch(/^12\.50*$/);
    expect((await latestPrice(ctx.db, KSM, 1_999))?.priceUsd).toMatch(/^10(\.0*)?$/);
    await insertPrices(ctx.db, [{ tokenId: USDT, blockNumber: 1_000, priceUsd: "1" }]); // replay is a no-op
    expect(await latestPrice(ctx.db, 12345)).toBeUndefined();
    // A backfill writing older points leaves the latest price where it is; a newer block moves it.
    await insertPrices(ctx.db, [{ tokenId: KSM, blockNumber: 5, priceUsd: "3" }]);
    expect((await latestPrices(ctx.db, [KSM])).get(KSM)).toMatchObject({ blockNumber: 2_000 });
    await insertPrices(ctx.db, [
      { tokenId: KSM, blockNumber: 2_001, priceUsd: "13" },
      { tokenId: KSM, blockNumber: 2_002, priceUsd: "14" },
    ]);
    expect((await latestPrices(ctx.db)).get(KSM)).toMatchObject({ blockNumber: 2_002, priceUsd: expect.stringMatching(/^14(\.0*)?$/) });
    // An expiry (a null point) is the latest point, and no current price; a backfill's older point does not revive it.
    await insertPrices(ctx.db, [{ tokenId: KSM, blockNumber: 2_003, priceUsd: null }]);
    await insertPrices(ctx.db, [{ tokenId: KSM, blockNumber: 2_001, priceUsd: "13" }]);
    expect(await latestPrice(ctx.db, KSM)).toEqual({ tokenId: KSM, blockNumber: 2_003, priceUsd: null });
    expect((await latestPrice(ctx.db, KSM, 2_002))?.priceUsd).toMatch(/^14(\.0*)?$/);
    expect((await latestPrice(ctx.db, KSM, 2_003))?.priceUsd).toBeNull();
    expect((await latestPrices(ctx.db)).has(KSM)).toBe(false);
    expect((await latestPrices(ctx.db, [KSM, USDT])).size).toBe(1);
    await insertPrices(ctx.db, [{ tokenId: KSM, blockNumber: 2_004, priceUsd: "15" }]);
    expect((await latestPrices(ctx.db, [KSM])).get(KSM)).toMatchObject({ blockNumber: 2_004 });
  });

  it("price buckets equal a scan of every price point, for random ranges and intervals", async () => {
    // 400 blocks 12 s apart, some sharing a timestamp; a price on a random third of them.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const blocks = Array.from({ length: 400 }, (_, i) => ({ number: 100 + i, hash: `0x${i}`, timestamp: HEAD_TIME + Math.floor(i / 3) * 12 }));
    await insertBlocks(ctx.db, blocks);
    // A fifth of the points are expiries (null): a bucket after one is null, naming its block.
    const points = blocks.filter(() => rand(3) === 0).map((b) => ({ tokenId: KSM, blockNumber: b.number, priceUsd: rand(5) === 0 ? null : String(1 + rand(1000) / 100) }));
    expect(points.filter((p) => p.priceUsd === null).length).toBeGreaterThan(5);
    await insertPrices(ctx.db, points);
    await insertPrices(ctx.db, [{ tokenId: USDT, blockNumber: 150, priceUsd: "1" }]); // another token: never mixed in
    const timeOf = new Map(blocks.map((b) => [b.number, b.timestamp]));
    for (let trial = 0; trial < 40; trial++) {
      const from = HEAD_TIME - 600 + rand(2_400);
      const interval = 1 + rand(300);
      const to = from + interval * (1 + rand(30)) - rand(interval);
      const buckets = Math.ceil((to - from) / interval);
      const got = await priceBuckets(ctx.db, KSM, { from, to, interval, buckets });
      const want = Array.from({ length: buckets }, (_, b) => {
        const end = Math.min(from + (b + 1) * interval, to);
        const last = points.filter((p) => timeOf.get(p.blockNumber)! <= end).at(-1);
        return last && { blockNumber: last.blockNumber, priceUsd: last.priceUsd };
      });
      expect(got.map((p) => p && { blockNumber: p.blockNumber, priceUsd: p.priceUsd === null ? null : String(Number(p.priceUsd)) }), JSON.stringify({ from, to, interval })).toEqual(want);
    }
  });

  it("symbols match case-insensitively; destroyed tokens disappear", async () => {
    await seedMarket(ctx.db);
    expect((await findTokensBySymbol(ctx.db, "dup")).map((t) => t.id).sort()).toEqual([21, 22]);
    expect((await findTokensBySymbol(ctx.db, "ten")).map((t) => t.id)).toEqual([TEN]);
    await deleteTokens(ctx.db, [TEN], 11);
    expect(await getToken(ctx.db, TEN)).toBeUndefined();
  });

  it("migrations are idempotent: run again, they change no table, column, index, constraint or row", async () => {
    await seedMarket(ctx.db);
    /** The schema as the catalog has it, and each table's row count. */
    const fingerprint = async () => {
      const rows = (q: ReturnType<typeof sql>) => ctx.db.execute(q).then((r) => rowsOf<Record<string, unknown>>(r));
      const columns = await rows(sql`select table_name, column_name, data_type, column_default, is_nullable from information_schema.columns where table_schema = current_schema() order by 1, 2`);
      const indexes = await rows(sql`select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema() order by 1, 2`);
      const constraints = await rows(sql`select c.conrelid::regclass::text as rel, c.conname, pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = current_schema() order by 1, 2`);
      const tables = (await rows(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`)).map((r) => String(r.table_name));
      const counts: Record<string, string> = {};
      // Each table's rows: their count and a digest of their text, in a fixed order.
      for (const t of tables) {
        const [r] = await rows(sql`select count(*)::int as n, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest from ${sql.identifier(t)} x`);
        counts[t] = `${r!.n}:${r!.digest}`;
      }
      const applied = await rows(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      return { columns, indexes, constraints, counts, applied: Number(applied[0]!.n) };
    };
    const before = await fingerprint();
    expect(before.columns.length).toBeGreaterThan(100);
    expect(before.indexes.length).toBeGreaterThan(20);
    expect(Number(before.counts.swaps!.split(":")[0])).toBeGreaterThan(0);
    const journal = JSON.parse(await readFile(new URL("../../db/migrations/meta/_journal.json", import.meta.url), "utf8")) as { entries: unknown[] };
    expect(before.applied).toBe(journal.entries.length);
    await ctx.handle.migrate();
    await ctx.handle.migrate();
    expect(await fingerprint()).toEqual(before);
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

it("one process per PGlite DATA_DIR: a second open is refused by name while the first runs, a dead holder's lock is taken over", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-"));
  try {
    const first = await createDb({ dataDir: dir });
    await first.migrate();
    // Another process (here: a child that tries to open the folder) is refused, and exits 1.
    const script = `import { createDb } from "./db/index.ts"; try { await createDb({ dataDir: ${JSON.stringify(dir)} }); console.log("opened"); } catch (e) { console.log(e.message); process.exit(1); }`;
    const child = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      p.stdout.on("data", (d) => (out += d));
      p.on("exit", (code) => resolve({ code, out }));
    });
    expect(child.code).toBe(1);
    expect(child.out).toContain(`${path.join(dir, "pglite")} is in use by process ${process.pid}`);
    await first.close();
    expect(existsSync(path.join(dir, "pglite.lock"))).toBe(false);

    // A lock left by a process that is gone (SIGKILL, a crash) does not block the next start.
    const dead = spawn(process.execPath, ["-e", ""]);
    const deadPid = dead.pid!;
    await new Promise((r) => dead.on("exit", r));
    await writeFile(path.join(dir, "pglite.lock"), JSON.stringify({ pid: deadPid, host: hostname(), since: "earlier" }));
    const second = await createDb({ dataDir: dir });
    await second.migrate();
    await second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default
