/**
 * Issue 38, finding 2: list filters that matched nothing scanned every row of a token. On a
 * store of 200,000 transfers and 100,000 swaps, each attack must answer what a full scan would,
 * and the work it does is counted by the database (EXPLAIN ANALYZE: rows read from the table's
 * scans), never timed: a time before or after the store, a kind no transfer of a busy token has,
 * a token no transfer of a busy account moves (or an account it never dealt with), and blocks or a cursor before a busy token's,
 * pool's or trader's first row (where a plain-key plan walked the primary key through every row
 * below).
 */
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { accountSwapsQuery, ensurePartitionsBetween, inListOrder, poolSwapsQuery, rowsOf, TRANSFER_SCAN_ROWS } from "../../db/index.js";
import { TRANSFER_KINDS, transferKindCode } from "../../db/schema/transfers.js";
import { accountTransferPage, tokenTransferPage } from "../../api/services/transfers.js";
import { authHeader, buildApp, noRequestLimit, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { explainInto, explaining, noWork } from "../support/explain.js";
import { ALICE, BOB, CHARLIE, DAVE, HEAD_BLOCK, HEAD_TIME, KSM, seedMarket, TEN, USDT, WETH } from "../support/fixtures.js";

const TRANSFERS = 200_000;
const SWAPS = 100_000;
/** Filled blocks start here (after the fixture's head), 20 transfers and 10 swaps a block, 12 s apart. */
const FIRST = 3_000;
const timeOf = (block: number) => HEAD_TIME + (block - HEAD_BLOCK) * 12;
/** The first block of the later half, where TEN's transfers, WETH's swaps and BOB's trades begin. */
const LATE = FIRST + TRANSFERS / 40;
/** ALICE sends every 40th transfer (all of them USDt), and one more to BOB: 5,001, over two scan bounds. */
const ALICE_ROWS = TRANSFERS / 40 + 1;
/** The last filled block. */
const LAST = FIRST + TRANSFERS / 20 - 1;

async function fill(db: Parameters<typeof seedMarket>[0]): Promise<void> {
  await seedMarket(db);
  await ensurePartitionsBetween(db, FIRST, FIRST + TRANSFERS / 20);
  // The accounts' ids (account_ids keeps its rows across tests, as across a store's resets).
  await db.execute(sql`insert into account_ids (address) select 'acct' || n from generate_series(0, 4999) n union all select ${ALICE} on conflict (address) do nothing`);
  await db.execute(sql`
    insert into transfers (block_number, event_index, extrinsic_index, timestamp, token_id, lp_token_id, from_id, to_id, amount, kind, event, value_usd)
    select ${FIRST}::bigint + i / 20, i % 20, i % 20, ${timeOf(FIRST)}::bigint + (i / 20) * 12,
           case when i % 4 = 0 then ${USDT} when i % 4 = 1 and i >= ${TRANSFERS / 2} then ${TEN} else 100 + i % 50 end, null,
           (select id from account_ids where address = case when i % 10 = 3 then null when i % 40 = 0 then ${ALICE} else 'acct' || (i % 5000) end),
           (select id from account_ids where address = case when i % 10 = 7 then null else 'acct' || ((i * 7 + 1) % 5000) end), i + 1,
           case i % 10 when 3 then ${transferKindCode("deposit")} when 7 then ${transferKindCode("withdraw")} else ${transferKindCode("transfer")} end::smallint, 'assets.Transferred', null
    from generate_series(0, ${TRANSFERS - 1}::integer) i`);
  // ALICE's newest transfer: to BOB, in the last block.
  await db.execute(sql`insert into account_ids (address) values (${BOB}) on conflict (address) do nothing`);
  await db.execute(sql`
    insert into transfers (block_number, event_index, extrinsic_index, timestamp, token_id, lp_token_id, from_id, to_id, amount, kind, event, value_usd)
    values (${LAST}::bigint, 20, 1, ${timeOf(LAST)}::bigint, 100, null, (select id from account_ids where address = ${ALICE}), (select id from account_ids where address = ${BOB}), 1, ${transferKindCode("transfer")}, 'assets.Transferred', null)`);
  await db.execute(sql`
    insert into swaps (block_number, event_index, hop, token0_id, token1_id, token_in, token_out, amount_in, amount_out, fee, volume_usd, fee_usd, account, timestamp)
    select b, e, 0, ${KSM}, p, ${KSM}, p, 1000, 990, 3, 1, 0.003, case when p = ${WETH} then ${BOB} else 'trader' || (i % 500) end, ${timeOf(FIRST)}::bigint + (b - ${FIRST}::bigint) * 12
    from (select i, ${FIRST}::bigint + i / 10 as b, 100 + i % 10 as e,
                 case when i % 4 = 0 then ${USDT} when i % 4 = 1 and i >= ${SWAPS / 2} then ${WETH} else 7 end as p
          from generate_series(0, ${SWAPS - 1}::integer) i) s`);
  await db.execute(sql`insert into blocks (number, hash, timestamp) select b, 'filled', ${timeOf(FIRST)}::bigint + (b - ${FIRST}::bigint) * 12 from generate_series(${FIRST}::bigint, ${FIRST + TRANSFERS / 20 - 1}::bigint) b`);
  await db.execute(sql`analyze`);
}

const cursor = (position: number[]) => Buffer.from(JSON.stringify(position)).toString("base64url");

// One fill per store (300,000 rows): the tests only read it, so it is kept between them.
describeDb(
  "list filters: the attacks of issue 38",
  (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    await fill(ctx.db);
    t = buildApp(ctx.db, { rateLimit: noRequestLimit() });
    auth = await authHeader(t);
  }, 300_000);

  it("a token's list: a time before or after the store, a kind it never had, blocks before its first transfer — answered from index seeks, no transfer read", async () => {
    const probe = explaining(ctx.db, "transfers");
    for (const [query, filter] of [
      ["?toTime=1", { toTime: 1 }],
      ["?fromTime=1800000000", { fromTime: 1_800_000_000 }],
      ["?kind=mint", { kind: "mint" as const }],
      [`?toBlock=${LATE - 1}`, { toBlock: LATE - 1 }],
      [`?toTime=${timeOf(LATE) - 1}`, { toTime: timeOf(LATE) - 1 }],
      [`?to=${timeOf(LATE) - 1}`, { toTime: timeOf(LATE) - 1 }], // the deprecated name, as fast
    ] as const) {
      const id = query.startsWith("?kind") ? USDT : TEN;
      const res = await t.get(`/assets/${id}/transfers${query}`, auth);
      expect(res.status, query).toBe(200);
      expect(await res.json(), query).toMatchObject({ transfers: [], nextCursor: null });
      probe.reset();
      expect(await tokenTransferPage(probe.db, id, { limit: 50, ...filter }), query).toMatchObject({ transfers: [] });
      const work = probe.work();
      expect(work.rows, `${query}: transfer rows read`).toBe(0);
      expect(work.scans, query).not.toContain("Seq Scan");
    }
    // The same lists with rows to show read those rows only (a seek per kind, then the page).
    probe.reset();
    const page = await tokenTransferPage(probe.db, TEN, { limit: 50, toBlock: LATE + 9 });
    expect(page.transfers).toHaveLength(50);
    expect(page).toMatchObject({ nextCursor: null });
    expect(page.transfers.at(-1)).toMatchObject({ blockNumber: LATE, tokenId: TEN });
    expect(probe.work().rows).toBeLessThanOrEqual(51 + TRANSFER_KINDS.length);
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default

  it("a busy account's list filtered by a token it never moved, or by an account it never dealt with: each page reads at most the scan bound and says it stopped; paging to the end is exact", async () => {
    const probe = explaining(ctx.db, "transfers");
    // CHARLIE has an id (as any account some transfer named) but no transfer with ALICE.
    await ctx.db.execute(sql`insert into account_ids (address) values (${CHARLIE}) on conflict (address) do nothing`);
    for (const filter of [{ tokenId: TEN }, { counterparty: CHARLIE }]) {
      const query = Object.entries(filter).map(([k, v]) => `${k}=${v}`).join("&");
      let next: string | undefined;
      const pages: Array<{ partial: boolean; rows: number; read: number }> = [];
      do {
        probe.reset();
        const page = await accountTransferPage(probe.db, ALICE, { limit: 50, ...filter, ...(next ? { cursor: next } : {}) });
        pages.push({ partial: page.partial, rows: page.transfers.length, read: probe.work().rows });
        // What an API client sees of the same page.
        const res = await t.get(`/accounts/${ALICE}/transfers?${query}${next ? `&cursor=${next}` : ""}`, auth);
        expect(await res.json()).toMatchObject({ transfers: [], partial: page.partial, nextCursor: page.nextCursor });
        next = page.nextCursor ?? undefined;
      } while (next !== undefined && pages.length < 10);
      const bounded = Math.ceil(ALICE_ROWS / TRANSFER_SCAN_ROWS);
      expect(pages.map((p) => [p.rows, p.partial]), query).toEqual([...Array.from({ length: bounded - 1 }, () => [0, true]), [0, false]]);
      // Each page reads at most the bound from each side's ranges, and the two sides' seeks.
      for (const p of pages) expect(p.read, query).toBeLessThanOrEqual(2 * TRANSFER_SCAN_ROWS + 2 * TRANSFER_KINDS.length);
    }
    // A counterparty no transfer names (no id): nothing read.
    probe.reset();
    expect(await accountTransferPage(probe.db, ALICE, { limit: 50, counterparty: DAVE })).toMatchObject({ transfers: [], nextCursor: null, partial: false });
    expect(probe.work().rows).toBe(0);
    // A counterparty among the account's newest rows: found on the first page, within the same bound.
    probe.reset();
    const between = await accountTransferPage(probe.db, ALICE, { limit: 1, counterparty: BOB });
    expect(between.transfers.map((r) => [r.blockNumber, r.eventIndex, r.from, r.to])).toEqual([[LAST, 20, ALICE, BOB]]);
    expect(probe.work().rows).toBeLessThanOrEqual(2 * TRANSFER_SCAN_ROWS + 2 * TRANSFER_KINDS.length);
    // The same account's USDt page is full at once (every row of ALICE but its newest moves USDt).
    const usdt = await accountTransferPage(ctx.db, ALICE, { limit: 50, tokenId: USDT });
    expect(usdt).toMatchObject({ partial: false });
    expect(usdt.transfers).toHaveLength(50);
    // Inside a read's transaction, the list turns the planner's scans back on after itself: the
    // read's other statements are planned as before.
    const after = await ctx.db.transaction(async (tx) => {
      await accountTransferPage(tx as never, ALICE, { limit: 50, tokenId: USDT });
      return rowsOf<{ b: string; s: string }>(await tx.execute(sql`select current_setting('enable_bitmapscan') as b, current_setting('enable_seqscan') as s`))[0];
    });
    expect(after).toEqual({ b: "on", s: "on" });
    // A kind the account never had, and a direction it never took: index seeks, nothing read.
    for (const filter of [{ kind: "mint" as const }, { direction: "in" as const }]) {
      probe.reset();
      expect(await accountTransferPage(probe.db, ALICE, { limit: 50, ...filter })).toMatchObject({ transfers: [], nextCursor: null, partial: false });
      expect(probe.work().rows, JSON.stringify(filter)).toBe(0);
    }
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default

  it("a pool's trades from a cursor before its first, and a trader's before its first block: one index step, no walk through the swaps below", async () => {
    // WETH's pool trades in the later half only (and once in the fixture, at its head block).
    const res = await t.get(`/pools/${KSM}/${WETH}/swaps?cursor=${cursor([LATE - 1, 0, 0])}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { trades: Array<{ blockNumber: number }> }).trades.map((s) => s.blockNumber)).toEqual([HEAD_BLOCK]);
    const work = noWork();
    await inListOrder(ctx.db, (tx) => explainInto(tx, poolSwapsQuery(tx, { token0Id: KSM, token1Id: WETH }, 51, { blockNumber: LATE - 1, eventIndex: 0, hop: 0 }), "swaps", work));
    expect(work.rows).toBeLessThanOrEqual(1);
    const traded = await t.get(`/accounts/${BOB}/swaps?toBlock=${LATE - 1}`, auth);
    expect(await traded.json()).toMatchObject({ trades: [], nextCursor: null });
    const bob = noWork();
    await inListOrder(ctx.db, (tx) => explainInto(tx, accountSwapsQuery(tx, BOB, 51, { toBlock: LATE - 1 }), "swaps", bob));
    expect(bob.rows).toBe(0);
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default
  },
  undefined,
  { truncateEach: false },
);
