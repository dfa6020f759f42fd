/**
 * Balances as of a block (GET /accounts/{address}/balances/{id}, …/lp-balances/{lpTokenId}) on a
 * store written the way the indexer writes it: a snapshot at the floor, then batches of one and
 * of several blocks (each block's value kept, not only the batch's last), a balance that drops to
 * zero, a token destroyed, a re-bootstrap across a gap. Every answer is checked against the
 * balances this test wrote at each block; outside the history, the refusal names its first block.
 */
import { u8aToHex } from "@polkadot/util";
import { decodeAddress } from "@polkadot/util-crypto";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { canonicalPath } from "../../api/canonical.js";
import { CHAIN_TASK, historyFloor, insertPrices, pruneHistory, setTask, snapshotTaken, sweepSnapshot, upsertHolders, type Database } from "../../db/index.js";
import { Batch } from "../../indexer/writer.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { ALICE, BOB, USDT } from "../support/fixtures.js";

const TEN = 10;
const LP = 7;
const time = (n: number) => 1_700_000_000 + n * 12;

/** Balance of (token, account) the test wrote, per block: what every answer must equal. */
type Truth = Map<number, Map<string, string>>;

function token(id: number, block: number, supply = "1000000") {
  return { id, name: `T${id}`, symbol: `T${id}`, decimals: 6, supply, owner: id === USDT ? BOB : null, blockNumber: block };
}

/** One batch of blocks: each block's balance reads, in order; committed with its checkpoint. */
async function commit(db: Database, blocks: Array<{ n: number; reads?: Array<[number, string, string]>; lp?: Array<[string, string]>; destroy?: number[]; tokens?: Array<number | [number, string]> }>, truth: Truth) {
  const batch = new Batch();
  for (const b of blocks) {
    for (const t of b.tokens ?? []) batch.token(typeof t === "number" ? token(t, b.n) : token(t[0], b.n, t[1]));
    for (const id of b.destroy ?? []) batch.destroy(id, b.n);
    for (const [tokenId, account, balance] of b.reads ?? []) batch.holder({ tokenId, account, balance, blockNumber: b.n, free: null, reserved: null, frozen: null, transferable: null, status: null });
    for (const [account, balance] of b.lp ?? []) batch.lpHolder({ lpTokenId: LP, account, balance, blockNumber: b.n });
    batch.blocks.push({ number: b.n, hash: `0x${b.n.toString(16)}`, timestamp: time(b.n) });
    const prev = truth.get(b.n - 1) ?? new Map<string, string>();
    const now = new Map(prev);
    for (const id of b.destroy ?? []) for (const k of [...now.keys()]) if (k.startsWith(`${id}|`)) now.delete(k);
    for (const [tokenId, account, balance] of b.reads ?? []) now.set(`${tokenId}|${account}`, balance);
    for (const [account, balance] of b.lp ?? []) now.set(`lp${LP}|${account}`, balance);
    truth.set(b.n, now);
  }
  const last = blocks[blocks.length - 1]!.n;
  await batch.commit(db, { blockNumber: last, blockHash: `0x${last.toString(16)}`, chainFinalized: last });
}

describeDb("balances as of a block", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const truth: Truth = new Map();

  const get = (path: string) => t.get(path, auth);
  async function balance(account: string, tokenId: number, at: number) {
    const res = await get(`/accounts/${account}/balances/${tokenId}?at=${at}`);
    expect(res.status, `${account} ${tokenId} at ${at}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as { balance: string; asOf: { blockNumber: number; timestamp: number }; recordedAt: number | null; symbol: string | null };
  }

  beforeEach(async () => {
    truth.clear();
    await setTask(ctx.db, CHAIN_TASK, { ss58: 2, genesisHash: "0x" + "00".repeat(32), specName: "statemine" }); // Kusama addresses
    // The first snapshot, at 100 (as the bootstrap's last transaction records it).
    await commit(ctx.db, [{ n: 100, tokens: [USDT, TEN], reads: [[USDT, ALICE, "500"], [USDT, BOB, "7"], [TEN, ALICE, "5"]], lp: [[ALICE, "40"]] }], truth);
    await snapshotTaken(ctx.db, "holders", 100);
    await snapshotTaken(ctx.db, "lp", 100);
    await commit(ctx.db, [{ n: 101, reads: [[USDT, ALICE, "300"], [USDT, BOB, "207"]], lp: [[ALICE, "50"]] }], truth);
    await commit(ctx.db, [{ n: 102, reads: [[USDT, BOB, "0"]] }], truth);
    await commit(ctx.db, [{ n: 103, destroy: [TEN] }], truth);
    // One batch of three blocks: every block's value is kept, not only the last.
    await insertPrices(ctx.db, [
      { tokenId: USDT, blockNumber: 100, priceUsd: "1.5" },
      { tokenId: USDT, blockNumber: 101, priceUsd: "2" },
      { tokenId: USDT, blockNumber: 105, priceUsd: null },
    ]);
    await commit(ctx.db, [{ n: 104, tokens: [[USDT, "2500000"]], reads: [[USDT, ALICE, "301"]] }, { n: 105, reads: [[USDT, ALICE, "302"]], lp: [[ALICE, "0"]] }, { n: 106, reads: [[USDT, ALICE, "340282366920938463463374607431768211455"]] }], truth);
    t = buildApp(ctx.db);
    auth = await authHeader(t);
  });

  it("every block from the floor to the head answers the balance written at or before it, for tokens and LP tokens", async () => {
    for (let n = 100; n <= 106; n++) {
      const want = truth.get(n)!;
      for (const [id, account] of [[USDT, ALICE], [USDT, BOB], [TEN, ALICE]] as const) {
        const got = await balance(account, id, n);
        expect({ n, id, account, balance: got.balance, asOf: got.asOf }).toEqual({ n, id, account, balance: want.get(`${id}|${account}`) ?? "0", asOf: { blockNumber: n, timestamp: time(n), historyFrom: 100 } });
      }
      const lp = await get(`/accounts/${ALICE}/lp-balances/${LP}?at=${n}`);
      expect(lp.status).toBe(200);
      expect(((await lp.json()) as { balance: string }).balance, `LP at ${n}`).toBe(want.get(`lp${LP}|${ALICE}`) ?? "0");
    }
    // recordedAt: the block the answer was read at; the destroyed token keeps its history.
    expect((await balance(ALICE, USDT, 103)).recordedAt).toBe(101);
    expect(await balance(ALICE, TEN, 102)).toMatchObject({ balance: "5", recordedAt: 100, symbol: `T${TEN}` }); // its symbol then
    expect(await balance(ALICE, TEN, 103)).toMatchObject({ balance: "0", recordedAt: 103, symbol: null });
  });

  it("without at, the newest block; atTime picks the last block at or before it; any spelling of the address is one answer", async () => {
    const now = (await (await get(`/accounts/${ALICE}/balances/${USDT}`)).json()) as { balance: string; asOf: { blockNumber: number } };
    expect(now).toMatchObject({ balance: "340282366920938463463374607431768211455", asOf: { blockNumber: 106 } });
    expect((await (await get(`/accounts/${ALICE}/balances/${USDT}?atTime=${time(101) + 5}`)).json()) as object).toMatchObject({ balance: "300", asOf: { blockNumber: 101, timestamp: time(101) } });
    const hex = u8aToHex(decodeAddress(ALICE));
    expect(await (await get(`/accounts/${hex}/balances/${USDT}?at=101`)).json()).toEqual(await (await get(`/accounts/${ALICE}/balances/${USDT}?at=101`)).json());
    // …and one response-cache key (the account id), for tokens and LP tokens alike.
    for (const route of [`balances/${USDT}`, `lp-balances/${LP}`]) {
      expect(canonicalPath(`/accounts/${ALICE}/${route}`, undefined)).toBe(`/accounts/${hex}/${route}`);
      expect(canonicalPath(`/accounts/${hex}/${route}`, undefined)).toBe(`/accounts/${hex}/${route}`);
    }
  });

  it("refuses what it cannot answer exactly: before the floor (naming it), after the head, bad input, both at and atTime, an unknown token, no token", async () => {
    expect(await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?at=99`), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 100");
    expect(await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?atTime=${time(99)}`), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 100");
    expect(await expectError(await get(`/accounts/${ALICE}/lp-balances/${LP}?at=0`), 404, "BLOCK_BEFORE_HISTORY")).toContain("block 100");
    expect(await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?at=107`), 404, "BLOCK_NOT_INDEXED")).toContain("newest block is 106");
    expect(await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?atTime=${time(106) + 1}`), 404, "BLOCK_NOT_INDEXED")).toContain("106");
    for (const q of ["at=abc", "at=-1", "at=01", "at=1.5", "atTime=x", "at=101&atTime=1700000000", "at=101&at=102", "when=5"]) {
      await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?${q}`), 400, "VALIDATION_ERROR");
    }
    await expectError(await get(`/accounts/${ALICE}/balances/999?at=101`), 404, "TOKEN_NOT_FOUND");
    await expectError(await get(`/accounts/${ALICE}/lp-balances/999`), 404, "TOKEN_NOT_FOUND");
    await expectError(await get(`/accounts/not-an-address/balances/${USDT}`), 400, "VALIDATION_ERROR");
    await expectError(await t.get(`/accounts/${ALICE}/balances/${USDT}?at=101`), 401, "UNAUTHORIZED");
  });

  it("/assets/metadata as of a block: the token row, price and owner balance there; gone after it was destroyed", async () => {
    const meta = async (id: number, q: string) => {
      const res = await get(`/assets/metadata/${id}?${q}`);
      expect(res.status, `${id} ${q}: ${await res.clone().text()}`).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    // Owner BOB: 7 at 1.5 USD, then 207 at 2 USD, then 0; 6 decimals.
    expect(await meta(USDT, "at=100")).toMatchObject({ totalSupply: "1000000", treasuryValue: "0.0000105", valueUsd: "1.5", blockNumber: 100, asOf: { blockNumber: 100, timestamp: time(100) } });
    expect(await meta(USDT, "at=101")).toMatchObject({ totalSupply: "1000000", treasuryValue: "0.000414", blockNumber: 100 });
    expect(await meta(USDT, "at=103")).toMatchObject({ treasuryValue: "0", blockNumber: 100 });
    expect(await meta(USDT, "at=104")).toMatchObject({ totalSupply: "2500000", blockNumber: 104, asOf: { blockNumber: 104 } });
    // No price at 105 (expired): treasuryValue "0" as the spec types it, and valueUsd null says why.
    expect(await meta(USDT, `atTime=${time(105)}`)).toMatchObject({ treasuryValue: "0", valueUsd: null, asOf: { blockNumber: 105 } });
    // Without at: the current answer, without asOf.
    const now = await meta(USDT, "");
    expect(now).toMatchObject({ totalSupply: "2500000" });
    expect(now).not.toHaveProperty("asOf");
    expect(await meta(TEN, "at=102")).toMatchObject({ name: `T${TEN}`, totalSupply: "1000000" });
    expect(await expectError(await get(`/assets/metadata/${TEN}?at=103`), 404, "TOKEN_NOT_FOUND")).toContain("did not exist at block 103");
    await expectError(await get(`/assets/metadata/${TEN}`), 404, "TOKEN_NOT_FOUND");
    expect(await expectError(await get(`/assets/metadata/${USDT}?at=99`), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 100");
    await expectError(await get(`/assets/metadata/${USDT}?at=107`), 404, "BLOCK_NOT_INDEXED");
  });

  it("pruning history before a block keeps every answer from it on, refuses earlier ones, and deletes the rows it no longer needs", async () => {
    // A zero balance's recordedAt may become null: its row of 0 before the new floor is gone.
    // asOf.historyFrom moves to the new floor (checked below); the rest of each answer stays.
    const same = (a: unknown) => {
      const b = a as { balance?: string; recordedAt?: unknown; asOf?: object };
      const out = { ...b, ...(b.asOf ? { asOf: { ...b.asOf, historyFrom: "the floor" } } : {}) };
      return b.balance === "0" ? { ...out, recordedAt: "0 since the floor or earlier" } : out;
    };
    const answers = async () => {
      const out: unknown[] = [];
      for (let n = 103; n <= 106; n++) {
        for (const id of [USDT, TEN]) for (const account of [ALICE, BOB]) out.push(same(await (await get(`/accounts/${account}/balances/${id}?at=${n}`)).json()));
        out.push(same(await (await get(`/accounts/${ALICE}/lp-balances/${LP}?at=${n}`)).json()));
        out.push(same(await (await get(`/assets/metadata/${USDT}?at=${n}`)).json()), same(await (await get(`/assets/metadata/${TEN}?at=${n}`)).json()));
      }
      return out;
    };
    const count = async () => (await ctx.db.execute(sql`select (select count(*) from balance_history)::int as b, (select count(*) from token_history)::int as t`)) as unknown;
    const before = await answers();
    const rowsBefore = JSON.stringify(await count());
    await expect(pruneHistory(ctx.db, 107)).rejects.toThrow(/after the store's checkpoint \(106\)/);
    // A fresh app: the answers are read again from the pruned store, not the response cache.
    // ALICE USDT 500@100; BOB USDT 7@100, 207@101, 0@102; TEN 5@100 (0 at 103); LP 40@100 — and TEN's row of 100.
    expect(await pruneHistory(ctx.db, 103)).toEqual({ balances: 6, tokens: 1 });
    t = buildApp(ctx.db);
    auth = await authHeader(t, "after-prune@example.com");
    expect(await answers()).toEqual(before);
    expect(JSON.stringify(await count())).not.toBe(rowsBefore);
    expect(await historyFloor(ctx.db, "holders")).toBe(103);
    expect(await historyFloor(ctx.db, "lp")).toBe(103);
    expect(((await (await get(`/accounts/${ALICE}/balances/${USDT}?at=104`)).json()) as { asOf: object }).asOf).toEqual({ blockNumber: 104, timestamp: time(104), historyFrom: 103 });
    expect(await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?at=102`), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 103");
    // Pruning again at the same block deletes nothing.
    expect(await pruneHistory(ctx.db, 103)).toEqual({ balances: 0, tokens: 0 });
  });

  it("a token destroyed and created again in one batch: its old holders hold 0 from the destroy on (review, issue 26)", async () => {
    await commit(ctx.db, [{ n: 107, destroy: [USDT] }, { n: 108, tokens: [USDT], reads: [[USDT, BOB, "11"]] }], truth);
    expect((await balance(ALICE, USDT, 106)).balance).toBe("340282366920938463463374607431768211455");
    expect(await balance(ALICE, USDT, 107)).toMatchObject({ balance: "0", recordedAt: 107 });
    expect((await balance(ALICE, USDT, 108)).balance).toBe("0");
    expect((await balance(BOB, USDT, 108)).balance).toBe("11");
    // …and now: the store's current holders of the new token are its own.
    const holders = (await (await get(`/assets/holders/${USDT}`)).json()) as { holders: Array<{ address: string; balance: string }> };
    expect(holders.holders.map((h) => [h.address, h.balance])).toEqual([[BOB, "11"]]);
  });

  it("a backfill writes no balance or token history: a token gone before the floor stays gone after it (review, issue 26)", async () => {
    const old = new Batch();
    old.token(token(55, 50));
    old.holder({ tokenId: USDT, account: BOB, balance: "999", blockNumber: 50, free: null, reserved: null, frozen: null, transferable: null, status: null });
    old.blocks.push({ number: 50, hash: "0x32", timestamp: time(50) });
    await old.commitHistory(ctx.db);
    await expectError(await get(`/assets/metadata/55?at=104`), 404, "TOKEN_NOT_FOUND");
    expect((await balance(BOB, USDT, 104)).balance).toBe("0");
  });

  it("a re-bootstrap ahead of the checkpoint moves the floor and zeroes the accounts it did not see; a snapshot at the checkpoint (an upgrade's) keeps it", async () => {
    // At the checkpoint (106): history before it was followed block by block: the floor stays.
    await ctx.db.transaction(async (tx) => snapshotTaken(tx as unknown as Database, "holders", 106));
    expect(await historyFloor(ctx.db, "holders")).toBe(100);
    // A re-bootstrap at 120 (the node pruned 107–119): only ALICE's USDT is seen there.
    await ctx.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      await upsertHolders(db, [{ tokenId: USDT, account: ALICE, balance: "9", blockNumber: 120, free: null, reserved: null, frozen: null, transferable: null, status: null }]);
      await sweepSnapshot(db, 120);
      // As the bootstrap's last transaction does: both kinds, before the checkpoint moves.
      await snapshotTaken(db, "holders", 120);
      await snapshotTaken(db, "lp", 120);
    });
    await commit(ctx.db, [{ n: 120, tokens: [USDT] }], truth);
    expect(await historyFloor(ctx.db, "holders")).toBe(120);
    expect(await historyFloor(ctx.db, "lp")).toBe(120);
    await expectError(await get(`/accounts/${ALICE}/lp-balances/${LP}?at=106`), 404, "BLOCK_BEFORE_HISTORY");
    expect(await expectError(await get(`/accounts/${ALICE}/balances/${USDT}?at=106`), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 120");
    expect((await balance(ALICE, USDT, 120)).balance).toBe("9");
  });
});
