/**
 * Coverage, stated everywhere history is served (docs/api.md, "Coverage"; issue 39, point 5). A
 * store written the way the indexer writes it: a bootstrap at block 238 (its state read, not its
 * events), followed to 260, a re-bootstrap at 280 that skipped 261-280, followed to 290. CHARLIE
 * moved tokens before 238 on chain; the store never saw it. Every history route says where its
 * history starts and what it lacks, and one that names a bound before it or in the gap is refused.
 */
import { beforeEach, expect, it } from "vitest";
import { CHAIN_TASK, eventCoverage, missingIn, setTask, snapshotTaken, type Database, type NewSwap, type NewTransfer } from "../../db/index.js";
import { Batch } from "../../indexer/writer.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { ALICE, CHARLIE, KSM, USDT } from "../support/fixtures.js";

const LP = 1;
const time = (n: number) => 1_700_000_000 + n * 12;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

function transfer(n: number, from: string, to: string): NewTransfer {
  return { blockNumber: n, eventIndex: 1, extrinsicIndex: 1, timestamp: time(n), tokenId: USDT, lpTokenId: null, fromAccount: from, toAccount: to, amount: "5", kind: "transfer", event: "assets.Transferred", valueUsd: null };
}

function swap(n: number): NewSwap {
  return { blockNumber: n, eventIndex: 2, hop: 0, token0Id: KSM, token1Id: USDT, tokenIn: KSM, tokenOut: USDT, amountIn: "1000", amountOut: "990", fee: "3", volumeUsd: "1", feeUsd: "0.003", account: CHARLIE, timestamp: time(n) };
}

/** A bootstrap's last transaction at `n`: tokens, a pool, balances; its block is a snapshot. */
async function bootstrap(db: Database, n: number) {
  const batch = new Batch();
  batch.token({ id: KSM, name: "Kusama", symbol: "KSM", decimals: 12, supply: "1000000", owner: null, kind: "native", blockNumber: n });
  batch.token({ id: USDT, name: "Tether USD", symbol: "USDt", decimals: 6, supply: "1000000", owner: null, kind: "asset", assetId: USDT, blockNumber: n });
  batch.pool({ token0Id: KSM, token1Id: USDT, lpTokenId: LP, account: "pool", reserve0: "1000", reserve1: "1000", lpSupply: "1000", lpFeePpm: 3000, createdBlock: 100, blockNumber: n });
  batch.reserves.push({ token0Id: KSM, token1Id: USDT, blockNumber: n, timestamp: time(n), reserve0: "1000", reserve1: "1000", lpSupply: "1000", lpFeePpm: 3000 });
  batch.holder({ tokenId: USDT, account: CHARLIE, balance: "100", blockNumber: n, free: null, reserved: null, frozen: null, transferable: null, status: null });
  batch.lpHolder({ lpTokenId: LP, account: CHARLIE, balance: "10", blockNumber: n });
  batch.blocks.push({ number: n, hash: hash(n), timestamp: time(n) });
  batch.snapshotBlock = n;
  await batch.commit(db, { blockNumber: n, blockHash: hash(n), chainFinalized: n }, undefined, async (t) => {
    await snapshotTaken(t, "holders", n);
    await snapshotTaken(t, "lp", n);
  });
}

/** The follower's batches over blocks from..to, a transfer and a swap of CHARLIE's in each. */
async function follow(db: Database, from: number, to: number) {
  for (let n = from; n <= to; n += 5) {
    const batch = new Batch();
    for (let b = n; b <= Math.min(n + 4, to); b++) {
      batch.blocks.push({ number: b, hash: hash(b), timestamp: time(b) });
      batch.transfers.push(transfer(b, CHARLIE, ALICE));
      batch.swaps.push(swap(b));
    }
    const last = Math.min(n + 4, to);
    await batch.commit(db, { blockNumber: last, blockHash: hash(last), chainFinalized: last });
  }
}

/** A backfill's chunk over blocks from..to (history rows only). */
async function backfill(db: Database, from: number, to: number) {
  const batch = new Batch();
  for (let b = from; b <= to; b++) {
    batch.blocks.push({ number: b, hash: hash(b), timestamp: time(b) });
    batch.transfers.push(transfer(b, ALICE, CHARLIE));
  }
  await batch.commitHistory(db);
}

type Coverage = { historyFrom: number | null; historyFromTime: number | null; historyGaps: Array<{ fromBlock: number; toBlock: number }>; historyComplete: boolean };

/**
 * Every route that reads history: its path, whether it needs a token, and queries naming a bound
 * before the store's history and one reaching into its gap (261-280). `asOf`: answers as of a
 * block (the balance history floor, refused before it); the others carry the coverage fields.
 */
const ROUTES: Array<{ path: string; auth: boolean; before: string[]; gap: string[]; asOf?: true; state?: true }> = [
  { path: `/accounts/${CHARLIE}/transfers`, auth: true, before: ["toBlock=200", "fromBlock=200", `from=${time(200)}`, `to=${time(200)}`], gap: ["fromBlock=255&toBlock=285", `from=${time(255)}&to=${time(285)}`, "toBlock=270"] },
  { path: `/assets/${USDT}/transfers`, auth: true, before: ["toBlock=200", `to=${time(230)}`], gap: ["fromBlock=270"] },
  { path: `/accounts/${CHARLIE}/swaps`, auth: true, before: ["toBlock=200", "fromBlock=0"], gap: ["fromBlock=255&toBlock=285"] },
  { path: `/pools/${KSM}/${USDT}/swaps`, auth: false, before: [], gap: [] },
  { path: `/pools/${KSM}/${USDT}/ohlcv`, auth: false, before: [`interval=1m&from=${time(200)}`, `interval=1m&to=${time(237)}`], gap: [`interval=1m&from=${time(255)}&to=${time(285)}`] },
  { path: `/assets/${USDT}/history`, auth: true, before: [`interval=1m&from=${time(200)}`, `interval=1m&from=${time(238) - 1}`], gap: [`interval=1m&from=${time(265)}`], state: true },
  { path: `/oracle/history/${USDT}`, auth: false, before: [`from=${time(200)}&to=${time(250)}&interval=60`, `to=${time(237)}`], gap: [`from=${time(250)}&to=${time(290)}&interval=60`], state: true },
  { path: `/accounts/${CHARLIE}/balances/${USDT}`, auth: true, before: ["at=200", "at=270", `atTime=${time(200)}`], gap: [], asOf: true },
  { path: `/accounts/${CHARLIE}/lp-balances/${LP}`, auth: true, before: ["at=200"], gap: [], asOf: true },
  { path: `/accounts/${CHARLIE}`, auth: true, before: ["at=200"], gap: [], asOf: true },
  { path: `/assets/metadata/${USDT}`, auth: true, before: ["at=200"], gap: [], asOf: true },
  { path: `/pool/stats/${KSM}/${USDT}`, auth: false, before: ["at=200"], gap: [], asOf: true },
];

describeDb("coverage of history", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const get = async (path: string, withAuth: boolean) => t.get(path, withAuth ? auth : {});

  beforeEach(async () => {
    await setTask(ctx.db, CHAIN_TASK, { ss58: 2, genesisHash: "0x" + "00".repeat(32), specName: "statemine" });
    await bootstrap(ctx.db, 238);
    await follow(ctx.db, 239, 260);
    // INDEXER_REBOOTSTRAP=auto: the node had no state after 260; a new snapshot at 280.
    await bootstrap(ctx.db, 280);
    await follow(ctx.db, 281, 290);
    t = buildApp(ctx.db);
    auth = await authHeader(t);
  });

  it("the store knows what it holds: the first block with events (not a snapshot's), and the gap a re-bootstrap left", async () => {
    expect(await eventCoverage(ctx.db)).toEqual({ first: { number: 239, timestamp: time(239) }, last: 290, gaps: [{ fromBlock: 261, toBlock: 280 }], moreGaps: false });
    expect(await missingIn(ctx.db, 239, 260)).toBeUndefined();
    expect(await missingIn(ctx.db, 250, 1_000)).toEqual({ fromBlock: 261, toBlock: 280 });
    expect(await missingIn(ctx.db, 100, 250)).toEqual({ fromBlock: 100, toBlock: 238 });
    expect(await missingIn(ctx.db, 291, 400)).toBeUndefined(); // not indexed yet, not missing
  });

  it("CHARLIE's transfers: historyFrom is the first block held, the list says it may go on before it, and ?toBlock=200 is refused, not empty", async () => {
    const res = await get(`/accounts/${CHARLIE}/transfers?limit=100`, true);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Coverage & { transfers: Array<{ blockNumber: number }>; nextCursor: string | null };
    expect(body).toMatchObject({ historyFrom: 239, historyFromTime: time(239), historyGaps: [{ fromBlock: 261, toBlock: 280 }], historyComplete: false, nextCursor: null });
    expect(body.transfers.map((x) => x.blockNumber)).toEqual([...Array.from({ length: 10 }, (_, i) => 290 - i), ...Array.from({ length: 22 }, (_, i) => 260 - i)]);
    const refusal = await expectError(await get(`/accounts/${CHARLIE}/transfers?toBlock=200`, true), 404, "BLOCK_BEFORE_HISTORY");
    expect(refusal).toContain("block 239");
    expect(refusal).toContain("tokenpool backfill --from 200 --to 200");
    expect(await expectError(await get(`/accounts/${CHARLIE}/transfers?fromBlock=255&toBlock=285`, true), 404, "BLOCK_BEFORE_HISTORY")).toContain("blocks 261-280");
    // Bounds inside what the store holds are answered.
    expect((await get(`/accounts/${CHARLIE}/transfers?fromBlock=239&toBlock=260`, true)).status).toBe(200);
    expect((await get(`/accounts/${CHARLIE}/transfers?toBlock=250`, true)).status).toBe(200);
  });

  it("every history route: the coverage in the body, and a bound before it or into the gap refused with BLOCK_BEFORE_HISTORY", async () => {
    for (const route of ROUTES) {
      const res = await get(route.path, route.auth);
      expect(res.status, `${route.path}: ${await res.clone().text()}`).toBe(200);
      const body = (await res.json()) as Coverage & { asOf?: { historyFrom: number } };
      if (route.asOf) {
        // As of the newest block: and where the answers as of a block start (the re-bootstrap's snapshot).
        if (route.path.includes("/balances/") || route.path.includes("/lp-balances/")) expect(body.asOf, route.path).toMatchObject({ historyFrom: 280 });
        const atRes = await get(`${route.path}?at=285`, route.auth);
        expect(atRes.status, `${route.path}?at=285: ${await atRes.clone().text()}`).toBe(200);
        const at = (await atRes.json()) as { asOf: { blockNumber: number; historyFrom: number } };
        expect(at.asOf, route.path).toEqual({ blockNumber: 285, timestamp: time(285), historyFrom: 280 });
      } else {
        // Values as of times (prices, supply) start at the bootstrap's snapshot; events after it.
        const first = route.state ? 238 : 239;
        expect({ path: route.path, historyFrom: body.historyFrom, historyFromTime: body.historyFromTime, historyGaps: body.historyGaps, historyComplete: body.historyComplete }).toEqual({
          path: route.path,
          historyFrom: first,
          historyFromTime: time(first),
          historyGaps: [{ fromBlock: 261, toBlock: 280 }],
          historyComplete: false,
        });
      }
      for (const q of route.before) {
        const message = await expectError(await get(`${route.path}?${q}`, route.auth), 404, "BLOCK_BEFORE_HISTORY");
        expect(message, `${route.path}?${q}`).toMatch(route.asOf ? /block 280/ : route.state ? /block 238/ : /block 239/);
      }
      for (const q of route.gap) expect(await expectError(await get(`${route.path}?${q}`, route.auth), 404, "BLOCK_BEFORE_HISTORY"), `${route.path}?${q}`).toMatch(/into a gap in the store.s history: it lacks the \w+ of blocks? 2[67]\d/);
    }
  });

  it("a series of values as of times (prices, supply) is answered from the bootstrap's snapshot time: its state is held, not its events", async () => {
    for (const path of [`/oracle/history/${USDT}?from=${time(238)}&to=${time(250)}&interval=60`, `/assets/${USDT}/history?interval=1m&from=${time(238)}&to=${time(250)}`]) {
      const res = await get(path, true);
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    }
    // Candles hold the events of the window: from the snapshot's time, its block's swaps are not held.
    await expectError(await get(`/pools/${KSM}/${USDT}/ohlcv?interval=1m&from=${time(238)}&to=${time(250)}`, false), 404, "BLOCK_BEFORE_HISTORY");
    expect((await get(`/pools/${KSM}/${USDT}/ohlcv?interval=1m&from=${time(239)}&to=${time(250)}`, false)).status).toBe(200);
  });

  it("a history backfill moves historyFrom back as its chunks land; the blocks it has not reached yet are a gap", async () => {
    // The chunk 220-230 is done; 231-238 (the bootstrap's own block too) is still to come.
    await backfill(ctx.db, 220, 230);
    t = buildApp(ctx.db);
    auth = await authHeader(t, "after-backfill@example.com");
    const body = (await (await get(`/accounts/${CHARLIE}/transfers?limit=100`, true)).json()) as Coverage & { transfers: Array<{ blockNumber: number }> };
    expect(body).toMatchObject({ historyFrom: 220, historyFromTime: time(220), historyGaps: [{ fromBlock: 261, toBlock: 280 }, { fromBlock: 231, toBlock: 238 }], historyComplete: false });
    expect(body.transfers.at(-1)!.blockNumber).toBe(220);
    expect((await get(`/accounts/${CHARLIE}/transfers?fromBlock=220&toBlock=230`, true)).status).toBe(200);
    expect(await expectError(await get(`/accounts/${CHARLIE}/transfers?fromBlock=225&toBlock=240`, true), 404, "BLOCK_BEFORE_HISTORY")).toContain("blocks 231-238");
    // The rest lands: one range from 220 to 260, merged (the bootstrap's block is held now too).
    await backfill(ctx.db, 231, 238);
    expect(await eventCoverage(ctx.db)).toMatchObject({ first: { number: 220 }, gaps: [{ fromBlock: 261, toBlock: 280 }] });
  });
});
