/**
 * Absolute values from chain storage at one block hash, in batched `state_queryStorageAt`
 * calls (`.multi`): the tokens, balances, LP balances and pools a block touched. Every read
 * goes through storage decorated with the runtime that wrote the block's state (storage.ts,
 * runtimes.ts), so storage layouts, constants and location types are that runtime's. The
 * paged full-state reads of a bootstrap or a sweep build on it (reader.ts).
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { u8aToString } from "@polkadot/util";
import type { Codec } from "@polkadot/types/types";
import type { TokenKey, TokenKind } from "./locations.js";
import { TokenDirectory } from "./directory.js";
import { assetParts, nativeParts, type AssetAccountStatus, type BalanceParts } from "./balances.js";
import { ChainNode } from "./node.js";
import { address } from "./scale-reader.js";
import type { At } from "./storage.js";

const CHUNK = 500;

export interface TokenState {
  id: number;
  name: string;
  symbol: string;
  decimals: number;
  supply: string;
  owner: string | null;
  kind: TokenKind;
  /** The Assets-pallet id of an `asset` (differs from `id` for the aliased one); null otherwise. */
  assetId: number | null;
  /** A foreign token's location (canonical JSON). */
  location: unknown;
  status: "live" | "frozen" | "destroying";
  /** The chain's count of the asset's accounts (zero balances too); null for the native token. */
  accounts: number | null;
}

export interface BalanceState {
  tokenId: number;
  account: string;
  /** Native: free + reserved; an asset: its balance. */
  balance: string;
  /** The native token's parts (./balances.ts nativeParts); absent for assets. */
  free?: string;
  reserved?: string;
  frozen?: string;
  transferable?: string;
  /** An asset account's status; absent for the native token. */
  status?: AssetAccountStatus;
}

export interface LpBalance {
  lpTokenId: number;
  account: string;
  balance: string;
}

/** A pool as the chain names it: its two tokens (in the chain's order), its LP token and account. */
export interface PoolRef {
  token0Id: number;
  token1Id: number;
  lpTokenId: number;
  /** SS58 address of the pool account. */
  account: string;
}

export interface PoolBalances {
  ref: PoolRef;
  reserve0: string;
  reserve1: string;
  lpSupply: string;
}

/** A pool of the chain the indexer cannot use, and why (logged at error level by the caller). */
export interface UnusablePool {
  pool: string;
  reason: string;
}

export async function chunked<K, V>(keys: K[], read: (chunk: K[]) => Promise<V[]>): Promise<V[]> {
  const out: V[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) out.push(...(await read(keys.slice(i, i + CHUNK))));
  return out;
}

/** Option<T> as T or undefined, whatever the augmentation thinks the type is. */
export function some(value: Codec): any {
  const opt = value as unknown as { isSome?: boolean; unwrap?: () => Codec };
  if (opt.isSome === undefined) return value;
  return opt.isSome && opt.unwrap ? opt.unwrap() : undefined;
}

export type Side<T> = { key: TokenKey; item: T };

/** Reads `items` grouped by the kind of their token, each kind with its own batched call, in order. */
async function byKind<T, V>(
  items: Side<T>[],
  read: { native: (c: T[]) => Promise<V[]>; asset: (c: Side<T>[]) => Promise<V[]>; foreign: (c: Side<T>[]) => Promise<V[]> },
): Promise<V[]> {
  const groups = { native: [] as number[], asset: [] as number[], foreign: [] as number[] };
  items.forEach((s, i) => groups[s.key.kind].push(i));
  const [n, a, f] = await Promise.all([
    chunked(groups.native.map((i) => items[i]!.item), read.native),
    chunked(groups.asset.map((i) => items[i]!), read.asset),
    chunked(groups.foreign.map((i) => items[i]!), read.foreign),
  ]);
  const out = new Array<V>(items.length);
  groups.native.forEach((i, j) => (out[i] = n[j]!));
  groups.asset.forEach((i, j) => (out[i] = a[j]!));
  groups.foreign.forEach((i, j) => (out[i] = f[j]!));
  return out;
}

export const assetKey = (k: TokenKey) => (k as { assetId: number }).assetId;
export const foreignKey = (k: TokenKey) => (k as { key: string }).key;

/** Typed reads of chain storage at a block (ChainNode: blocks, states and their runtimes). */
export class StateReader extends ChainNode {
  constructor(
    api: ApiPromise,
    readonly nativeTokenId: number,
    readonly directory: TokenDirectory = new TokenDirectory(nativeTokenId),
    shareRuntimes = false,
  ) {
    super(api, shareRuntimes);
  }

  private sides<T>(ids: number[], item: (id: number) => T): Side<T>[] {
    return ids.map((id) => ({ key: this.directory.mustKey(id), item: item(id) }));
  }

  /** Current state of tokens; ids absent from chain (destroyed) come back in `missing`. */
  async tokens(at: At, ids: number[]): Promise<{ tokens: TokenState[]; missing: number[] }> {
    const out: TokenState[] = [];
    const missing: number[] = [];
    const others = ids.filter((id) => id !== this.nativeTokenId);
    // Asked with the other tokens' reads, so they go out together (rpc.ts rawValues).
    const issuance = ids.includes(this.nativeTokenId) ? at.query.balances.totalIssuance() : undefined;
    issuance?.catch(() => {}); // awaited below, after the others are asked for
    if (issuance) {
      const { symbol, decimals } = this.native;
      out.push({ id: this.nativeTokenId, name: symbol, symbol, decimals, supply: "", owner: null, kind: "native", assetId: null, location: null, status: "live", accounts: null });
    }
    const sides = this.sides(others, (id) => id);
    const none = async (c: unknown[]) => c.map(() => undefined as unknown as Codec);
    const foreign = at.query.foreignAssets;
    const [details, metadata] = await Promise.all([
      byKind<number, Codec>(sides, {
        native: none,
        asset: (c) => at.query.assets.asset.multi(c.map((s) => assetKey(s.key))),
        foreign: (c) => (foreign ? foreign.asset.multi(c.map((s) => foreignKey(s.key)) as never) : none(c)),
      }),
      byKind<number, Codec>(sides, {
        native: none,
        asset: (c) => at.query.assets.metadata.multi(c.map((s) => assetKey(s.key))),
        foreign: (c) => (foreign ? foreign.metadata.multi(c.map((s) => foreignKey(s.key)) as never) : none(c)),
      }),
    ]);
    if (issuance) out[0]!.supply = (await issuance).toString();
    sides.forEach(({ key, item: id }, i) => {
      const d = details[i] && some(details[i]!);
      if (!d) return void missing.push(id);
      const m = metadata[i] as any;
      out.push({
        id,
        name: u8aToString(m.name.toU8a(true)),
        symbol: u8aToString(m.symbol.toU8a(true)),
        decimals: m.decimals.toNumber(),
        supply: d.supply.toString(),
        // Kept per account (scale-reader.ts): a token named by a block is read again every block.
        owner: address(d.owner, this.ss58),
        kind: key.kind,
        assetId: key.kind === "asset" ? key.assetId : null,
        location: key.kind === "foreign" ? key.location : null,
        status: assetStatus(d),
        accounts: Number(d.accounts.toString()),
      });
    });
    return { tokens: out, missing };
  }

  /** Balances of (token, account) pairs with their parts; native = free + reserved. Zero when absent. */
  async balances(at: At, pairs: { tokenId: number; account: string }[]): Promise<BalanceState[]> {
    const values = await this.accountValues<BalanceParts>(at, pairs, (info) => nativeParts(info.data), assetParts);
    return pairs.map((p, i) => ({ ...p, ...values[i]! }));
  }

  /** A value of each pair: `native` of an AccountInfo, `asset` of an AssetAccount (undefined when absent). */
  private async accountValues<V>(at: At, pairs: { tokenId: number; account: string }[], native: (info: any) => V, asset: (account: any) => V): Promise<V[]> {
    const sides = this.sides(
      pairs.map((_, i) => i),
      (i) => pairs[i]!,
    ).map((s, i) => ({ key: this.directory.mustKey(pairs[i]!.tokenId), item: s.item }));
    const foreign = at.query.foreignAssets;
    const values = await byKind<{ tokenId: number; account: string }, V>(sides, {
      native: async (c) => (await at.query.system.account.multi(c.map((p) => p.account))).map((info) => native(info)),
      asset: async (c) => (await at.query.assets.account.multi(c.map((s) => [assetKey(s.key), s.item.account] as [number, string]))).map((v) => asset(some(v as Codec))),
      foreign: async (c) => (foreign ? (await foreign.account.multi(c.map((s) => [foreignKey(s.key), s.item.account]) as never)).map((v: Codec) => asset(some(v))) : c.map(() => asset(undefined))),
    });
    return values;
  }

  /** LP token balances (pallet-pool-assets) of (LP token, account) pairs; zero when absent. */
  async lpBalances(at: At, pairs: { lpTokenId: number; account: string }[]): Promise<LpBalance[]> {
    if (!at.query.poolAssets) return pairs.map((p) => ({ ...p, balance: "0" }));
    const values = await chunked(pairs, (c) => at.query.poolAssets.account.multi(c.map((p) => [p.lpTokenId, p.account] as [number, string])));
    return pairs.map((p, i) => ({ ...p, balance: some(values[i] as Codec)?.balance.toString() ?? "0" }));
  }

  /** Reserves (the pool account's balances) and LP supply of pools. */
  async pools(at: At, refs: PoolRef[]): Promise<PoolBalances[]> {
    const sides = refs.flatMap((r) => [
      { tokenId: r.token0Id, account: r.account },
      { tokenId: r.token1Id, account: r.account },
    ]);
    const [balances, lp] = await Promise.all([
      // Reserves count the free native balance only, as assetConversionApi.getReserves does.
      this.accountValues(at, sides, (info) => info.data.free.toString() as string, (account) => account?.balance.toString() ?? "0"),
      chunked(refs, (c) => at.query.poolAssets.asset.multi(c.map((r) => r.lpTokenId))),
    ]);
    return refs.map((ref, i) => ({
      ref,
      reserve0: balances[2 * i]!,
      reserve1: balances[2 * i + 1]!,
      lpSupply: some(lp[i] as Codec)?.supply.toString() ?? "0",
    }));
  }
}

/**
 * AssetDetails.status (Live/Frozen/Destroying) since pallet-assets gained asset destruction in
 * steps; older runtimes (the Rococo Asset Hub devnet) have an `isFrozen` flag instead.
 */
function assetStatus(details: any): TokenState["status"] {
  if (details.status !== undefined) return details.status.type.toLowerCase() as TokenState["status"];
  return details.isFrozen?.isTrue ? "frozen" : "live";
}
