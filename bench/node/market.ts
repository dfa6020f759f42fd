/**
 * The bench node's chain state: today's Polkadot Asset Hub in small — DOT, the assets and foreign
 * assets that trade most (USDt, USDC, DED, PINK; KSM, Snowbridge WETH, MYTH), a DOT pool of each,
 * and a few thousand accounts — encoded once with the runtime's own types (statemint 2,000,000,
 * the metadata @polkadot/types-support ships). What a block changes (pool reserves, issuance) is
 * laid over it per block; keys nothing names (an account no event moved) are
 * generated from the key itself, so every read decodes and answers the same each time.
 */
import { bnToU8a, hexToU8a, u8aToHex } from "@polkadot/util";
import { blake2AsHex, blake2AsU8a } from "@polkadot/util-crypto";
import type { RuntimeCodec } from "../../test/support/fake-storage.js";
import { LOCATIONS } from "../../test/support/runtimes.js";

export const DOT = 10_000_000_000n;

export interface BenchAsset {
  /** The Assets pallet id, or the location of a foreign asset. */
  id: number | object;
  symbol: string;
  name: string;
  decimals: number;
  /** DOT per whole token, in DOT plancks per whole token (sets the pool's reserves). */
  dotPerToken: number;
}

export const ASSETS: BenchAsset[] = [
  { id: 1984, symbol: "USDt", name: "Tether USD", decimals: 6, dotPerToken: 0.2 },
  { id: 1337, symbol: "USDC", name: "USD Coin", decimals: 6, dotPerToken: 0.2 },
  { id: 30, symbol: "DED", name: "DED", decimals: 10, dotPerToken: 0.000002 },
  { id: 23, symbol: "PINK", name: "PINK", decimals: 10, dotPerToken: 0.0001 },
  { id: LOCATIONS.ksm, symbol: "KSM", name: "Kusama", decimals: 12, dotPerToken: 4 },
  {
    id: { parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2" } }] } },
    symbol: "WETH",
    name: "Wrapped Ether",
    decimals: 18,
    dotPerToken: 600,
  },
  { id: { parents: 1, interior: { X1: [{ Parachain: 3369 }] } }, symbol: "MYTH", name: "Mythos", decimals: 18, dotPerToken: 0.05 },
];

export const isForeign = (a: BenchAsset) => typeof a.id !== "number";
export const pallet = (a: BenchAsset) => (isForeign(a) ? "foreignAssets" : "assets");

/** A deterministic AccountId32 (hex) per name. */
export const accountOf = (name: string): string => blake2AsHex(`bench-node/${name}`);

/** Accounts events name: senders, receivers, stakers (ACCOUNTS of them). */
export const ACCOUNTS = 4_000;
export const actors: string[] = Array.from({ length: ACCOUNTS }, (_, i) => accountOf(`actor-${i}`));
export const TREASURY = accountOf("treasury");
export const COLLATOR_POT = accountOf("collator-pot");
export const ISSUER = accountOf("issuer");
export const poolAccount = (i: number) => accountOf(`pool-${i}`);

/** A pool's reserves after block `n`: they drift as its swaps move them. */
export function reserves(i: number, n: number): { dot: bigint; asset: bigint } {
  const a = ASSETS[i]!;
  const dot = 2_000_000n * DOT + BigInt(n) * 37n * DOT;
  const unit = 10n ** BigInt(a.decimals);
  const asset = (dot * unit * 1_000_000n) / (DOT * BigInt(Math.round(a.dotPerToken * 1_000_000)));
  return { dot, asset };
}

const NEW_LOGIC = 1n << 127n;

export class BenchState {
  /** Storage that no block changes: token details and metadata, pools, LP tokens, the runtime. */
  readonly fixed = new Map<string, string>();
  /** Sorted keys per map prefix (state_getKeysPaged). */
  readonly keys: string[] = [];
  private readonly accountPrefix: string;
  private readonly accountTemplate: Uint8Array;
  private readonly assetAccountPrefix: string;
  private readonly assetAccountTemplate: Uint8Array;

  constructor(readonly codec: RuntimeCodec) {
    const put = (section: string, item: string, args: unknown[], value: unknown) => this.fixed.set(codec.key(section, item, ...args), codec.value(section, item, value));
    const owner = ISSUER;
    const details = (supply: bigint, accounts: number, isSufficient: boolean, who = owner) => ({ owner: who, issuer: who, admin: who, freezer: who, supply, deposit: 0, minBalance: 1, isSufficient, accounts, sufficients: 0, approvals: 0, status: "Live" });
    ASSETS.forEach((a, i) => {
      put(pallet(a), "asset", [a.id], details(10n ** BigInt(a.decimals + 9), 40_000 + i, true));
      put(pallet(a), "metadata", [a.id], { deposit: 0, name: a.name, symbol: a.symbol, decimals: a.decimals, isFrozen: false });
      put("assetConversion", "pools", [[LOCATIONS.native, isForeign(a) ? a.id : LOCATIONS.asset(a.id as number)]], { lpToken: i });
      put("poolAssets", "asset", [i], details(1_000_000n * DOT, 120 + i, false, poolAccount(i)));
    });
    const { specVersion, specName } = codec.version;
    put("system", "lastRuntimeUpgrade", [], { specVersion, specName });
    this.keys.push(...[...this.fixed.keys()].sort());
    this.accountPrefix = codec.key("system", "account", actors[0]).slice(0, 66);
    this.accountTemplate = hexToU8a(codec.value("system", "account", { nonce: 3, consumers: 1, providers: 1, sufficients: 0, data: { free: 1, reserved: 0, frozen: 0, flags: NEW_LOGIC } }));
    this.assetAccountPrefix = codec.key("assets", "account", 1984, actors[0]).slice(0, 66);
    this.assetAccountTemplate = hexToU8a(codec.value("assets", "account", { balance: 1, status: "Liquid", reason: "Sufficient", extra: null }));
  }

  /**
   * What block `n` changes: pool accounts' balances and the total issuance, new values in every
   * block (as swaps and fees move them), written into their encoded bytes without a codec: the
   * node stays cheap, and the reader never sees the same bytes twice.
   */
  dynamic(): Map<string, (n: number) => string> {
    const out = new Map<string, (n: number) => string>();
    const { codec } = this;
    const at = (template: string, offset: number, amount: (n: number) => bigint) => {
      const bytes = hexToU8a(template);
      return (n: number) => {
        const value = bytes.slice();
        value.set(bnToU8a(amount(n), { bitLength: 128 }), offset);
        return u8aToHex(value);
      };
    };
    ASSETS.forEach((a, i) => {
      const account = poolAccount(i);
      const native = codec.value("system", "account", { nonce: 0, consumers: 2, providers: 1, sufficients: 0, data: { free: 1, reserved: 0, frozen: 0, flags: NEW_LOGIC } });
      // AccountInfo: nonce, consumers, providers, sufficients (4 × u32), then data.free; AssetAccount: balance first.
      out.set(codec.key("system", "account", account), at(native, 16, (n) => reserves(i, n).dot));
      const asset = codec.value(pallet(a), "account", { balance: 1, status: "Liquid", reason: "Sufficient", extra: null });
      out.set(codec.key(pallet(a), "account", a.id, account), at(asset, 0, (n) => reserves(i, n).asset));
    });
    out.set(codec.key("balances", "totalIssuance", []), at(codec.value("balances", "totalIssuance", 1), 0, (n) => 16_000_000_000n * DOT + BigInt(n) * 1_000n * DOT));
    return out;
  }

  /**
   * A value for a key no template holds: an account's native or USDt/USDC balance made up from
   * the key's hash (the same on every read); anything else is absent.
   */
  generated(key: string): string | null {
    const isNative = key.startsWith(this.accountPrefix);
    if (!isNative && !key.startsWith(this.assetAccountPrefix)) return null;
    const seed = blake2AsU8a(hexToU8a(key), 64);
    const amount = new DataView(seed.buffer, seed.byteOffset).getBigUint64(0, true) % (100_000n * DOT);
    const value = (isNative ? this.accountTemplate : this.assetAccountTemplate).slice();
    value.set(bnToU8a(amount, { bitLength: 128 }), isNative ? 16 : 0);
    return u8aToHex(value);
  }
}
