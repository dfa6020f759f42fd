/** The pure part of block processing, on System.Events recorded from the real runtime. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ChainEvent } from "../../indexer/chain/events.js";
import { TokenDirectory } from "../../indexer/chain/directory.js";
import { locationToken, poolKey } from "../../indexer/chain/locations.js";
import { swapRows } from "../../indexer/swaps.js";
import type { PoolRef } from "../../indexer/chain/reader.js";
import type { RawTransfer } from "../../indexer/block-changes.js";
import { collectChanges } from "../../indexer/touched.js";
import { transferRows } from "../../indexer/transfers.js";
import { parseFixed, USD_SCALE } from "../../shared/decimal.js";

const recorded = JSON.parse(readFileSync(new URL("./fixtures/events.json", import.meta.url), "utf8")) as {
  pools: PoolRef[];
  blocks: { number: number; events: ChainEvent[] }[];
};
const events = (n: number) => recorded.blocks.find((b) => b.number === n)!.events;
const allPools = () => new Map(recorded.pools.map((p) => [poolKey(p.token0Id, p.token1Id), { ...p }]));
const TREASURY = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";
const TRADER = "FoQJpPyadYccjavVdTWxpxU7rUEaYhfLCPwXgkfD6Zat9QP";

describe("touched set", () => {
  it("learns the pools created in a block, with the pool account the chain derived", () => {
    const pools = new Map<string, PoolRef>();
    const changes = collectChanges(events(4), { nativeTokenId: 0, pools });
    // Every PoolCreated's pool_account equals blake2_256(SCALE(pool id)), as ChainReader.allPools computes it.
    expect(changes.createdPools.sort((a, b) => a.lpTokenId - b.lpTokenId)).toEqual([...recorded.pools].sort((a, b) => a.lpTokenId - b.lpTokenId));
    expect([...changes.pools].sort()).toEqual(recorded.pools.map((p) => poolKey(p.token0Id, p.token1Id)).sort());
    expect(changes.liquidity.filter((l) => l.kind === "add")).toHaveLength(recorded.pools.length);
    expect(pools.size).toBe(recorded.pools.length);
  });

  it("collects the accounts and pools of a liquidity removal, and the LP token burn", () => {
    const changes = collectChanges(events(5), { nativeTokenId: 0, pools: allPools() });
    expect([...changes.pools]).toEqual(["0/18"]);
    expect(changes.tokens.has(0)).toBe(true); // balances events: native issuance re-read
    expect(changes.tokens.has(18)).toBe(true);
    expect([...(changes.balances.get(18) ?? [])].sort()).toEqual(["HQVjZp9UpNkicArjbutj3YkgDLsDgSY9zPQG8GVPdi8D3Pc", TREASURY].sort());
    expect(changes.balances.get(0)?.has(TREASURY)).toBe(true);
    expect(changes.liquidity).toEqual([
      { eventIndex: 9, extrinsic: 2, kind: "remove", pool: "0/18", who: TREASURY, amount0: "499999999999999", amount1: "4999999999999999000", lpAmount: "49999999999999990" },
    ]);
  });

  it("splits a multi-hop swap into one hop per pool, with the middle amount from the pool's transfer", () => {
    const pools = allPools();
    const changes = collectChanges(events(8), { nativeTokenId: 0, pools });
    expect([...changes.pools].sort()).toEqual(["0/10", "0/1984"]);
    expect(changes.swaps).toHaveLength(1);
    const prices = new Map([[1984, parseFixed("1", USD_SCALE)], [0, parseFixed("25", USD_SCALE)], [10, parseFixed("0.5", USD_SCALE)]]);
    const decimals = new Map([[0, 12], [10, 10], [1984, 6]]);
    const { rows, skipped } = swapRows(changes.swaps, pools, { prices, decimals, lpFeePpm: 3_000n }, { number: 8, timestamp: 1_700_000_000 });
    expect(skipped).toEqual([]);
    expect(rows.map((r) => [r.hop, r.token0Id, r.token1Id, r.tokenIn, r.tokenOut, r.amountIn, r.amountOut, r.fee, r.volumeUsd, r.feeUsd])).toEqual([
      // 500 TEN in (at 0.5 USD), 9.920546077802 KSM out; fee 3 per mille of the amount in
      [0, 0, 10, 10, 0, "5000000000000", "9920546077802", "15000000000", "250", "0.75"],
      // the KSM goes on into the USDt pool: 249.00148 USDt out
      [1, 0, 1984, 0, 1984, "9920546077802", "249001480", "29761638233", "248.01365194505", "0.74404095583515"],
    ]);
    expect(rows.every((r) => r.account === TRADER && r.eventIndex === 10)).toBe(true);
  });

  it("an event of a pallet it does not index moves nothing, but the native balance of each account it names is read again (a hold it placed)", () => {
    const unknown: ChainEvent[] = [{ index: 0, section: "nfts", method: "Minted", extrinsic: 1, data: { owner: TRADER }, accounts: [TRADER] }];
    const changes = collectChanges(unknown, { nativeTokenId: 0, pools: new Map() });
    expect(changes.tokens.size + changes.pools.size + changes.skipped.length + changes.transfers.length).toBe(0);
    expect([...changes.balances].map(([id, accounts]) => [id, [...accounts]])).toEqual([[0, [TRADER]]]);
  });

  it("reports a swap over pools it has never seen, and malformed events, instead of dropping them", () => {
    const changes = collectChanges(events(8), { nativeTokenId: 0, pools: new Map() });
    expect(changes.pools.size).toBe(0);
    const { rows, skipped } = swapRows(changes.swaps, new Map(), { prices: new Map(), decimals: new Map(), lpFeePpm: 3_000n }, { number: 8, timestamp: 0 });
    expect(rows).toEqual([]);
    expect(skipped).toEqual([{ eventIndex: 10, event: "assetConversion.SwapExecuted", reason: "no known pool for hop 0 (10 → 0)" }]);
    const malformed: ChainEvent[] = [
      { index: 3, section: "assets", method: "Issued", extrinsic: 1, data: { assetId: "not an id", owner: TRADER }, accounts: [TRADER] },
      { index: 4, section: "assetConversion", method: "SwapExecuted", extrinsic: 1, data: { who: TRADER, path: ["0x0100"], amountIn: "1", amountOut: "1" }, accounts: [TRADER] },
      { index: 5, section: "foreignAssets", method: "Issued", extrinsic: 1, data: { assetId: "0xff", owner: TRADER }, accounts: [TRADER] },
      { index: 6, section: "assetConversion", method: "PoolFeeSet", extrinsic: 1, data: { poolId: ["0x0100", "0x0002043205011f"], fee: "1000" }, accounts: [] },
    ];
    expect(collectChanges(malformed, { nativeTokenId: 0, pools: new Map() }).skipped).toEqual([
      { eventIndex: 3, event: "assets.Issued", reason: "assetId is not a u32" },
      { eventIndex: 4, event: "assetConversion.SwapExecuted", reason: "path has fewer than two steps" },
      { eventIndex: 5, event: "foreignAssets.Issued", reason: "assetId is not an XCM location" },
      { eventIndex: 6, event: "assetConversion.PoolFeeSet", reason: "an assetConversion event this version of TokenPool does not handle" },
    ]);
  });

  it("an event named as a property of every object (constructor, toString: a runtime's metadata names its events) moves nothing and fails nothing", () => {
    const odd: ChainEvent[] = ["constructor", "toString", "__proto__"].map((method, index) => ({ index, section: "assets", method, extrinsic: 1, data: { assetId: "1984" }, accounts: [] }));
    const changes = collectChanges(odd, { nativeTokenId: 0, pools: new Map() });
    expect(changes.transfers).toEqual([]);
    expect(changes.skipped).toEqual([]);
  });

  it("reads the asset id of runtimes without field names (metadata before v14) from the first field", () => {
    const old: ChainEvent[] = [{ index: 0, section: "assets", method: "Transferred", extrinsic: 1, data: { "0": "1984", "1": TREASURY, "2": TRADER, "3": "5" }, accounts: [TREASURY, TRADER] }];
    const changes = collectChanges(old, { nativeTokenId: 0, pools: new Map() });
    expect(changes.skipped).toEqual([]);
    expect([...changes.balances.get(1984)!].sort()).toEqual([TREASURY, TRADER].sort());
    // …and its movement, by the fields' positions.
    expect(changes.transfers).toEqual([{ eventIndex: 0, extrinsic: 1, event: "assets.Transferred", kind: "transfer", tokenId: 1984, lpTokenId: null, from: TREASURY, to: TRADER, amount: "5", tip: null }]);
  });

  it("a signed extrinsic's fee is one fee row with its tip, in place of the Withdraw that paid it (2023 devnet)", () => {
    const changes = collectChanges(events(5), { nativeTokenId: 0, pools: allPools() });
    const native = changes.transfers.filter((t) => t.tokenId === 0 && t.extrinsic === 2).map((t) => [t.eventIndex, t.event, t.kind, t.from, t.to, t.amount, t.tip]);
    // Recorded: Withdraw(treasury, 315464820) at 3, the pool's Transfer at 5, Deposit(collator pot) at 10, TransactionFeePaid(treasury, 315464820, tip 0) at 11.
    expect(native).toEqual([
      [5, "balances.Transfer", "transfer", "HQVjZp9UpNkicArjbutj3YkgDLsDgSY9zPQG8GVPdi8D3Pc", TREASURY, "499999999999999", null],
      [10, "balances.Deposit", "deposit", null, "F3opxRUwkBj1LqjZ7DyiHCRh9Z4zVPLaVjoxfD5ddbip8mt", "315464820", null],
      [11, "transactionPayment.TransactionFeePaid", "fee", TREASURY, null, "315464820", "0"],
    ]);
  });

  it("refuses a foreign location whose derived id another location already has", () => {
    const directory = new TokenDirectory(0);
    const location = "0x02010903"; // {parents:2, X1:[GlobalConsensus(Kusama)]}
    const id = locationToken(location, 0)!.id;
    directory.set(id, { kind: "foreign", key: "0x02010902", location: {} }); // pretend: another location, same id
    const issued: ChainEvent[] = [{ index: 2, section: "foreignAssets", method: "Issued", extrinsic: 1, data: { assetId: location, owner: TRADER, amount: "1" }, accounts: [TRADER] }];
    const changes = collectChanges(issued, { nativeTokenId: 0, pools: new Map(), tokens: directory });
    // Only the native balance of the account it names (every event's): nothing of the refused token.
    expect([...changes.balances.keys()]).toEqual([0]);
    expect(changes.skipped).toEqual([{ eventIndex: 2, event: "foreignAssets.Issued", reason: `location ${location} derives token id ${id}, which another location has: not indexed` }]);
  });
});

describe("transfer rows", () => {
  const raw = (tokenId: number | null, amount: string, lpTokenId: number | null = null): RawTransfer => ({ eventIndex: 3, extrinsic: 1, event: "assets.Transferred", kind: "transfer", tokenId, lpTokenId, from: TRADER, to: TREASURY, amount, tip: null });
  it("value each movement at its own block's price, exactly: amount ÷ 10^decimals × price; none without a price, none for an LP token", () => {
    const prices = { prices: new Map([[1984, parseFixed("1", USD_SCALE)], [0, parseFixed("25.5", USD_SCALE)], [7, parseFixed("0.000000000000000003", USD_SCALE)]]), decimals: new Map([[1984, 6], [0, 12], [7, 10], [9, 12]]) };
    const rows = transferRows([raw(1984, "1500000"), raw(0, "2500000000000"), raw(7, "30000000000"), raw(9, "1"), raw(null, "5", 42)], prices, { number: 77, timestamp: 1_700_000_000 });
    // By hand: 1.5 USDt at 1; 2.5 KSM at 25.5; 3 TEN at 3e-18 (9e-18, the scale's last digit); no price for 9; an LP token has none.
    expect(rows.map((r) => r.valueUsd)).toEqual(["1.5", "63.75", "0.000000000000000009", null, null]);
    expect(rows[0]).toMatchObject({ blockNumber: 77, eventIndex: 3, extrinsicIndex: 1, timestamp: 1_700_000_000, tokenId: 1984, amount: "1500000", kind: "transfer" });
  });
});
