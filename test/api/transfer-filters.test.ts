/**
 * The transfer lists' answers, for every combination of filters, start cursors, page sizes and
 * scan bounds, against a brute-force answer worked out here from the same random rows: a token's
 * list and an account's (direction, token or LP token, counterparty, kind, blocks, times), each paged by its
 * cursors to the end. The index ranges, the kind merge, times made blocks and the bounded scan
 * must give exactly the rows a filter over every row gives, in order, each once.
 */
import fc from "fast-check";
import { beforeEach, expect, it } from "vitest";
import { insertBlocks, insertTransfers, recordEventRanges, type NewTransfer } from "../../db/index.js";
import { TRANSFER_KINDS } from "../../db/schema/transfers.js";
import { AppError } from "../../shared/errors.js";
import { accountTransferPage, tokenTransferPage, type TransferQuery } from "../../api/services/transfers.js";
import { describeDb } from "../support/db.js";
import { ALICE, BOB, CHARLIE, DAVE, HEAD_BLOCK, HEAD_TIME, KSM, seedMarket, TEN, USDT, WETH } from "../support/fixtures.js";

const SEED = Number(process.env.TRANSFER_SEED ?? Date.now() % 1_000_000);
// 150 a run, each run a new seed (printed in the title; TRANSFER_SEED and TRANSFER_RUNS replay or widen one).
const RUNS = Number(process.env.TRANSFER_RUNS ?? 150);
const ACCOUNTS = [ALICE, BOB, CHARLIE];
const TOKENS = [KSM, USDT, TEN];
const LP_TOKENS = [1, 2];
/** Blocks 3000…3059; their times never decrease, and a few repeat (ties are allowed). */
const FIRST = 3_000;
const BLOCKS = 60;

/** A small deterministic generator (the data is the seed's; fast-check draws the queries). */
function random(seed: number) {
  let s = seed || 1;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s % n;
  };
}

function store(seed: number): { blocks: Array<{ number: number; timestamp: number }>; rows: NewTransfer[] } {
  const next = random(seed);
  const blocks: Array<{ number: number; timestamp: number }> = [];
  let time = HEAD_TIME + 60;
  for (let b = 0; b < BLOCKS; b++) blocks.push({ number: FIRST + b, timestamp: (time += next(4) === 0 ? 0 : 6 + next(25)) });
  const rows: NewTransfer[] = [];
  for (const block of blocks) {
    for (let e = 0, n = next(9); e < n; e++) {
      const kind = TRANSFER_KINDS[next(3) === 0 ? next(TRANSFER_KINDS.length) : 0]!;
      const from = ACCOUNTS[next(3)]!;
      const to = next(12) === 0 ? from : ACCOUNTS[next(3)]!;
      const lp = next(6) === 0;
      rows.push({
        blockNumber: block.number,
        eventIndex: e * 3 + next(3),
        extrinsicIndex: next(2) ? e : null,
        timestamp: block.timestamp,
        tokenId: lp ? null : TOKENS[next(TOKENS.length)]!,
        lpTokenId: lp ? LP_TOKENS[next(2)]! : null,
        fromAccount: kind === "mint" || kind === "deposit" ? null : from,
        toAccount: kind === "burn" || kind === "withdraw" ? null : to,
        amount: String(1 + next(1_000_000)),
        kind,
        event: "balances.Transfer",
        valueUsd: null,
      });
    }
  }
  return { blocks, rows };
}

const newestFirst = (a: NewTransfer, b: NewTransfer) => b.blockNumber - a.blockNumber || b.eventIndex - a.eventIndex;
const key = (t: { blockNumber: number; eventIndex: number }) => `${t.blockNumber}/${t.eventIndex}`;
const cursorOf = (p: [number, number]) => Buffer.from(JSON.stringify(p)).toString("base64url");

describeDb("transfer lists against a brute-force answer", (ctx) => {
  let data: ReturnType<typeof store>;

  beforeEach(async () => {
    await seedMarket(ctx.db);
    data = store(SEED);
    await insertBlocks(ctx.db, data.blocks.map((b) => ({ ...b, hash: `0x${b.number.toString(16).padStart(64, "0")}` })));
    // The store followed every block from the fixture's head to these (none with a transfer): no gap.
    await recordEventRanges(ctx.db, [{ fromBlock: HEAD_BLOCK, toBlock: FIRST }]);
    await insertTransfers(ctx.db, data.rows);
  });

  it(`every filter, cursor, page size and scan bound, paged to the end (seed ${SEED}; TRANSFER_SEED replays)`, async () => {
    const times = data.blocks.map((b) => b.timestamp);
    const time = fc.oneof(fc.constantFrom(...times), fc.integer({ min: times[0]! - 100, max: times.at(-1)! + 100 }));
    const block = fc.integer({ min: FIRST - 5, max: FIRST + BLOCKS + 5 });
    // Each filter in a third of the queries: alone, together, and often none.
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 });
    const query = fc.record({
      account: fc.constantFrom(...ACCOUNTS, DAVE),
      token: fc.constantFrom(...TOKENS, WETH),
      onAccount: fc.boolean(),
      direction: maybe(fc.constantFrom("in" as const, "out" as const)),
      asset: maybe(fc.oneof(fc.record({ tokenId: fc.constantFrom(...TOKENS, WETH) }), fc.record({ lpTokenId: fc.constantFrom(...LP_TOKENS, 9) }))),
      counterparty: maybe(fc.constantFrom(...ACCOUNTS, DAVE)),
      kind: maybe(fc.constantFrom(...TRANSFER_KINDS)),
      fromBlock: maybe(block),
      toBlock: maybe(block),
      from: maybe(time),
      to: maybe(time),
      start: maybe(fc.tuple(block, fc.integer({ min: 0, max: 30 }))),
      limit: fc.integer({ min: 1, max: 12 }),
      scanRows: fc.constantFrom(1, 3, 8, 2_000),
    });
    let compared = 0;
    let nonEmpty = 0;
    let partialPages = 0;
    let betweenTwo = 0;
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const asked: TransferQuery = { limit: q.limit, kind: q.kind, fromBlock: q.fromBlock, toBlock: q.toBlock, fromTime: q.from, toTime: q.to };
        if (q.onAccount) Object.assign(asked, { direction: q.direction, counterparty: q.counterparty, ...q.asset });
        const scanned = q.onAccount && (q.asset !== undefined || q.counterparty !== undefined);
        const below = (r: NewTransfer, at: number[] | undefined) => at === undefined || r.blockNumber < at[0]! || (r.blockNumber === at[0] && r.eventIndex < at[1]!);
        // What an account's page walks through: its rows by direction, kind, blocks and times.
        const walk = data.rows
          .filter((r) => (q.onAccount ? (q.direction !== "in" && r.fromAccount === q.account) || (q.direction !== "out" && r.toAccount === q.account) : r.tokenId === q.token))
          .filter((r) => (q.kind === undefined || r.kind === q.kind) && (q.fromBlock === undefined || r.blockNumber >= q.fromBlock) && (q.toBlock === undefined || r.blockNumber <= q.toBlock))
          .filter((r) => (q.from === undefined || r.timestamp >= q.from) && (q.to === undefined || r.timestamp <= q.to))
          .sort(newestFirst);
        const expected = walk
          .filter((r) => !q.onAccount || q.asset === undefined || ("tokenId" in q.asset ? r.tokenId === q.asset.tokenId : r.lpTokenId === q.asset.lpTokenId))
          // Rows between the account and the counterparty, either way (itself: its self-transfers).
          .filter((r) => !q.onAccount || q.counterparty === undefined || (r.fromAccount === q.account && r.toAccount === q.counterparty) || (r.toAccount === q.account && r.fromAccount === q.counterparty))
          .filter((r) => below(r, q.start));
        const read = (cursor: string | undefined) => {
          const page = { ...asked, cursor };
          return q.onAccount ? accountTransferPage(ctx.db, q.account, page, q.scanRows) : tokenTransferPage(ctx.db, q.token, page);
        };
        if ((q.fromBlock ?? 0) > (q.toBlock ?? Infinity) || (q.from ?? 0) > (q.to ?? Infinity)) {
          await expect(read(undefined)).rejects.toBeInstanceOf(AppError);
          return;
        }
        const got: Array<{ blockNumber: number; eventIndex: number; direction?: string }> = [];
        let at: number[] | undefined = q.start;
        for (let pages = 0; pages < 1_000; pages++) {
          const page = await read(at && cursorOf(at as [number, number]));
          const partial = "partial" in page ? page.partial : false;
          expect(page.transfers.length).toBeLessThanOrEqual(q.limit);
          // A page short of `limit` with more to come is one that stopped at the scan bound, and says so.
          if (page.nextCursor !== null && page.transfers.length < q.limit) expect(partial).toBe(true);
          if (partial) {
            expect(scanned).toBe(true);
            // …and it goes on below the last row it examined: the bound's last row of the walk.
            const last = walk.filter((r) => below(r, at))[q.scanRows - 1]!;
            expect(JSON.parse(Buffer.from(page.nextCursor!, "base64url").toString())).toEqual([last.blockNumber, last.eventIndex]);
            partialPages += 1;
          }
          got.push(...page.transfers);
          if (page.nextCursor === null) break;
          at = JSON.parse(Buffer.from(page.nextCursor, "base64url").toString()) as number[];
        }
        expect(got.map(key)).toEqual(expected.map(key));
        if (q.onAccount) expect(got.map((t) => t.direction)).toEqual(expected.map((r) => (r.fromAccount === q.account ? (r.toAccount === q.account ? "self" : "out") : "in")));
        compared += expected.length;
        nonEmpty += expected.length > 0 ? 1 : 0;
        if (q.onAccount && q.counterparty !== undefined && expected.length > 0) betweenTwo += 1;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The data exercised the cases, not empty lists alone. A quarter of the runs is about what
    // the generator gives (seed 380830: exactly 75 of 300), so the guard sits below it.
    expect(nonEmpty).toBeGreaterThan(RUNS / 6);
    expect(compared).toBeGreaterThan(RUNS);
    expect(partialPages).toBeGreaterThan(0);
    expect(betweenTwo).toBeGreaterThan(0);
  }, 600_000);
});
