/**
 * The chain state a fake node serves, as plain values (the test's independent truth), and its
 * encoding into storage entries with a runtime's own types. Totals are derived, never stored:
 * total issuance is Σ (free + reserved) of every account, an asset's supply and account count
 * are those of its balances, an LP token's supply that of its holders — so storage is
 * consistent by construction, whatever the blocks do.
 */
import type { RuntimeCodec } from "./fake-storage.js";
import { LOCATIONS } from "./runtimes.js";

/** An AccountId32 as 0x-prefixed hex. */
export type AccountHex = string;

export interface NativeAccount {
  free: bigint;
  reserved: bigint;
  frozen: bigint;
}

export interface FakeAsset {
  id: number;
  owner: AccountHex;
  name: string;
  symbol: string;
  decimals: number;
  minBalance: bigint;
  balances: Map<AccountHex, bigint>;
}

/** A pool of the native token and an asset; its reserves are the pool account's balances. */
export interface FakePool {
  assetId: number;
  lpToken: number;
  account: AccountHex;
}

export interface FakeLpToken {
  id: number;
  owner: AccountHex;
  balances: Map<AccountHex, bigint>;
}

/** AccountData.flags with the "new logic" bit pallet-balances sets on every account today. */
const NEW_LOGIC = 1n << 127n;

export class ChainState {
  native = new Map<AccountHex, NativeAccount>();
  assets = new Map<number, FakeAsset>();
  pools = new Map<number, FakePool>();
  lpTokens = new Map<number, FakeLpToken>();

  clone(): ChainState {
    const copy = new ChainState();
    for (const [k, v] of this.native) copy.native.set(k, { ...v });
    for (const [k, v] of this.assets) copy.assets.set(k, { ...v, balances: new Map(v.balances) });
    for (const [k, v] of this.pools) copy.pools.set(k, { ...v });
    for (const [k, v] of this.lpTokens) copy.lpTokens.set(k, { ...v, balances: new Map(v.balances) });
    return copy;
  }

  issuance(): bigint {
    let total = 0n;
    for (const a of this.native.values()) total += a.free + a.reserved;
    return total;
  }

  supply(assetId: number): bigint {
    return sum(this.mustAsset(assetId).balances);
  }

  mustAsset(id: number): FakeAsset {
    const asset = this.assets.get(id);
    if (!asset) throw new Error(`no asset ${id}`);
    return asset;
  }

  nativeOf(account: AccountHex): NativeAccount {
    let a = this.native.get(account);
    if (!a) this.native.set(account, (a = { free: 0n, reserved: 0n, frozen: 0n }));
    return a;
  }

  /** Moves `amount` of free native balance; fails (a test bug) rather than go negative. */
  moveFree(from: AccountHex, to: AccountHex, amount: bigint): void {
    const source = this.nativeOf(from);
    if (source.free < amount) throw new Error(`native: ${from} has ${source.free} free, not ${amount}`);
    source.free -= amount;
    this.nativeOf(to).free += amount;
  }

  /** Moves an asset balance; an account left at zero is removed, as the pallet reaps it. */
  moveAsset(assetId: number, from: AccountHex, to: AccountHex, amount: bigint): void {
    const balances = this.mustAsset(assetId).balances;
    const have = balances.get(from) ?? 0n;
    if (have < amount) throw new Error(`asset ${assetId}: ${from} has ${have}, not ${amount}`);
    if (have === amount) balances.delete(from);
    else balances.set(from, have - amount);
    balances.set(to, (balances.get(to) ?? 0n) + amount);
  }

  /** The pool's reserves: its account's free native balance and its asset balance. */
  reserves(assetId: number): { native: bigint; asset: bigint; pool: FakePool } {
    const pool = this.pools.get(assetId);
    if (!pool) throw new Error(`no pool of asset ${assetId}`);
    return { native: this.native.get(pool.account)?.free ?? 0n, asset: this.mustAsset(assetId).balances.get(pool.account) ?? 0n, pool };
  }
}

const sum = (m: Map<unknown, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);

/** The state's storage entries (key → value), encoded with `codec`'s runtime. */
export function encodeState(state: ChainState, codec: RuntimeCodec): Map<string, string> {
  const out = new Map<string, string>();
  const put = (section: string, method: string, args: unknown[], value: unknown) => out.set(codec.key(section, method, ...args), codec.value(section, method, value));
  for (const [account, a] of state.native) {
    const data = { free: a.free, reserved: a.reserved, frozen: a.frozen, flags: NEW_LOGIC };
    put("system", "account", [account], { nonce: 0, consumers: 0, providers: 1, sufficients: 0, data });
  }
  put("balances", "totalIssuance", [], state.issuance());
  for (const asset of state.assets.values()) {
    const count = asset.balances.size;
    const details = { owner: asset.owner, issuer: asset.owner, admin: asset.owner, freezer: asset.owner, supply: sum(asset.balances), deposit: 0, minBalance: asset.minBalance, isSufficient: true, accounts: count, sufficients: count, approvals: 0, status: "Live" };
    put("assets", "asset", [asset.id], details);
    put("assets", "metadata", [asset.id], { deposit: 0, name: asset.name, symbol: asset.symbol, decimals: asset.decimals, isFrozen: false });
    for (const [account, balance] of asset.balances) put("assets", "account", [asset.id, account], { balance, status: "Liquid", reason: "Sufficient", extra: null });
  }
  for (const pool of state.pools.values()) put("assetConversion", "pools", [[LOCATIONS.native, LOCATIONS.asset(pool.assetId)]], { lpToken: pool.lpToken });
  for (const lp of state.lpTokens.values()) {
    const count = lp.balances.size;
    const details = { owner: lp.owner, issuer: lp.owner, admin: lp.owner, freezer: lp.owner, supply: sum(lp.balances), deposit: 0, minBalance: 1, isSufficient: false, accounts: count, sufficients: 0, approvals: 0, status: "Live" };
    put("poolAssets", "asset", [lp.id], details);
    for (const [account, balance] of lp.balances) put("poolAssets", "account", [lp.id, account], { balance, status: "Liquid", reason: "Consumer", extra: null });
  }
  return out;
}
