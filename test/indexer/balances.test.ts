/**
 * The parts of a balance (indexer/chain/balances.ts) from storage values encoded by the real
 * runtimes' own types: today's Polkadot AH (statemint 2,000,000), the devnet's statemine
 * 1,000,000 ({free, reserved, frozen, flags}; AssetAccount.status) and Rococo Asset Hub statemine
 * 900 ({free, reserved, miscFrozen, feeFrozen}; AssetAccount.isFrozen). The expected figures are
 * worked out by hand from the pallet's rule, not by the code under test.
 */
import type { ApiPromise } from "@polkadot/api";
import type { TypeRegistry } from "@polkadot/types";
import type { Codec } from "@polkadot/types/types";
import { encodeAddress } from "@polkadot/util-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetParts, BalanceLayoutError, nativeParts } from "../../indexer/chain/balances.js";
import type { At } from "../../indexer/chain/events.js";
import { ChainReader } from "../../indexer/chain/reader.js";
import { currentRuntime } from "../support/runtimes.js";
import { closeDevnetRuntimes, devnetRuntime, storageValueType, type WasmRuntime } from "../support/wasm-runtimes.js";

const ALICE = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const BOB = "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48";
const U128_MAX = 2n ** 128n - 1n;

/** A storage value as the runtime stores it: encoded with its types, then decoded from the bytes. */
function stored(rt: WasmRuntime, pallet: string, item: string, value: unknown, option = false): Codec {
  const type = storageValueType(rt, pallet, item);
  const name = option ? `Option<${type}>` : type;
  return rt.registry.createType(name, rt.registry.createType(name, value).toU8a());
}

const accountInfo = (rt: WasmRuntime, data: Record<string, bigint | number>) =>
  stored(rt, "System", "Account", { nonce: 0, consumers: 0, providers: 1, sufficients: 0, data }) as unknown as { data: Codec };

describe("balance parts from each runtime's own layout", () => {
  let today: WasmRuntime;
  let devnet: WasmRuntime;
  let rococo: WasmRuntime;

  beforeAll(async () => {
    [today, devnet, rococo] = await Promise.all([currentRuntime("asset-hub-polkadot"), devnetRuntime("statemine-1000000"), devnetRuntime("rococo-900")]);
  }, 60_000);
  afterAll(() => closeDevnetRuntimes());

  it("the runtimes have the layouts this test is about", () => {
    const fields = (rt: WasmRuntime, type: string) => Object.keys(JSON.parse((rt.registry.createType(type as never) as Codec).toRawType()));
    expect(fields(today, "PalletBalancesAccountData")).toEqual(["free", "reserved", "frozen", "flags"]);
    expect(fields(devnet, "PalletBalancesAccountData")).toEqual(["free", "reserved", "frozen", "flags"]);
    expect(fields(rococo, "PalletBalancesAccountData")).toEqual(["free", "reserved", "miscFrozen", "feeFrozen"]);
    expect(fields(devnet, storageValueType(devnet, "Assets", "Account"))).toEqual(["balance", "status", "reason", "extra"]);
    expect(fields(rococo, storageValueType(rococo, "Assets", "Account"))).toEqual(["balance", "isFrozen", "reason", "extra"]);
  });

  it("{free, reserved, frozen, flags}: a freeze covers the whole balance, so what is reserved counts towards it", () => {
    const cases: [Record<string, bigint>, { balance: string; free: string; reserved: string; frozen: string; transferable: string }][] = [
      [{ free: 1_000n, reserved: 0n, frozen: 300n }, { balance: "1000", free: "1000", reserved: "0", frozen: "300", transferable: "700" }],
      [{ free: 1_000n, reserved: 500n, frozen: 300n }, { balance: "1500", free: "1000", reserved: "500", frozen: "300", transferable: "1000" }],
      [{ free: 1_000n, reserved: 200n, frozen: 500n }, { balance: "1200", free: "1000", reserved: "200", frozen: "500", transferable: "700" }],
      [{ free: 100n, reserved: 0n, frozen: 500n }, { balance: "100", free: "100", reserved: "0", frozen: "500", transferable: "0" }],
      [{ free: U128_MAX - 5n, reserved: 5n, frozen: 0n }, { balance: U128_MAX.toString(), free: (U128_MAX - 5n).toString(), reserved: "5", frozen: "0", transferable: (U128_MAX - 5n).toString() }],
    ];
    for (const rt of [today, devnet]) {
      for (const [data, expected] of cases) {
        const flags = 2n ** 127n; // the "new logic" flag every upgraded account carries: not an amount
        expect(nativeParts(accountInfo(rt, { ...data, flags }).data), JSON.stringify(data, (_, v) => (typeof v === "bigint" ? v.toString() : v))).toEqual(expected);
      }
    }
  });

  it("{free, reserved, miscFrozen, feeFrozen}: the locks bind free alone, frozen is the greater of the two", () => {
    const data = (free: bigint, reserved: bigint, miscFrozen: bigint, feeFrozen: bigint) => accountInfo(rococo, { free, reserved, miscFrozen, feeFrozen }).data;
    expect(nativeParts(data(1_000n, 500n, 300n, 400n))).toEqual({ balance: "1500", free: "1000", reserved: "500", frozen: "400", transferable: "600" });
    expect(nativeParts(data(1_000n, 500n, 400n, 300n))).toEqual({ balance: "1500", free: "1000", reserved: "500", frozen: "400", transferable: "600" });
    expect(nativeParts(data(100n, 0n, 500n, 0n))).toEqual({ balance: "100", free: "100", reserved: "0", frozen: "500", transferable: "0" });
    expect(nativeParts(data(7n, 3n, 0n, 0n))).toEqual({ balance: "10", free: "7", reserved: "3", frozen: "0", transferable: "7" });
  });

  it("an asset account's status: Liquid | Frozen | Blocked, or the older isFrozen flag; no account is a zero", () => {
    for (const rt of [today, devnet]) {
      for (const status of ["Liquid", "Frozen", "Blocked"]) {
        const account = stored(rt, "Assets", "Account", { balance: 42, status, reason: "Consumer" }, true) as unknown as { unwrap(): Codec };
        expect(assetParts(account.unwrap())).toEqual({ balance: "42", status: status.toLowerCase() });
      }
    }
    for (const isFrozen of [true, false]) {
      const account = stored(rococo, "Assets", "Account", { balance: 42, isFrozen, reason: "Consumer" }, true) as unknown as { unwrap(): Codec };
      expect(assetParts(account.unwrap())).toEqual({ balance: "42", status: isFrozen ? "frozen" : "liquid" });
    }
    expect(assetParts(undefined)).toEqual({ balance: "0" });
  });

  it("a layout no runtime has had is an error, not a guess", () => {
    const registry = today.registry as TypeRegistry;
    const bare = registry.createType(`{"free":"u128","reserved":"u128"}` as never, { free: 1, reserved: 2 });
    expect(() => nativeParts(bare)).toThrow(BalanceLayoutError);
    expect(() => nativeParts(bare)).toThrow("AccountData has neither frozen nor miscFrozen/feeFrozen");
    expect(() => assetParts(registry.createType(`{"balance":"u128"}` as never, { balance: 1 }))).toThrow("AssetAccount has neither status nor isFrozen");
    expect(() => assetParts({ balance: 1n, status: "Melted" })).toThrow("status Melted is none of Liquid, Frozen, Blocked");
  });

  /** A ChainReader over storage values encoded by `rt`, at no node: Alice and Bob's native and asset-7 accounts. */
  function readerOver(rt: WasmRuntime, native: Record<string, Record<string, bigint>>, asset: Record<string, Record<string, unknown> | null>) {
    const ss58 = rt.registry.chainSS58 ?? 42;
    const info = (account: string) => accountInfo(rt, native[account]!);
    const assetAccount = (account: string) => stored(rt, "Assets", "Account", asset[account] ?? null, true);
    const accountKey = (account: string) => ({ args: [rt.registry.createType("AccountId32", account)], toHex: () => `0x${"00".repeat(48)}${account.slice(2)}` });
    const byAddress = (a: string) => Object.keys(native).find((hex) => encodeAddress(hex, ss58) === a)!;
    const at = {
      query: {
        system: {
          account: {
            multi: async (accounts: string[]) => accounts.map((a) => info(byAddress(a))),
            entriesPaged: async ({ startKey }: { startKey?: string }) => (startKey ? [] : Object.keys(native).map((a) => [accountKey(a), info(a)])),
          },
        },
        assets: { account: { multi: async (keys: [number, string][]) => keys.map(([, a]) => assetAccount(byAddress(a))), entriesPaged: async () => [] } },
        poolAssets: { asset: { multi: async (ids: number[]) => ids.map(() => rt.registry.createType("Option<u128>", null)) } },
      },
    } as unknown as At;
    const api = { registry: rt.registry, genesisHash: { toHex: () => "0x00" }, runtimeVersion: { specName: { toString: () => "test" } } } as unknown as ApiPromise;
    return { reader: new ChainReader(api, 0), at, alice: encodeAddress(ALICE, ss58), bob: encodeAddress(BOB, ss58) };
  }

  it("ChainReader fills the parts in balances() and a snapshot page; a pool's reserve stays its free balance alone", async () => {
    const cases: { rt: WasmRuntime; alice: Record<string, bigint>; status: Record<string, unknown>; parts: Record<string, string>; assetStatus: string }[] = [
      { rt: today, alice: { free: 1_000n, reserved: 200n, frozen: 500n, flags: 0n }, status: { status: "Frozen" }, parts: { frozen: "500", transferable: "700" }, assetStatus: "frozen" },
      { rt: rococo, alice: { free: 1_000n, reserved: 200n, miscFrozen: 500n, feeFrozen: 0n }, status: { isFrozen: true }, parts: { frozen: "500", transferable: "500" }, assetStatus: "frozen" },
    ];
    for (const c of cases) {
      const bobData: Record<string, bigint> = "frozen" in c.alice ? { free: 50n, reserved: 0n, frozen: 0n, flags: 0n } : { free: 50n, reserved: 0n, miscFrozen: 0n, feeFrozen: 0n };
      const { reader, at, alice, bob } = readerOver(c.rt, { [ALICE]: c.alice, [BOB]: bobData }, { [ALICE]: { balance: 9, reason: "Consumer", ...c.status }, [BOB]: null });
      const read = await reader.balances(at, [
        { tokenId: 0, account: alice },
        { tokenId: 7, account: alice },
        { tokenId: 7, account: bob },
      ]);
      expect(read).toEqual([
        { tokenId: 0, account: alice, balance: "1200", free: "1000", reserved: "200", ...c.parts },
        { tokenId: 7, account: alice, balance: "9", status: c.assetStatus },
        { tokenId: 7, account: bob, balance: "0" },
      ]);
      const pages = [];
      for await (const page of reader.allBalances(at)) pages.push(page);
      const rows = pages.flatMap((p) => p.rows);
      expect(rows).toHaveLength(2);
      expect(rows).toContainEqual({ tokenId: 0, account: alice, balance: "1200", free: "1000", reserved: "200", ...c.parts });
      expect(rows).toContainEqual({ tokenId: 0, account: bob, balance: "50", free: "50", reserved: "0", frozen: "0", transferable: "50" });
      const [pool] = await reader.pools(at, [{ token0Id: 0, token1Id: 7, lpTokenId: 1, account: alice }]);
      expect(pool).toMatchObject({ reserve0: "1000", reserve1: "9" });
    }
  });
});
