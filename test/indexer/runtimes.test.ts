/**
 * The indexer's decoding on the runtimes Polkadot and Kusama Asset Hub run today, not the 2023
 * devnet: events encoded with the current metadata (test/support/runtimes.ts) go through the
 * indexer's own code — decodeEvents, collectChanges, swapRows, normaliseLpFee, ChainReader.
 */
import type { ApiPromise } from "@polkadot/api";
import { stringToU8a, u8aConcat } from "@polkadot/util";
import { blake2AsU8a, encodeAddress } from "@polkadot/util-crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { chainAnchors, KUSAMA_ASSET_HUB_GENESIS, POLKADOT_ASSET_HUB_GENESIS } from "../../indexer/anchors.js";
import { decodeEvents, type At } from "../../indexer/chain/events.js";
import { FOREIGN_MIN, poolKey } from "../../indexer/chain/locations.js";
import { ChainReader } from "../../indexer/chain/reader.js";
import { normaliseLpFee } from "../../indexer/chain/runtime.js";
import { swapRows, type Valuation } from "../../indexer/swaps.js";
import { transferRows } from "../../indexer/transfers.js";
import type { PoolRef } from "../../indexer/chain/reader.js";
import { collectChanges } from "../../indexer/touched.js";
import { parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { currentRuntime, eventRecord, LOCATIONS, type Runtime } from "../support/runtimes.js";

const ALICE = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const BOB = "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48";
const POOL = "0x0101010101010101010101010101010101010101010101010101010101010101";
const POOL2 = "0x0202020202020202020202020202020202020202020202020202020202020202";
/** Public LP-token owners of live pools (docs/chains.md, "Pool accounts": from the kheopswap directory). */
const PAH_DOT_USDT_POOL = "12dvmstTqsjrPrPdouMpbsgaaQjPGYFh7gMaiNgZ7Rzaacok";
const KAH_KSM_USDT_POOL = "GYX5QBG1ymcRfnrkscpRYnSueiHCk8ZZPnJ7fEwzUycc3gY";

const ss58 = (rt: Runtime, hex: string) => encodeAddress(hex, rt.ss58);

/** The foreign token id of a location, computed here from its bytes, not by the indexer. */
function expectedForeignId(rt: Runtime, location: unknown): number {
  const bytes = rt.registry.createType("StagingXcmV5Location", location).toU8a();
  const hash = blake2AsU8a(bytes, 256);
  let u64 = 0n;
  for (let i = 7; i >= 0; i--) u64 = (u64 << 8n) | BigInt(hash[i]!);
  return Number(BigInt(FOREIGN_MIN) + (u64 % (BigInt(Number.MAX_SAFE_INTEGER) - BigInt(FOREIGN_MIN) + 1n)));
}

function poolRef(rt: Runtime, token1Id: number, account: string, lpTokenId = 0): PoolRef {
  return { token0Id: 0, token1Id, lpTokenId, account: ss58(rt, account) };
}

function valuation(rt: Runtime, prices: Record<number, string>, decimals: Record<number, number>): Valuation {
  return {
    prices: new Map(Object.entries(prices).map(([id, p]) => [Number(id), parseFixed(p, USD_SCALE)])),
    decimals: new Map(Object.entries(decimals).map(([id, d]) => [Number(id), d])),
    lpFeePpm: normaliseLpFee(rt.consts.assetConversion!.lpFee!),
  };
}

describe("decoding on today's runtimes", () => {
  let pah: Runtime;
  let kah: Runtime;

  beforeAll(async () => {
    [pah, kah] = await Promise.all([currentRuntime("asset-hub-polkadot", { holdEvents: true }), currentRuntime("asset-hub-kusama", { holdEvents: true })]);
    expect([pah.specName, pah.specVersion, kah.specName, kah.specVersion]).toEqual(["statemint", 2_000_000, "statemine", 1_009_003]);
  });

  it("a swap on Polkadot AH takes its amounts from the (Location, u128) path", () => {
    const records = [
      eventRecord(pah, "assetConversion", "SwapExecuted", {
        who: ALICE,
        sendTo: BOB,
        amountIn: 100_000_000_000n,
        amountOut: 49_850_000n,
        path: [
          [LOCATIONS.native, 100_000_000_000n],
          [LOCATIONS.asset(1984), 49_850_000n],
        ],
      }),
    ];
    const pools = new Map([["0/1984", poolRef(pah, 1984, POOL)]]);
    const changes = collectChanges(decodeEvents(records, pah.ss58), { nativeTokenId: 0, pools });
    expect(changes.skipped).toEqual([]);
    expect([...changes.pools]).toEqual(["0/1984"]);
    const { rows, skipped } = swapRows(changes.swaps, pools, valuation(pah, { 0: "5", 1984: "1" }, { 0: 10, 1984: 6 }), { number: 7, timestamp: 1 });
    expect(skipped).toEqual([]);
    // The trades list's extrinsic position and hop count, from today's event record.
    expect(rows[0]).toMatchObject({ extrinsicIndex: 1, hops: 1, hop: 0 });
    // 10 DOT at 5 USD; the fee is 0.3 % of the amount in (LPFee u32 3 = 3000 ppm).
    expect(rows).toEqual([
      expect.objectContaining({ hop: 0, tokenIn: 0, tokenOut: 1984, amountIn: "100000000000", amountOut: "49850000", fee: "300000000", volumeUsd: "50", feeUsd: "0.15", account: ss58(pah, ALICE) }),
    ]);
  });

  it("a multi-hop swap through a foreign asset on Kusama AH is a row per pool, each with its own amounts", () => {
    const pusdc = expectedForeignId(kah, LOCATIONS.polkadotUsdc);
    const records = [
      eventRecord(kah, "assetConversion", "SwapExecuted", {
        who: ALICE,
        sendTo: ALICE,
        amountIn: 200_000_000n,
        amountOut: 198_800_000n,
        path: [
          [LOCATIONS.asset(1984), 200_000_000n],
          [LOCATIONS.native, 7_960_000_000_000n],
          [LOCATIONS.polkadotUsdc, 198_800_000n],
        ],
      }),
    ];
    const pools = new Map([
      ["0/1984", poolRef(kah, 1984, POOL, 0)],
      [poolKey(0, pusdc), poolRef(kah, pusdc, POOL2, 5)],
    ]);
    const changes = collectChanges(decodeEvents(records, kah.ss58), { nativeTokenId: 0, pools });
    expect(changes.skipped).toEqual([]);
    expect(changes.named.get(pusdc)).toMatchObject({ kind: "foreign", location: { parents: 2, interior: { x4: [{ globalConsensus: { polkadot: null } }, { parachain: 1000 }, { palletInstance: 50 }, { generalIndex: 1337 }] } } });
    const { rows } = swapRows(changes.swaps, pools, valuation(kah, { 0: "25", 1984: "1", [pusdc]: "1" }, { 0: 12, 1984: 6, [pusdc]: 6 }), { number: 7, timestamp: 1 });
    expect(rows.map((r) => [r.hop, r.token0Id, r.token1Id, r.tokenIn, r.tokenOut, r.amountIn, r.amountOut, r.fee, r.volumeUsd])).toEqual([
      [0, 0, 1984, 1984, 0, "200000000", "7960000000000", "600000", "200"],
      [1, 0, pusdc, 0, pusdc, "7960000000000", "198800000", "23880000000", "199"],
    ]);
  });

  it("SwapCreditExecuted (a fee paid in an asset, an XCM exchange) is a swap with no account", () => {
    const records = [eventRecord(kah, "assetConversion", "SwapCreditExecuted", { amountIn: 1_000_000n, amountOut: 39_000_000_000n, path: [[LOCATIONS.asset(1984), 1_000_000n], [LOCATIONS.native, 39_000_000_000n]] })];
    const pools = new Map([["0/1984", poolRef(kah, 1984, POOL)]]);
    const changes = collectChanges(decodeEvents(records, kah.ss58), { nativeTokenId: 0, pools });
    const { rows } = swapRows(changes.swaps, pools, valuation(kah, { 0: "25", 1984: "1" }, { 0: 12, 1984: 6 }), { number: 7, timestamp: 1 });
    expect(rows).toEqual([expect.objectContaining({ tokenIn: 1984, tokenOut: 0, amountIn: "1000000", amountOut: "39000000000", account: null, volumeUsd: "1" })]);
  });

  it("every AccountId32 field is read again, whatever it is called: TransferOnHold, TransferAndHold, approvals, touches", () => {
    const CHARLIE = `0x${"03".repeat(32)}`;
    const reason = { Revive: "StorageDepositReserve" };
    const records = [
      eventRecord(kah, "balances", "TransferOnHold", { reason, source: ALICE, dest: BOB, amount: 5n }),
      eventRecord(kah, "balances", "TransferAndHold", { reason, source: BOB, dest: CHARLIE, transferred: 5n }),
      eventRecord(kah, "assets", "TransferredApproved", { assetId: 1984, owner: ALICE, delegate: BOB, destination: CHARLIE, amount: 1n }),
      eventRecord(kah, "foreignAssets", "Touched", { assetId: LOCATIONS.polkadotUsdc, who: CHARLIE, depositor: BOB }),
    ];
    const events = decodeEvents(records, kah.ss58);
    expect(events.map((e) => e.accounts.length)).toEqual([2, 2, 3, 2]);
    const changes = collectChanges(events, { nativeTokenId: 0, pools: new Map() });
    const sorted = (s: Set<string> | undefined) => [...(s ?? [])].sort();
    expect(sorted(changes.balances.get(0))).toEqual([ALICE, BOB, CHARLIE].map((a) => ss58(kah, a)).sort());
    expect(sorted(changes.balances.get(1984))).toEqual([ALICE, BOB, CHARLIE].map((a) => ss58(kah, a)).sort());
    expect(sorted(changes.balances.get(expectedForeignId(kah, LOCATIONS.polkadotUsdc)))).toEqual([BOB, CHARLIE].map((a) => ss58(kah, a)).sort());
    expect(changes.tokens.has(0)).toBe(true); // total issuance re-read
  });

  /*
   * Every balance-movement event kind the indexer turns into a transfer row (MOVEMENTS in
   * indexer/movements.ts: 10 of `balances`, 6 of pallet-assets under Assets, ForeignAssets and
   * PoolAssets) and both fee events, all from today's metadata, not from the devnet: the devnet's
   * runtime (statemine 1,000,000, 2023) has no Assets/ForeignAssets `Deposited`/`Withdrawn`
   * (pallet-assets gained them later), no `balances.TransferOnHold`/`TransferAndHold` (fellows
   * 2.3), and no call that emits `balances.Minted`, `Burned`, `Slashed` or `ReserveRepatriated`
   * on an Asset Hub. What the devnet's seeded market does emit (native transfers and fees in
   * KSM, asset mints and transfers, LP tokens) is held to the chain's own events block by block
   * in backfill-all.test.ts and upgrade.test.ts (chainTransfers); a new devnet chain for the
   * rest would cost CI ≥ 25 s for kinds its runtime cannot all emit. This test holds every kind
   * to values worked out by hand, through the indexer's own derivation: decodeEvents →
   * collectChanges → transferRows.
   */
  it("every balance movement of today's events is one transfer row, as the event states it, with its USD value: each of the 16 kinds, fees in KSM and in an asset, XCM deposits and withdrawals", () => {
    const CHARLIE = `0x${"03".repeat(32)}`;
    const reason = { Revive: "StorageDepositReserve" };
    const usdc = expectedForeignId(kah, LOCATIONS.polkadotUsdc);
    const KSM = 10n ** 12n;
    const USD = 10n ** 6n;
    /** An event outside any extrinsic: XCM messages are executed by the message queue in on_initialize. */
    const xcm = (section: string, method: string, fields: Record<string, unknown>) => ({ ...eventRecord(kah, section, method, fields), phase: kah.registry.createType("Phase", "Initialization") }) as ReturnType<typeof eventRecord>;
    const records = [
      // Extrinsic 1: native movements of every kind (no fee event in it: nothing is folded).
      eventRecord(kah, "balances", "Transfer", { from: ALICE, to: BOB, amount: 7n * KSM }, 1), // 0
      eventRecord(kah, "balances", "TransferOnHold", { reason, source: ALICE, dest: BOB, amount: 5n * KSM }, 1), // 1
      eventRecord(kah, "balances", "TransferAndHold", { reason, source: BOB, dest: CHARLIE, transferred: 6n * KSM }, 1), // 2
      eventRecord(kah, "balances", "Endowed", { account: CHARLIE, freeBalance: 6n * KSM }, 1), // 3: not a second movement
      eventRecord(kah, "balances", "ReserveRepatriated", { from: BOB, to: CHARLIE, amount: 4n * KSM, destinationStatus: "Free" }, 1), // 4
      eventRecord(kah, "balances", "Minted", { who: CHARLIE, amount: 12n * KSM }, 1), // 5
      eventRecord(kah, "balances", "Burned", { who: ALICE, amount: 13n * KSM }, 1), // 6
      eventRecord(kah, "balances", "Slashed", { who: ALICE, amount: 2n * KSM }, 1), // 7
      eventRecord(kah, "balances", "DustLost", { account: BOB, amount: 3n }, 1), // 8
      eventRecord(kah, "balances", "Withdraw", { who: ALICE, amount: 11n * KSM }, 1), // 9: no fee event in this extrinsic: a withdrawal
      eventRecord(kah, "balances", "Deposit", { who: BOB, amount: 1n * KSM }, 1), // 10: nor a refund
      // Extrinsic 2: asset movements.
      eventRecord(kah, "assets", "Transferred", { assetId: 1984, from: ALICE, to: BOB, amount: 20n * USD }, 2), // 11
      eventRecord(kah, "assets", "TransferredApproved", { assetId: 1984, owner: ALICE, delegate: BOB, destination: CHARLIE, amount: 1n * USD }, 2), // 12
      eventRecord(kah, "assets", "Issued", { assetId: 1984, owner: BOB, amount: 2n ** 100n }, 2), // 13
      eventRecord(kah, "assets", "Burned", { assetId: 1984, owner: CHARLIE, balance: 3n * USD }, 2), // 14
      // Extrinsic 3: Bob pays its fee in USDt (asset conversion): 50 withdrawn before the call, 10 refunded after it.
      eventRecord(kah, "assets", "Withdrawn", { assetId: 1984, who: BOB, amount: 50n }, 3), // 15: folded into the fee
      eventRecord(kah, "assets", "Transferred", { assetId: 1984, from: BOB, to: ALICE, amount: 1n * USD }, 3), // 16
      eventRecord(kah, "assets", "Deposited", { assetId: 1984, who: BOB, amount: 10n }, 3), // 17: folded into the fee
      eventRecord(kah, "assetTxPayment", "AssetTxFeePaid", { who: BOB, actualFee: 40n, tip: 2n, assetId: LOCATIONS.asset(1984) }, 3), // 18
      // Extrinsic 4: Alice pays in KSM: 100 withdrawn, 30 refunded, 70 the fee.
      eventRecord(kah, "balances", "Withdraw", { who: ALICE, amount: 100n }, 4), // 19: folded
      eventRecord(kah, "balances", "Deposit", { who: ALICE, amount: 30n }, 4), // 20: folded
      eventRecord(kah, "transactionPayment", "TransactionFeePaid", { who: ALICE, actualFee: 70n, tip: 5n }, 4), // 21
      // XCM, outside any extrinsic: deposits and withdrawals of a local and a foreign asset stand as they are.
      xcm("assets", "Deposited", { assetId: 1984, who: CHARLIE, amount: 30n * USD }), // 22
      xcm("assets", "Withdrawn", { assetId: 1984, who: ALICE, amount: 2n * USD }), // 23
      xcm("foreignAssets", "Deposited", { assetId: LOCATIONS.polkadotUsdc, who: CHARLIE, amount: 4n * USD }), // 24
      xcm("foreignAssets", "Withdrawn", { assetId: LOCATIONS.polkadotUsdc, who: CHARLIE, amount: 1n * USD }), // 25
      xcm("foreignAssets", "Transferred", { assetId: LOCATIONS.polkadotUsdc, from: CHARLIE, to: ALICE, amount: 500_000n }), // 26
      xcm("foreignAssets", "Burned", { assetId: LOCATIONS.polkadotUsdc, owner: ALICE, balance: 3n }), // 27
      // LP tokens: rows of their own id space, no USD value.
      eventRecord(kah, "poolAssets", "Issued", { assetId: 7, owner: ALICE, amount: 14n }, 5), // 28
      eventRecord(kah, "poolAssets", "Transferred", { assetId: 7, from: ALICE, to: BOB, amount: 9n }, 5), // 29
      eventRecord(kah, "poolAssets", "Burned", { assetId: 7, owner: BOB, balance: 1n }, 5), // 30
    ];
    const changes = collectChanges(decodeEvents(records, kah.ss58), { nativeTokenId: 0, pools: new Map() });
    expect(changes.skipped).toEqual([]);
    const prices = { prices: new Map([[0, parseFixed("25", USD_SCALE)], [1984, parseFixed("1", USD_SCALE)], [usdc, parseFixed("1", USD_SCALE)]]), decimals: new Map([[0, 12], [1984, 6], [usdc, 6]]) };
    const rows = transferRows(changes.transfers, prices, { number: 9, timestamp: 1_700_000_000 });
    const [a, b, c] = [ALICE, BOB, CHARLIE].map((x) => ss58(kah, x));
    const row = (eventIndex: number, extrinsicIndex: number | null, event: string, kind: string, tokenId: number | null, fromAccount: string | null, toAccount: string | null, amount: string, valueUsd: string | null, tip: string | null = null, lpTokenId: number | null = null) => ({ blockNumber: 9, timestamp: 1_700_000_000, eventIndex, extrinsicIndex, event, kind, tokenId, lpTokenId, fromAccount, toAccount, amount, valueUsd, tip });
    expect(rows).toEqual([
      // 7 KSM at 25 USD = 175 USD; 3 planck of dust = 75·10⁻¹² USD.
      row(0, 1, "balances.Transfer", "transfer", 0, a!, b!, "7000000000000", "175"),
      row(1, 1, "balances.TransferOnHold", "transfer", 0, a!, b!, "5000000000000", "125"),
      row(2, 1, "balances.TransferAndHold", "transfer", 0, b!, c!, "6000000000000", "150"),
      row(4, 1, "balances.ReserveRepatriated", "transfer", 0, b!, c!, "4000000000000", "100"),
      row(5, 1, "balances.Minted", "mint", 0, null, c!, "12000000000000", "300"),
      row(6, 1, "balances.Burned", "burn", 0, a!, null, "13000000000000", "325"),
      row(7, 1, "balances.Slashed", "slash", 0, a!, null, "2000000000000", "50"),
      row(8, 1, "balances.DustLost", "dust", 0, b!, null, "3", "0.000000000075"),
      row(9, 1, "balances.Withdraw", "withdraw", 0, a!, null, "11000000000000", "275"),
      row(10, 1, "balances.Deposit", "deposit", 0, null, b!, "1000000000000", "25"),
      row(11, 2, "assets.Transferred", "transfer", 1984, a!, b!, "20000000", "20"),
      row(12, 2, "assets.TransferredApproved", "transfer", 1984, a!, c!, "1000000", "1"),
      row(13, 2, "assets.Issued", "mint", 1984, null, b!, (2n ** 100n).toString(), "1267650600228229401496703.205376"),
      row(14, 2, "assets.Burned", "burn", 1984, c!, null, "3000000", "3"),
      row(16, 3, "assets.Transferred", "transfer", 1984, b!, a!, "1000000", "1"),
      row(18, 3, "assetTxPayment.AssetTxFeePaid", "fee", 1984, b!, null, "40", "0.00004", "2"),
      row(21, 4, "transactionPayment.TransactionFeePaid", "fee", 0, a!, null, "70", "0.00000000175", "5"),
      row(22, null, "assets.Deposited", "deposit", 1984, null, c!, "30000000", "30"),
      row(23, null, "assets.Withdrawn", "withdraw", 1984, a!, null, "2000000", "2"),
      row(24, null, "foreignAssets.Deposited", "deposit", usdc, null, c!, "4000000", "4"),
      row(25, null, "foreignAssets.Withdrawn", "withdraw", usdc, c!, null, "1000000", "1"),
      row(26, null, "foreignAssets.Transferred", "transfer", usdc, c!, a!, "500000", "0.5"),
      row(27, null, "foreignAssets.Burned", "burn", usdc, a!, null, "3", "0.000003"),
      row(28, 5, "poolAssets.Issued", "mint", null, null, a!, "14", null, null, 7),
      row(29, 5, "poolAssets.Transferred", "transfer", null, a!, b!, "9", null, null, 7),
      row(30, 5, "poolAssets.Burned", "burn", null, b!, null, "1", null, null, 7),
    ]);
    // Each of the 16 kinds, and both fee events, made a row above.
    const kinds = new Set(rows.map((r) => (r.event.startsWith("balances.") ? r.event : `fungibles.${r.event.split(".")[1]}`)));
    expect([...kinds].filter((k) => !k.includes("FeePaid")).sort()).toEqual(
      [...["Transfer", "ReserveRepatriated", "TransferOnHold", "TransferAndHold", "Minted", "Burned", "Deposit", "Withdraw", "Slashed", "DustLost"].map((m) => `balances.${m}`), ...["Transferred", "TransferredApproved", "Issued", "Burned", "Deposited", "Withdrawn"].map((m) => `fungibles.${m}`)].sort(),
    );
  });

  it("every event of today's Balances and pallet-assets that names an account and an amount is a transfer row or is known not to be one", () => {
    // Not rows: Endowed comes with the Transfer/Deposit that endowed; BalanceSet is root setting a
    // balance (read again, nothing moved between accounts); reserves, locks, freezes and holds move
    // nothing out of an account; an approval moves nothing yet; Suspended/Restored (fungible
    // shelve/restore) are read again as touched accounts but are not rows today.
    const notRows = new Set(["balances.Endowed", "balances.BalanceSet", "balances.Reserved", "balances.Unreserved", "balances.Locked", "balances.Unlocked", "balances.Frozen", "balances.Thawed", "balances.Suspended", "balances.Restored", "fungibles.ApprovedTransfer"]);
    const rows = new Set([
      ...["Transfer", "ReserveRepatriated", "TransferOnHold", "TransferAndHold", "Minted", "Burned", "Deposit", "Withdraw", "Slashed", "DustLost"].map((m) => `balances.${m}`),
      ...["Transferred", "TransferredApproved", "Issued", "Burned", "Deposited", "Withdrawn"].map((m) => `fungibles.${m}`),
    ]);
    for (const rt of [pah, kah]) {
      const found = new Set<string>();
      for (const p of rt.metadata.asLatest.pallets) {
        const name = p.name.toString();
        if (!["Balances", "Assets", "ForeignAssets", "PoolAssets"].includes(name) || p.events.isNone) continue;
        for (const v of rt.registry.lookup.getSiType(p.events.unwrap().type).def.asVariant.variants) {
          const types = v.fields.map((f) => f.typeName.toString());
          if (types.includes("T::AccountId") && types.includes("T::Balance")) found.add(`${name === "Balances" ? "balances" : "fungibles"}.${v.name.toString()}`);
        }
      }
      expect([...found].filter((k) => !rows.has(k) && !notRows.has(k)), rt.specName).toEqual([]);
      expect([...rows].filter((k) => !found.has(k)), rt.specName).toEqual([]);
    }
  });

  it("fees are fee rows with their tip, in place of the withdrawal and refund that paid them; dust and slashes have kinds of their own", () => {
    const [a, b, pot] = [ALICE, BOB, POOL2].map((x) => ss58(kah, x));
    const records = [
      // Alice pays in KSM: 100 withdrawn before the call, 30 refunded after it, 70 to the pot.
      eventRecord(kah, "balances", "Withdraw", { who: ALICE, amount: 100n }, 1),
      eventRecord(kah, "balances", "Transfer", { from: ALICE, to: BOB, amount: 7n }, 1),
      eventRecord(kah, "balances", "Deposit", { who: ALICE, amount: 30n }, 1),
      eventRecord(kah, "balances", "Deposit", { who: POOL2, amount: 70n }, 1),
      eventRecord(kah, "transactionPayment", "TransactionFeePaid", { who: ALICE, actualFee: 70n, tip: 5n }, 1),
      // Bob pays in USDt through asset conversion: 50 withdrawn, 10 refunded; the tip is in KSM.
      eventRecord(kah, "assets", "Withdrawn", { assetId: 1984, who: BOB, amount: 50n }, 2),
      eventRecord(kah, "assets", "Deposited", { assetId: 1984, who: BOB, amount: 10n }, 2),
      eventRecord(kah, "assetTxPayment", "AssetTxFeePaid", { who: BOB, actualFee: 40n, tip: 2n, assetId: LOCATIONS.asset(1984) }, 2),
      // Bob's call removed his account, so nothing was refunded: 90 left for a fee of 60.
      eventRecord(kah, "balances", "Withdraw", { who: BOB, amount: 90n }, 3),
      eventRecord(kah, "balances", "Transfer", { from: BOB, to: ALICE, amount: 1000n }, 3),
      eventRecord(kah, "balances", "DustLost", { account: BOB, amount: 3n }, 3),
      eventRecord(kah, "transactionPayment", "TransactionFeePaid", { who: BOB, actualFee: 60n, tip: 0n }, 3),
      eventRecord(kah, "balances", "Slashed", { who: ALICE, amount: 4n }, 4),
    ];
    const changes = collectChanges(decodeEvents(records, kah.ss58), { nativeTokenId: 0, pools: new Map() });
    expect(changes.skipped).toEqual([]);
    expect(changes.transfers.map((t) => [t.eventIndex, t.event, t.kind, t.tokenId, t.from, t.to, t.amount, t.tip])).toEqual([
      [1, "balances.Transfer", "transfer", 0, a, b, "7", null],
      [3, "balances.Deposit", "deposit", 0, null, pot, "70", null],
      [4, "transactionPayment.TransactionFeePaid", "fee", 0, a, null, "70", "5"],
      [7, "assetTxPayment.AssetTxFeePaid", "fee", 1984, b, null, "40", "2"],
      [9, "balances.Transfer", "transfer", 0, b, a, "1000", null],
      [10, "balances.DustLost", "dust", 0, b, null, "3", null],
      [11, "transactionPayment.TransactionFeePaid", "fee", 0, b, null, "90", "0"],
      [12, "balances.Slashed", "slash", 0, a, null, "4", null],
    ]);
    // What left each account still adds up: Alice 7 + 100 − 30, Bob's USDt 50 − 10.
    const out = (who: string, token: number) => changes.transfers.filter((t) => t.tokenId === token && t.from === who).reduce((s, t) => s + BigInt(t.amount), 0n);
    expect([out(a!, 0) - 4n, out(b!, 1984)]).toEqual([77n, 40n]);
  });

  it("a foreign asset is a token with a stable id above 2^32: Snowbridge USDC, issued and destroyed", () => {
    const id = expectedForeignId(pah, LOCATIONS.snowbridgeUsdc);
    // The same number in every deployment: anchors, stored rows and URLs rely on it.
    expect(id).toBe(6_044_162_399_878_595);
    expect(chainAnchors({ genesisHash: POLKADOT_ASSET_HUB_GENESIS, specName: "statemint" }, 0).ids).toContain(id);
    const records = [
      eventRecord(pah, "foreignAssets", "Issued", { assetId: LOCATIONS.snowbridgeUsdc, owner: BOB, amount: 10n }),
      eventRecord(pah, "foreignAssets", "Destroyed", { assetId: LOCATIONS.snowbridgeUsdc }),
    ];
    const changes = collectChanges(decodeEvents(records, pah.ss58), { nativeTokenId: 0, pools: new Map() });
    expect(changes.skipped).toEqual([]);
    expect([...changes.tokens]).toEqual([id]);
    expect([...changes.destroyed]).toEqual([id]);
    expect([...changes.balances.get(id)!]).toEqual([ss58(pah, BOB)]);
    expect(changes.named.get(id)).toEqual({
      kind: "foreign",
      key: pah.registry.createType("StagingXcmV5Location", LOCATIONS.snowbridgeUsdc).toHex(),
      location: { parents: 2, interior: { x2: [{ globalConsensus: { ethereum: { chainId: 1 } } }, { accountKey20: { network: null, key: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" } }] } },
    });
  });

  it("asset 0 on Kusama AH (DOG) is served as 2^32, apart from the native token", () => {
    const records = [eventRecord(kah, "assets", "Transferred", { assetId: 0, from: ALICE, to: BOB, amount: 1n })];
    const changes = collectChanges(decodeEvents(records, kah.ss58), { nativeTokenId: 0, pools: new Map() });
    expect([...changes.tokens]).toEqual([2 ** 32]);
    // The asset's balances are read under 2^32; under 0 only the native balances of the accounts
    // the event names (every event's, for holds that announce nothing).
    expect([...changes.balances.get(2 ** 32)!].sort()).toEqual([ss58(kah, ALICE), ss58(kah, BOB)].sort());
    expect(changes.transfers.map((t) => t.tokenId)).toEqual([2 ** 32]);
    expect(changes.named.get(2 ** 32)).toEqual({ kind: "asset", assetId: 0 });
  });

  it("PoolCreated, liquidity and fees paid in an asset decode on both hubs", () => {
    for (const rt of [pah, kah]) {
      const poolId = [LOCATIONS.native, LOCATIONS.asset(1984)];
      const records = [
        eventRecord(rt, "assetConversion", "PoolCreated", { creator: ALICE, poolId, poolAccount: POOL, lpToken: 7 }),
        eventRecord(rt, "assetConversion", "LiquidityAdded", { who: ALICE, mintTo: ALICE, poolId, amount1Provided: 10n, amount2Provided: 20n, lpToken: 7, lpTokenMinted: 14n }),
        eventRecord(rt, "assetConversion", "LiquidityRemoved", { who: ALICE, withdrawTo: BOB, poolId, amount1: 1n, amount2: 2n, lpToken: 7, lpTokenBurned: 1n, withdrawalFee: 0 }),
        eventRecord(rt, "assetTxPayment", "AssetTxFeePaid", { who: BOB, actualFee: 3n, tip: 0n, assetId: LOCATIONS.asset(1984) }),
        // LP positions: the accounts PoolAssets events name are the LP balances to read again.
        eventRecord(rt, "poolAssets", "Issued", { assetId: 7, owner: ALICE, amount: 14n }),
        eventRecord(rt, "poolAssets", "Transferred", { assetId: 7, from: ALICE, to: BOB, amount: 2n }),
        eventRecord(rt, "poolAssets", "Burned", { assetId: 7, owner: ALICE, balance: 1n }),
      ];
      const pools = new Map<string, PoolRef>();
      const changes = collectChanges(decodeEvents(records, rt.ss58), { nativeTokenId: 0, pools });
      expect(changes.skipped, rt.specName).toEqual([]);
      expect(changes.createdPools).toEqual([{ token0Id: 0, token1Id: 1984, lpTokenId: 7, account: ss58(rt, POOL) }]);
      expect(changes.liquidity.map((l) => [l.kind, l.pool, l.amount0, l.amount1, l.lpAmount])).toEqual([
        ["add", "0/1984", "10", "20", "14"],
        ["remove", "0/1984", "1", "2", "1"],
      ]);
      expect(changes.balances.get(1984)?.has(ss58(rt, BOB))).toBe(true);
      expect([...(changes.lpBalances.get(7) ?? [])].sort()).toEqual([ss58(rt, ALICE), ss58(rt, BOB)].sort());
    }
  });
});

describe("LP fee units across runtime versions", () => {
  it("u32 per mille (up to fellows 2.2) and Permill (from 2.3) both read as 3000 ppm, and give the same fee", async () => {
    const [perMille, permill] = await Promise.all([currentRuntime("asset-hub-polkadot"), currentRuntime("asset-hub-polkadot", { permillLpFee: true })]);
    const before = perMille.consts.assetConversion!.lpFee!;
    const after = permill.consts.assetConversion!.lpFee!;
    expect([before.toRawType(), before.toString(), after.toRawType(), after.toString()]).toEqual(["u32", "3", "Permill", "3000"]);
    expect(normaliseLpFee(before)).toBe(3_000n);
    expect(normaliseLpFee(after)).toBe(3_000n);
    const swap = [eventRecord(perMille, "assetConversion", "SwapExecuted", { who: ALICE, sendTo: ALICE, amountIn: 1_000_000n, amountOut: 1n, path: [[LOCATIONS.asset(1984), 1_000_000n], [LOCATIONS.native, 1n]] })];
    const pools = new Map([["0/1984", poolRef(perMille, 1984, POOL)]]);
    const fees = [perMille, permill].map((rt) => {
      const changes = collectChanges(decodeEvents(swap, rt.ss58), { nativeTokenId: 0, pools });
      return swapRows(changes.swaps, pools, valuation(rt, { 1984: "1" }, { 0: 10, 1984: 6 }), { number: 1, timestamp: 1 }).rows[0]!.fee;
    });
    expect(fees).toEqual(["3000", "3000"]);
    // A constant of a type no runtime has had: its block's swaps are skipped with the reason, not guessed.
    const changes = collectChanges(decodeEvents(swap, perMille.ss58), { nativeTokenId: 0, pools });
    const unknown = swapRows(changes.swaps, pools, { ...valuation(perMille, { 1984: "1" }, { 0: 10, 1984: 6 }), feeUnknown: "assetConversion.LPFee has type u64" }, { number: 1, timestamp: 1 });
    expect(unknown).toEqual({ rows: [], skipped: [{ eventIndex: 0, event: "assetConversion.SwapExecuted", reason: "LP fee unknown: assetConversion.LPFee has type u64" }] });
    expect(() => normaliseLpFee(perMille.registry.createType("u64", 3))).toThrow(/known are u32/);
  });
});

describe("pool accounts come from the chain", () => {
  /** A ChainReader over storage values built with the runtime's own types, at no node. */
  function readerOver(rt: Runtime, poolId: unknown, lpOwner: string | undefined) {
    const lookup = (pallet: string, item: string) => {
      const p = rt.metadata.asLatest.pallets.find((x) => x.name.toString() === pallet)!;
      const map = p.storage.unwrap().items.find((i) => i.name.toString() === item)!.type.asMap;
      return { key: rt.registry.createLookupType(map.key), value: rt.registry.createLookupType(map.value) };
    };
    const pools = lookup("AssetConversion", "Pools");
    const assets = lookup("PoolAssets", "Asset");
    const key = rt.registry.createType(pools.key, poolId);
    const at = {
      query: {
        assetConversion: { pools: { entries: async () => [[{ args: [key], toHex: () => key.toHex() }, rt.registry.createType(`Option<${pools.value}>`, { lpToken: 3 })]] } },
        poolAssets: {
          asset: {
            multi: async (ids: number[]) =>
              ids.map(() =>
                rt.registry.createType(`Option<${assets.value}>`, lpOwner === undefined ? null : { owner: lpOwner, issuer: lpOwner, admin: lpOwner, freezer: lpOwner, supply: 100, status: "Live" }),
              ),
          },
        },
      },
    } as unknown as At;
    const api = { registry: rt.registry, genesisHash: { toHex: () => "0x00" }, runtimeVersion: { specName: { toString: () => rt.specName } } } as unknown as ApiPromise;
    return { reader: new ChainReader(api, 0), at, poolIdBytes: key.toU8a() };
  }

  it("is the LP token's owner: seeded with py/ascon on Polkadot AH, unseeded on Kusama AH, as computed independently", async () => {
    const pah = await currentRuntime("asset-hub-polkadot");
    const kah = await currentRuntime("asset-hub-kusama");
    const poolId = [LOCATIONS.native, LOCATIONS.asset(1984)];
    const seeded = readerOver(pah, poolId, PAH_DOT_USDT_POOL);
    const unseeded = readerOver(kah, poolId, KAH_KSM_USDT_POOL);
    // Independently: blake2_256 of the SCALE pool id, with the pallet id "py/ascon" before it on Polkadot AH.
    expect(encodeAddress(blake2AsU8a(u8aConcat(stringToU8a("py/ascon"), seeded.poolIdBytes), 256), 0)).toBe(PAH_DOT_USDT_POOL);
    expect(encodeAddress(blake2AsU8a(unseeded.poolIdBytes, 256), 2)).toBe(KAH_KSM_USDT_POOL);
    expect(encodeAddress(blake2AsU8a(seeded.poolIdBytes, 256), 0)).not.toBe(PAH_DOT_USDT_POOL); // the formula of one hub is wrong on the other
    expect(await seeded.reader.allPools(seeded.at)).toEqual({ pools: [{ token0Id: 0, token1Id: 1984, lpTokenId: 3, account: PAH_DOT_USDT_POOL }], unusable: [] });
    expect(await unseeded.reader.allPools(unseeded.at)).toEqual({ pools: [{ token0Id: 0, token1Id: 1984, lpTokenId: 3, account: KAH_KSM_USDT_POOL }], unusable: [] });
  });

  it("a pool whose LP token is missing is reported, not guessed", async () => {
    const pah = await currentRuntime("asset-hub-polkadot");
    const { reader, at } = readerOver(pah, [LOCATIONS.native, LOCATIONS.ksm], undefined);
    const { pools, unusable } = await reader.allPools(at);
    expect(pools).toEqual([]);
    expect(unusable).toEqual([{ pool: `0/${expectedForeignId(pah, LOCATIONS.ksm)}`, reason: "LP token 3 does not exist, so the pool account is unknown" }]);
  });
});

describe("USD anchors per chain", () => {
  it("are chosen by genesis hash, or by spec name on a devnet", () => {
    const polkadot = chainAnchors({ genesisHash: POLKADOT_ASSET_HUB_GENESIS, specName: "statemint" }, 0);
    expect(polkadot.names).toEqual(["USDt (asset 1984)", "USDC (asset 1337)", "USDC (Snowbridge)", "USDT (Snowbridge)"]);
    expect(polkadot.ids.slice(0, 2)).toEqual([1984, 1337]);
    const kusama = chainAnchors({ genesisHash: KUSAMA_ASSET_HUB_GENESIS, specName: "statemine" }, 0);
    expect(kusama.names).toContain("USDC (Polkadot Asset Hub)");
    // A chopsticks devnet reports a placeholder genesis hash: the spec name decides.
    expect(chainAnchors({ genesisHash: `0x${"45".repeat(32)}`, specName: "statemine" }, 0).ids).toEqual(kusama.ids);
    expect(chainAnchors({ genesisHash: "0x01", specName: "something" }, 0)).toMatchObject({ ids: [1984] });
  });
});
