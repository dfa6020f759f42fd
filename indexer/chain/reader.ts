/**
 * Absolute values from chain storage at one block hash, in batched `state_queryStorageAt`
 * calls (`.multi`), and the paged full-state reads of a bootstrap (`entriesPaged`). Every read
 * goes through storage decorated with the runtime that wrote the block's state (storage.ts,
 * runtimes.ts), so storage layouts, constants and location types are that runtime's.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { encodeAddress } from "@polkadot/util-crypto";
import { u8aToString } from "@polkadot/util";
import type { Codec } from "@polkadot/types/types";
import { assetTokenId, foreignToken, locationToken, type TokenKey, type TokenKind, type TokenOfLocation } from "./locations.js";
import { TokenDirectory } from "./directory.js";
import { assetParts, nativeParts, type AssetAccountStatus, type BalanceParts } from "./balances.js";
import { ChainNode } from "./node.js";
import { address } from "./scale-reader.js";
import type { At } from "./storage.js";

export type { At };
export { isStateDiscarded, StateDiscardedAt, type BlockState, type ChainIdentity } from "./node.js";

const CHUNK = 500;
const PAGE = 1_000;

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

async function chunked<K, V>(keys: K[], read: (chunk: K[]) => Promise<V[]>): Promise<V[]> {
  const out: V[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) out.push(...(await read(keys.slice(i, i + CHUNK))));
  return out;
}

/** Option<T> as T or undefined, whatever the augmentation thinks the type is. */
function some(value: Codec): any {
  const opt = value as unknown as { isSome?: boolean; unwrap?: () => Codec };
  if (opt.isSome === undefined) return value;
  return opt.isSome && opt.unwrap ? opt.unwrap() : undefined;
}

type Side<T> = { key: TokenKey; item: T };

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

const assetKey = (k: TokenKey) => (k as { assetId: number }).assetId;
const foreignKey = (k: TokenKey) => (k as { key: string }).key;

/** Typed reads of chain storage at a block (ChainNode: blocks, states and their runtimes). */
export class ChainReader extends ChainNode {
  /** Foreign locations of a full read whose derived id another location has: left out, for the caller to report. */
  readonly collisions: { id: number; key: string }[] = [];

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

  /** Every non-zero LP token balance of the chain (positions are few: one read of the whole map). */
  async allLpBalances(at: At): Promise<LpBalance[]> {
    if (!at.query.poolAssets) return [];
    const entries = await at.query.poolAssets.account.entries();
    return entries
      .map(([k, v]) => ({ lpTokenId: Number(k.args[0]!.toString()), account: encodeAddress(k.args[1] as never, this.ss58), balance: some(v as Codec)?.balance.toString() ?? "0" }))
      .filter((b) => b.balance !== "0");
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

  /**
   * Every pool of the chain (bootstrap, backfill chunks). The pool account is the owner of the
   * pool's LP token, on every runtime: Kusama AH derives it unseeded, Polkadot AH seeds it with
   * the pallet id, and a formula would be right on one of them only.
   */
  async allPools(at: At): Promise<{ pools: PoolRef[]; unusable: UnusablePool[] }> {
    if (!at.query.assetConversion) return { pools: [], unusable: [] };
    const entries = await at.query.assetConversion.pools.entries();
    const found: { ids: [number, number]; lpTokenId: number }[] = [];
    const unusable: UnusablePool[] = [];
    for (const [key, value] of entries) {
      const [l0, l1] = key.args[0] as unknown as [Codec, Codec];
      const tokens = [locationToken(l0, this.nativeTokenId), locationToken(l1, this.nativeTokenId)];
      const info = some(value as Codec);
      if (!tokens[0] || !tokens[1] || !info) {
        unusable.push({ pool: key.toHex(), reason: "pool id or info does not decode" });
        continue;
      }
      if (!tokens.every((t) => this.claim(t!))) {
        unusable.push({ pool: `${tokens[0].id}/${tokens[1].id}`, reason: "a token of the pool derives the id of another location" });
        continue;
      }
      found.push({ ids: [tokens[0].id, tokens[1].id], lpTokenId: Number(info.lpToken.toString()) });
    }
    const lp = await chunked(found, (c) => at.query.poolAssets.asset.multi(c.map((p) => p.lpTokenId)));
    const pools: PoolRef[] = [];
    found.forEach((p, i) => {
      const details = some(lp[i] as Codec);
      if (!details) return void unusable.push({ pool: `${p.ids[0]}/${p.ids[1]}`, reason: `LP token ${p.lpTokenId} does not exist, so the pool account is unknown` });
      pools.push({ token0Id: p.ids[0], token1Id: p.ids[1], lpTokenId: p.lpTokenId, account: encodeAddress(details.owner, this.ss58) });
    });
    return { pools, unusable };
  }

  /** Records how to read a token; a collision is remembered (once) and refused. */
  private claim(t: TokenOfLocation): boolean {
    if (this.directory.set(t.id, t.token)) return true;
    const key = (t.token as { key: string }).key;
    if (!this.collisions.some((c) => c.key === key)) this.collisions.push({ id: t.id, key });
    return false;
  }

  /** Every token id of the chain: the native token, every asset, every foreign asset (bootstrap). */
  async allTokenIds(at: At): Promise<number[]> {
    const assets = (await at.query.assets.asset.keys()).map((k) => {
      const assetId = Number(k.args[0]!.toString());
      const id = assetTokenId(assetId, this.nativeTokenId);
      this.directory.set(id, { kind: "asset", assetId });
      return id;
    });
    const foreign = at.query.foreignAssets ? await at.query.foreignAssets.asset.keys() : [];
    const foreignIds = foreign.flatMap((k) => {
      const t = foreignToken(k.args[0] as unknown as Codec);
      return t && this.claim(t) ? [t.id] : [];
    });
    return [this.nativeTokenId, ...[...assets, ...foreignIds].sort((x, y) => x - y)];
  }

  /** The balance maps in BALANCE_MAPS order, each with its entry decoder (undefined: a map the runtime lacks). */
  private balanceMaps(at: At): [unknown, (key: any, value: any) => BalanceState | undefined][] {
    return [
      [at.query.system.account, (k, v) => ({ tokenId: this.nativeTokenId, account: encodeAddress(k.args[0], this.ss58), ...nativeParts(v.data) })],
      [at.query.assets.account, (k, v) => ({ tokenId: assetTokenId(Number(k.args[0].toString()), this.nativeTokenId), account: encodeAddress(k.args[1], this.ss58), ...assetParts(some(v)) })],
      [
        at.query.foreignAssets?.account,
        (k, v) => {
          const t = foreignToken(k.args[0]);
          return t && this.claim(t) ? { tokenId: t.id, account: encodeAddress(k.args[1], this.ss58), ...assetParts(some(v)) } : undefined;
        },
      ],
    ];
  }

  /**
   * One page of the balance maps from `from` on (the sweep's unit of work): the non-zero balances
   * of up to `pageSize` storage entries of one map, and where the next page starts (null after
   * the last map). Unlike allBalances, nothing is read ahead: the caller paces the reads.
   */
  async balancePage(at: At, from: { map: number; lastKey: string | null }, pageSize = PAGE): Promise<{ rows: BalanceState[]; entries: number; undecodable: { key: string; reason: string }[]; next: { map: number; lastKey: string | null } | null }> {
    const maps = this.balanceMaps(at);
    for (let map = from.map, startKey = from.lastKey; map < maps.length; map++, startKey = null) {
      const [query, decode] = maps[map]!;
      if (!query) continue;
      const page = (await (query as any).entriesPaged({ args: [], pageSize, startKey: startKey ?? undefined })) as [any, Codec][];
      if (page.length === 0) continue;
      const lastKey = page[page.length - 1]![0].toHex() as string;
      // Entry by entry: one value of a layout no runtime had (BalanceLayoutError) is reported by
      // the caller, never a page that fails on every pass.
      const rows: BalanceState[] = [];
      const undecodable: { key: string; reason: string }[] = [];
      for (const [k, v] of page) {
        try {
          const b = decode(k, v);
          if (b !== undefined && b.balance !== "0") rows.push(b);
        } catch (err) {
          undecodable.push({ key: k.toHex() as string, reason: err instanceof Error ? err.message : String(err) });
        }
      }
      const next = page.length < pageSize ? (map + 1 < maps.length ? { map: map + 1, lastKey: null } : null) : { map, lastKey };
      return { rows, entries: page.length, undecodable, next };
    }
    return { rows: [], entries: 0, undecodable: [], next: null };
  }

  /**
   * Every non-zero balance of the native token, every asset and every foreign asset, a page at
   * a time, from `from` on (a resumed snapshot: the map's index in BALANCE_MAPS and the last
   * storage key read of it, exclusive). Each page says where it ended, so the caller can store
   * that with the page's rows, and how far into the map's key space it is (`fraction`): keys
   * begin with a blake2_128 hash, spread evenly, so it estimates the share of the map read.
   */
  async *allBalances(at: At, from: { map: number; lastKey: string | null } = { map: 0, lastKey: null }, pageSize = PAGE, only?: number): AsyncGenerator<BalancePage> {
    const maps = this.balanceMaps(at);
    // One token's balances (`only`): the map of its kind, under its key's prefix.
    const key = only === undefined ? undefined : this.directory.mustKey(only);
    const scope = key && { map: key.kind === "native" ? 0 : key.kind === "asset" ? 1 : 2, args: key.kind === "asset" ? [key.assetId] : key.kind === "foreign" ? [key.key] : [] };
    for (let map = from.map; map < maps.length; map++) {
      const [query, decode] = maps[map]!;
      if (!query || (scope && scope.map !== map)) continue;
      let startKey = map === from.map || scope ? (from.lastKey ?? undefined) : undefined;
      // The next page is requested while the caller writes this one: the round trip to the
      // node and the database write overlap.
      const fetchPage = (key: string | undefined) => (query as any).entriesPaged({ args: scope?.args ?? [], pageSize, startKey: key }) as Promise<[any, Codec][]>;
      let next: Promise<[any, Codec][]> | undefined = fetchPage(startKey);
      while (next) {
        const page: [any, Codec][] = await next;
        if (page.length === 0) break;
        const lastKey = page[page.length - 1]![0].toHex() as string;
        next = page.length < pageSize ? undefined : fetchPage(lastKey);
        next?.catch(() => {}); // awaited on the next turn; a failure then is the caller's
        const rows = page.map(([k, v]) => decode(k, v)).filter((b): b is BalanceState => b !== undefined && b.balance !== "0");
        yield { map, lastKey, entries: page.length, rows, fraction: keyFraction(lastKey), last: next === undefined };
        startKey = lastKey;
      }
    }
  }
}

/** The maps of a balance snapshot, in the order they are read (indexes are stored by a resumable bootstrap). */
export const BALANCE_MAPS = ["system.account", "assets.account", "foreignAssets.account"] as const;

export interface BalancePage {
  /** Index in BALANCE_MAPS. */
  map: number;
  /** The page's last storage key: the next page starts after it. */
  lastKey: string;
  /** Storage entries read (zero balances included). */
  entries: number;
  /** Non-zero balances of the page. */
  rows: BalanceState[];
  /** Share of the map's key space before lastKey (from the first 4 bytes of the key's hash). */
  fraction: number;
  /** The map's last page. */
  last: boolean;
}

/** Position of a map key in its map: the 4 bytes after the 32-byte pallet and item prefix (a blake2_128 hash). */
export function keyFraction(key: string): number {
  const hex = key.slice(2 + 64, 2 + 64 + 8);
  return hex.length === 8 ? parseInt(hex, 16) / 2 ** 32 : 0;
}

/**
 * AssetDetails.status (Live/Frozen/Destroying) since pallet-assets gained asset destruction in
 * steps; older runtimes (the Rococo Asset Hub devnet) have an `isFrozen` flag instead.
 */
function assetStatus(details: any): TokenState["status"] {
  if (details.status !== undefined) return details.status.type.toLowerCase() as TokenState["status"];
  return details.isFrozen?.isTrue ? "frozen" : "live";
}
