/**
 * GET /accounts/{address}/transfers and GET /assets/{id}/transfers on stored transfer rows:
 * every page and filter is checked against a brute-force answer worked out here from the same
 * rows (sorted and filtered in JS), and paging by cursor must walk each list exactly once.
 */
import { decodeAddress } from "@polkadot/util-crypto";
import { u8aToHex } from "@polkadot/util";
import { beforeEach, expect, it } from "vitest";
import { canonicalPath } from "../../api/canonical.js";
import { ResponseCache } from "../../api/middleware/cache.js";
import { sql } from "drizzle-orm";
import { historyFloor, insertBlockExtrinsics, insertSwaps, rowsOf, insertBlocks, insertTransfers, pruneTransfers, schema, setCheckpoint, type NewTransfer } from "../../db/index.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { ALICE, BOB, CHARLIE, KSM, seedMarket, USDT } from "../support/fixtures.js";

const KINDS = ["transfer", "mint", "burn", "deposit", "withdraw", "fee", "dust", "slash"] as const;
const OUT_ONLY = new Set(["burn", "withdraw", "fee", "dust", "slash"]);

/** 120 movements over 40 blocks among three accounts and three tokens, an LP token, a self-transfer. */
function rows(): NewTransfer[] {
  const accounts = [ALICE, BOB, CHARLIE];
  const out: NewTransfer[] = [];
  for (let i = 0; i < 120; i++) {
    const block = 1_000 + Math.floor(i / 3);
    const kind = KINDS[i % 7 === 0 ? 1 + ((i / 7) % 7) : 0]!;
    const from = kind === "mint" || kind === "deposit" ? null : accounts[i % 3]!;
    const to = OUT_ONLY.has(kind) ? null : i === 39 ? from : accounts[(i * 7 + 1 + Math.floor(i / 4)) % 3]!;
    const lp = i % 11 === 0;
    out.push({
      blockNumber: block,
      eventIndex: (i % 3) * 2 + 1,
      extrinsicIndex: i % 3,
      timestamp: 1_700_000_000 + block * 6,
      tokenId: lp ? null : [KSM, USDT, 10][Math.floor(i / 2) % 3]!,
      lpTokenId: lp ? 1 : null,
      fromAccount: from,
      toAccount: to,
      amount: (10n ** 20n + BigInt(i)).toString(),
      kind,
      event: lp ? "poolAssets.Transferred" : kind === "fee" ? "transactionPayment.TransactionFeePaid" : "balances.Transfer",
      valueUsd: lp ? null : `${i}.5`,
      tip: kind === "fee" ? `${i}` : null,
    });
  }
  return out;
}

/** A made-up extrinsic hash, one per (block, extrinsic). */
const hashOf = (block: number, extrinsic: number) => `0x${block.toString(16).padStart(8, "0")}${String(extrinsic).padStart(56, "0")}`;

/** The fixture's symbol and decimals of the tokens rows() moves. */
const UNITS: Record<number, [string, number]> = { [KSM]: ["KSM", 12], [USDT]: ["USDt", 6], 10: ["TEN", 10] };

const newestFirst = (a: NewTransfer, b: NewTransfer) => b.blockNumber - a.blockNumber || b.eventIndex - a.eventIndex;
const key = (t: { blockNumber: number; eventIndex: number }) => `${t.blockNumber}/${t.eventIndex}`;

describeDb("transfer lists", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  let all: NewTransfer[];

  beforeEach(async () => {
    await seedMarket(ctx.db);
    // The transfers' blocks, at their times: a time filter is read as the blocks of those times.
    await insertBlocks(ctx.db, Array.from({ length: 40 }, (_, i) => ({ number: 1_000 + i, hash: `0x${(1_000 + i).toString(16)}`, timestamp: 1_700_000_000 + (1_000 + i) * 6 })));
    all = rows();
    // The extrinsics' hashes of blocks 1000–1019 (three extrinsics each, as rows() names them).
    await insertBlockExtrinsics(ctx.db, Array.from({ length: 20 }, (_, i) => ({ blockNumber: 1_000 + i, hashes: [0, 1, 2].map((x) => hashOf(1_000 + i, x).slice(2)).join("") })));
    await insertTransfers(ctx.db, all);
    await insertTransfers(ctx.db, all); // a replayed block writes nothing twice
    t = buildApp(ctx.db);
    auth = await authHeader(t);
  });

  /** Every page of `path` (with its query), by cursor: the rows in order, and the page count. */
  async function walk(path: string, limit: number): Promise<{ rows: any[]; pages: number }> {
    const out: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const sep = path.includes("?") ? "&" : "?";
      const res = await t.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, auth);
      expect(res.status, await res.clone().text()).toBe(200);
      const body: any = await res.json();
      expect(body.transfers.length).toBeLessThanOrEqual(limit);
      out.push(...body.transfers);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 1_000);
    return { rows: out, pages };
  }

  it("an account's transfers: sent and received, newest first, each once (a self-transfer too), paged to the end", async () => {
    const expected = all.filter((r) => r.fromAccount === ALICE || r.toAccount === ALICE).sort(newestFirst);
    expect(expected.length).toBeGreaterThan(60);
    expect(expected.some((r) => r.fromAccount === ALICE && r.toAccount === ALICE)).toBe(true);
    const { rows: got, pages } = await walk(`/accounts/${ALICE}/transfers`, 7);
    expect(pages).toBe(Math.ceil(expected.length / 7) + (expected.length % 7 === 0 ? 1 : 0));
    expect(got.map(key)).toEqual(expected.map(key));
    for (const [i, r] of got.entries()) {
      const e = expected[i]!;
      expect(r).toEqual({
        blockNumber: e.blockNumber,
        timestamp: e.timestamp,
        extrinsicIndex: e.extrinsicIndex,
        // Recorded for blocks before 1020 only (as for a store indexed partly before migration 0027).
        extrinsicHash: e.blockNumber < 1_020 ? hashOf(e.blockNumber, e.extrinsicIndex!) : null,
        eventIndex: e.eventIndex,
        tokenId: e.tokenId,
        lpTokenId: e.lpTokenId,
        from: e.fromAccount,
        to: e.toAccount,
        amount: e.amount,
        kind: e.kind,
        event: e.event,
        valueUsd: e.valueUsd,
        tip: e.tip,
        // The token's units on each row (an account's list mixes tokens); an LP token has none.
        symbol: e.tokenId == null ? null : UNITS[e.tokenId]![0],
        decimals: e.tokenId == null ? null : UNITS[e.tokenId]![1],
        direction: e.fromAccount === ALICE ? (e.toAccount === ALICE ? "self" : "out") : "in",
      });
    }
  });

  it("filters: direction, token, LP token, counterparty, kind, block range and time range, alone and together; the old time names deprecated", async () => {
    const cases: Array<[string, (r: NewTransfer) => boolean]> = [
      ["direction=out", (r) => r.fromAccount === ALICE],
      ["direction=in", (r) => r.toAccount === ALICE],
      [`tokenId=${USDT}`, (r) => r.tokenId === USDT],
      ["lpTokenId=1", (r) => r.lpTokenId === 1],
      ["kind=mint", (r) => r.kind === "mint"],
      ["fromBlock=1010&toBlock=1020", (r) => r.blockNumber >= 1010 && r.blockNumber <= 1020],
      [`fromTime=${1_700_000_000 + 1030 * 6}`, (r) => r.timestamp >= 1_700_000_000 + 1030 * 6],
      [`fromTime=${1_700_000_000 + 1010 * 6}&toTime=${1_700_000_000 + 1025 * 6}`, (r) => r.timestamp >= 1_700_000_000 + 1010 * 6 && r.timestamp <= 1_700_000_000 + 1025 * 6],
      [`counterparty=${BOB}`, (r) => r.fromAccount === BOB || r.toAccount === BOB],
      [`counterparty=${ALICE}`, (r) => r.fromAccount === ALICE && r.toAccount === ALICE],
      [`counterparty=${BOB}&direction=out&tokenId=${USDT}`, (r) => r.fromAccount === ALICE && r.toAccount === BOB && r.tokenId === USDT],
      [`direction=in&tokenId=${KSM}&toBlock=1030`, (r) => r.toAccount === ALICE && r.tokenId === KSM && r.blockNumber <= 1030],
    ];
    for (const [query, pred] of cases) {
      const expected = all.filter((r) => (r.fromAccount === ALICE || r.toAccount === ALICE) && pred(r)).sort(newestFirst);
      expect(expected.length, query).toBeGreaterThan(0);
      const { rows: got } = await walk(`/accounts/${ALICE}/transfers?${query}`, 5);
      expect(got.map(key), query).toEqual(expected.map(key));
    }
    // The time filters' old names (from, to) still filter, for one release, announcing their
    // deprecation (RFC 9745), on a cached answer too.
    const cached = buildApp(ctx.db, { cache: new ResponseCache() });
    const cachedAuth = await authHeader(cached, "deprecated@example.com");
    const [lo, hi] = [1_700_000_000 + 1010 * 6, 1_700_000_000 + 1025 * 6];
    for (const path of [`/accounts/${ALICE}/transfers`, `/assets/${USDT}/transfers`]) {
      const now: any = await (await cached.get(`${path}?fromTime=${lo}&toTime=${hi}`, cachedAuth)).json();
      expect(now.transfers.length, path).toBeGreaterThan(0);
      for (let i = 0; i < 2; i++) {
        const res = await cached.get(`${path}?from=${lo}&to=${hi}`, cachedAuth); // a miss, then a hit
        expect(res.status).toBe(200);
        expect(res.headers.get("deprecation"), path).toMatch(/^@\d+$/);
        expect(res.headers.get("link")).toMatch(/rel="deprecation"/);
        expect(await res.json()).toEqual(now);
      }
      const fresh = await cached.get(`${path}?fromTime=${lo}`, cachedAuth);
      expect(fresh.headers.get("deprecation")).toBeNull();
      // A bound under both names is refused; an address where a time goes is still a 400.
      await expectError(await cached.get(`${path}?from=${lo}&fromTime=${lo}`, cachedAuth), 400, "VALIDATION_ERROR");
      // An address where a time goes (the rows' from/to are accounts): the message says where each is asked.
      expect(await expectError(await cached.get(`${path}?from=${ALICE}`, cachedAuth), 400, "VALIDATION_ERROR")).toMatch(/Unix time: the deprecated name of fromTime; the account on the other side is asked with counterparty/);
    }
  });

  it("?kind=fee answers only fees, each with its tip; dust and slashes are not fees", async () => {
    const fees = all.filter((r) => r.kind === "fee" && r.fromAccount !== null);
    const payer = fees[0]!.fromAccount!;
    const expected = all.filter((r) => r.fromAccount === payer && r.kind === "fee").sort(newestFirst);
    const { rows: got } = await walk(`/accounts/${payer}/transfers?kind=fee`, 50);
    expect(got.map(key)).toEqual(expected.map(key));
    expect(got.map((r) => [r.kind, r.event, r.to, r.tip, r.direction])).toEqual(expected.map((e) => ["fee", "transactionPayment.TransactionFeePaid", null, e.tip, "out"]));
    expect(got.every((r) => /^\d+$/.test(r.tip))).toBe(true);
    // Every other kind has no tip, and dust and slashes have their own filters.
    const { rows: other } = await walk(`/accounts/${payer}/transfers`, 500);
    expect(other.filter((r) => r.kind !== "fee").every((r) => r.tip === null)).toBe(true);
    for (const kind of ["dust", "slash"]) {
      const { rows: k } = await walk(`/accounts/${payer}/transfers?kind=${kind}`, 50);
      expect(k.map(key), kind).toEqual(all.filter((r) => r.fromAccount === payer && r.kind === kind).sort(newestFirst).map(key));
    }
    const token = fees.find((r) => r.tokenId !== null)!.tokenId!;
    const { rows: ofToken } = await walk(`/assets/${token}/transfers?kind=fee`, 50);
    expect(ofToken.map(key)).toEqual(all.filter((r) => r.tokenId === token && r.kind === "fee").sort(newestFirst).map(key));
    await expectError(await t.get(`/accounts/${payer}/transfers?kind=fees`, auth), 400, "VALIDATION_ERROR");
  });

  it("the account in any spelling (SS58 or its hex account id) gives the same list", async () => {
    const hex = u8aToHex(decodeAddress(ALICE));
    const [a, b] = await Promise.all([t.get(`/accounts/${ALICE}/transfers`, auth), t.get(`/accounts/${hex}/transfers`, auth)]);
    const [ja, jb]: any[] = await Promise.all([a.json(), b.json()]);
    expect(ja.transfers.length).toBe(50);
    expect(jb).toEqual(ja);
    // …and one response-cache key, so neither spelling computes the list again.
    expect(canonicalPath(`/accounts/${hex}/transfers`, undefined)).toBe(canonicalPath(`/accounts/${ALICE}/transfers`, undefined));
    expect(canonicalPath(`/accounts/${ALICE}/transfers`, undefined)).toBe(`/accounts/${hex}/transfers`);
  });

  it("a token's transfers, newest first, paged to the end, with kind and block filters", async () => {
    for (const [query, pred] of [
      ["", () => true],
      ["?kind=transfer&fromBlock=1005", (r: NewTransfer) => r.kind === "transfer" && r.blockNumber >= 1005],
    ] as const) {
      const expected = all.filter((r) => r.tokenId === USDT && pred(r)).sort(newestFirst);
      expect(expected.length).toBeGreaterThan(10);
      const { rows: got } = await walk(`/assets/${USDT}/transfers${query}`, 9);
      expect(got.map(key), query).toEqual(expected.map(key));
      expect(got.every((r) => r.tokenId === USDT && r.direction === undefined)).toBe(true);
      expect(got.map((r) => r.extrinsicHash)).toEqual(got.map((r) => (r.blockNumber < 1_020 ? hashOf(r.blockNumber, r.extrinsicIndex) : null)));
    }
    const body: any = await (await t.get(`/assets/${USDT}/transfers?limit=1`, auth)).json();
    expect(body).toMatchObject({ tokenId: USDT, symbol: "USDt", decimals: 6 });
    // An LP token's list: its own id space (PoolAssets), the same paging and filters.
    const lp = all.filter((r) => r.lpTokenId === 1).sort(newestFirst);
    expect(lp.length).toBeGreaterThan(5);
    expect((await walk(`/assets/lp/1/transfers`, 4)).rows.map(key)).toEqual(lp.map(key));
    const late = 1_700_000_000 + 1020 * 6;
    expect((await walk(`/assets/lp/1/transfers?fromTime=${late}`, 4)).rows.map(key)).toEqual(lp.filter((r) => r.timestamp >= late).map(key));
    const lpBody: any = await (await t.get(`/assets/lp/1/transfers?limit=1`, auth)).json();
    expect(lpBody).toMatchObject({ lpTokenId: 1, pool: { token0Id: expect.any(Number), token1Id: expect.any(Number) }, historyComplete: true });
    expect(lpBody.transfers[0]).toMatchObject({ tokenId: null, lpTokenId: 1, event: "poolAssets.Transferred" });
    await expectError(await t.get(`/assets/lp/424242/transfers`, auth), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get(`/assets/lp/1/transfers`), 401, "UNAUTHORIZED");
  });

  it("an account's trades: every hop it made in any pool, newest first, paged to the end, with a block range", async () => {
    const [one] = await ctx.db.select().from(schema.swaps).where(sql`account is not null`).orderBy(sql`block_number desc`).limit(1);
    // A two-pool route of the same trader in the same block: both hops are multiHop.
    await insertSwaps(ctx.db, [0, 1].map((hop) => ({ ...one!, eventIndex: one!.eventIndex + 100, hop, hops: 2 })));
    const swaps = await ctx.db.select().from(schema.swaps);
    const counts = new Map<string, number>();
    for (const s of swaps) if (s.account) counts.set(s.account, (counts.get(s.account) ?? 0) + 1);
    const trader = one!.account!; // the trader of the route above (counts: every account's trades)
    expect(counts.get(trader)).toBeGreaterThan(2);
    const mine = swaps.filter((s) => s.account === trader).sort((a, b) => b.blockNumber - a.blockNumber || b.eventIndex - a.eventIndex || b.hop - a.hop);
    expect(mine.length).toBeGreaterThan(1);
    const hop = (r: { blockNumber: number; eventIndex: number; hop: number }) => `${r.blockNumber}/${r.eventIndex}/${r.hop}`;
    const got: any[] = [];
    let cursor: string | null = null;
    do {
      const body: any = await (await t.get(`/accounts/${trader}/swaps?limit=1${cursor ? `&cursor=${cursor}` : ""}`, auth)).json();
      got.push(...body.trades);
      cursor = body.nextCursor;
    } while (cursor !== null && got.length <= mine.length);
    expect(got.map(hop)).toEqual(mine.map(hop));
    // Multi-hop or not, as the stored rows say: a route of several pools is multiHop on every hop of it.
    expect(got.map((g) => `${hop(g)} hops=${g.hops} multiHop=${g.multiHop}`)).toEqual(mine.map((s) => `${hop(s)} hops=${s.hops} multiHop=${s.hops > 1}`));
    expect(new Set(mine.map((s) => s.hops > 1))).toEqual(new Set([true, false])); // both kinds are in the walk
    expect(got[0]).toMatchObject({ tokenIn: mine[0]!.tokenIn, tokenOut: mine[0]!.tokenOut, amountIn: mine[0]!.amountIn, pool: { token0Id: mine[0]!.token0Id, token1Id: mine[0]!.token1Id } });
    const block = mine[0]!.blockNumber;
    const ranged: any = await (await t.get(`/accounts/${trader}/swaps?fromBlock=${block}&toBlock=${block}`, auth)).json();
    expect(ranged.trades.map(hop)).toEqual(mine.filter((s) => s.blockNumber === block).map(hop));
    await expectError(await t.get(`/accounts/${trader}/swaps?fromBlock=2&toBlock=1`, auth), 400, "VALIDATION_ERROR");
    await expectError(await t.get(`/accounts/${trader}/swaps`), 401, "UNAUTHORIZED");
  });

  it("retention (prune-history --transfers): rows before the block go, in batches; the lists say where they start; again, or lower, deletes nothing", async () => {
    await setCheckpoint(ctx.db, { blockNumber: 1_039, blockHash: `0x${"11".repeat(32)}`, chainFinalized: 1_039 });
    const first = async (path: string) => (await (await t.get(path, auth)).json()) as { historyFrom: number | null; historyComplete: boolean };
    expect(await first(`/accounts/${ALICE}/transfers`)).toMatchObject({ historyFrom: 0, historyComplete: true }); // held from the chain's first block
    const before = (await walk(`/accounts/${ALICE}/transfers`, 50)).rows;
    const floor = await historyFloor(ctx.db, "holders");
    await expect(pruneTransfers(ctx.db, 1_040)).rejects.toThrow(/after the store's checkpoint \(1039\)/);
    const gone = all.filter((r) => r.blockNumber < 1_020).length;
    expect(gone).toBeGreaterThan(14);
    // All in one partition (blocks 0–999,999): deleted there, in batches of 7 (several transactions).
    expect(await pruneTransfers(ctx.db, 1_020, 7)).toEqual({ partitions: 0, dropped: 0, deleted: gone });
    expect(await pruneTransfers(ctx.db, 1_020)).toEqual({ partitions: 0, dropped: 0, deleted: 0 });
    expect(await pruneTransfers(ctx.db, 1_010)).toEqual({ partitions: 0, dropped: 0, deleted: 0 });
    t = buildApp(ctx.db); // a fresh response cache: answers read again from the pruned store
    auth = await authHeader(t, "after-prune@example.com");
    const kept = before.filter((r) => r.blockNumber >= 1_020);
    expect(kept.length).toBeGreaterThan(0);
    expect((await walk(`/accounts/${ALICE}/transfers`, 50)).rows).toEqual(kept);
    expect(await first(`/accounts/${ALICE}/transfers`)).toMatchObject({ historyFrom: 1_020, historyComplete: false });
    expect(await first(`/assets/${USDT}/transfers`)).toMatchObject({ historyFrom: 1_020 });
    expect(await historyFloor(ctx.db, "holders")).toBe(floor); // balance history is not touched
    // The extrinsic hashes of the blocks given up go with their transfers.
    expect(rowsOf(await ctx.db.execute(sql`select block_number from block_extrinsics where block_number < 1020`))).toEqual([]);
  });

  it("bad input: a clear 4xx, nothing computed", async () => {
    await expectError(await t.get(`/accounts/${ALICE}/transfers`), 401, "UNAUTHORIZED");
    await expectError(await t.get(`/assets/${USDT}/transfers`), 401, "UNAUTHORIZED");
    await expectError(await t.get(`/assets/999999/transfers`, auth), 404, "TOKEN_NOT_FOUND");
    for (const q of ["cursor=abc", "cursor=WzEsMl0=", "cursor=WyIxIiwyXQ", "kind=gift", "direction=both", "limit=0", "limit=501", "fromBlock=10&toBlock=9", "from=20&to=10", "fromTime=20&toTime=10", "tokenId=-1", "fromBlock=1e3", "tokenId=0&lpTokenId=1", "counterparty=not-an-address", `counterparty=${ALICE}x`]) {
      await expectError(await t.get(`/accounts/${ALICE}/transfers?${q}`, auth), 400, "VALIDATION_ERROR");
    }
    await expectError(await t.get(`/accounts/not-an-address/transfers`, auth), 400, "VALIDATION_ERROR");
  });
});
