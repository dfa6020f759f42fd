/**
 * The paged full-state reads of a bootstrap and of the verification sweep (`entriesPaged`): every
 * pool, token id, LP balance and balance of the chain, on top of the reads at a block of what
 * it touched (state-reads.ts). Every read goes through storage decorated with the runtime that
 * wrote the block's state (storage.ts, runtimes.ts).
 */
import "@polkadot/api-augment/assetHubKusama";
import { encodeAddress } from "@polkadot/util-crypto";
import type { Codec } from "@polkadot/types/types";
import { assetTokenId, foreignToken, locationToken, type TokenOfLocation } from "./locations.js";
import { assetParts, nativeParts } from "./balances.js";
import { chunked, some, StateReader, type BalanceState, type LpBalance, type PoolRef, type UnusablePool } from "./state-reads.js";
import type { At } from "./storage.js";

export type { At };
export { isStateDiscarded, StateDiscardedAt, type BlockState, type ChainIdentity } from "./node.js";
export type { BalanceState, LpBalance, PoolBalances, PoolRef, TokenState, UnusablePool } from "./state-reads.js";

const PAGE = 1_000;

/** Typed reads of chain storage at a block, and of the whole of it (StateReader: the reads of what a block touched). */
export class ChainReader extends StateReader {
  /** Foreign locations of a full read whose derived id another location has: left out, for the caller to report. */
  readonly collisions: { id: number; key: string }[] = [];

  /** Every non-zero LP token balance of the chain (positions are few: one read of the whole map). */
  async allLpBalances(at: At): Promise<LpBalance[]> {
    if (!at.query.poolAssets) return [];
    const entries = await at.query.poolAssets.account.entries();
    return entries
      .map(([k, v]) => ({ lpTokenId: Number(k.args[0]!.toString()), account: encodeAddress(k.args[1] as never, this.ss58), balance: some(v as Codec)?.balance.toString() ?? "0" }))
      .filter((b) => b.balance !== "0");
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
