/**
 * Absolute values from chain storage at one block hash, in batched `state_queryStorageAt`
 * calls (`.multi`), and the paged full-state reads of a bootstrap (`entriesPaged`).
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { blake2AsU8a, encodeAddress } from "@polkadot/util-crypto";
import { u8aToString } from "@polkadot/util";
import type { Codec } from "@polkadot/types/types";
import { locationToTokenId } from "./locations.js";
import type { PoolRef } from "../touched.js";
import type { At } from "./events.js";

export type { At };
const CHUNK = 500;
const PAGE = 1_000;

export interface TokenState {
  id: number;
  name: string;
  symbol: string;
  decimals: number;
  supply: string;
  owner: string | null;
  isNative: boolean;
  status: "live" | "frozen" | "destroying";
}

export interface BalanceState {
  tokenId: number;
  account: string;
  balance: string;
}

export interface PoolBalances {
  ref: PoolRef;
  reserve0: string;
  reserve1: string;
  lpSupply: string;
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

export class ChainReader {
  readonly ss58: number;
  readonly native: { symbol: string; decimals: number };
  readonly lpFee: bigint;

  constructor(
    readonly api: ApiPromise,
    readonly nativeTokenId: number,
  ) {
    const props = api.registry.getChainProperties();
    this.ss58 = props?.ss58Format.unwrapOr(undefined)?.toNumber() ?? 42;
    this.native = {
      symbol: props?.tokenSymbol.unwrapOr(undefined)?.[0]?.toString() ?? "UNIT",
      decimals: props?.tokenDecimals.unwrapOr(undefined)?.[0]?.toNumber() ?? 12,
    };
    this.lpFee = BigInt(api.consts.assetConversion?.lpFee?.toString() ?? "0");
  }

  get hasPools(): boolean {
    return this.api.query.assetConversion !== undefined;
  }

  async block(number: number): Promise<{ number: number; hash: string; at: At; timestamp: number }> {
    const hash = (await this.api.rpc.chain.getBlockHash(number)).toHex();
    return this.blockByHash(hash, number);
  }

  async blockByHash(hash: string, number?: number): Promise<{ number: number; hash: string; at: At; timestamp: number }> {
    const at = await this.api.at(hash);
    const [now, header] = await Promise.all([at.query.timestamp.now(), number === undefined ? this.api.rpc.chain.getHeader(hash) : undefined]);
    return { number: number ?? header!.number.toNumber(), hash, at, timestamp: Math.floor(Number(now.toString()) / 1000) };
  }

  async finalizedHead(): Promise<{ number: number; hash: string }> {
    const hash = await this.api.rpc.chain.getFinalizedHead();
    const header = await this.api.rpc.chain.getHeader(hash);
    return { number: header.number.toNumber(), hash: hash.toHex() };
  }

  /** Current state of tokens; ids absent from chain (destroyed) come back in `missing`. */
  async tokens(at: At, ids: number[]): Promise<{ tokens: TokenState[]; missing: number[] }> {
    const out: TokenState[] = [];
    const missing: number[] = [];
    const assetIds = ids.filter((id) => id !== this.nativeTokenId);
    if (ids.includes(this.nativeTokenId)) {
      const issuance = await at.query.balances.totalIssuance();
      out.push({ id: this.nativeTokenId, name: this.native.symbol, symbol: this.native.symbol, decimals: this.native.decimals, supply: issuance.toString(), owner: null, isNative: true, status: "live" });
    }
    const details = await chunked(assetIds, (c) => at.query.assets.asset.multi(c));
    const metadata = await chunked(assetIds, (c) => at.query.assets.metadata.multi(c));
    assetIds.forEach((id, i) => {
      const d = some(details[i] as Codec);
      if (!d) return void missing.push(id);
      const m = metadata[i] as any;
      out.push({
        id,
        name: u8aToString(m.name.toU8a(true)),
        symbol: u8aToString(m.symbol.toU8a(true)),
        decimals: m.decimals.toNumber(),
        supply: d.supply.toString(),
        owner: encodeAddress(d.owner, this.ss58),
        isNative: false,
        status: assetStatus(d),
      });
    });
    return { tokens: out, missing };
  }

  /** Balances of (token, account) pairs; native = free + reserved. Zero when absent. */
  async balances(at: At, pairs: { tokenId: number; account: string }[]): Promise<BalanceState[]> {
    const native = pairs.filter((p) => p.tokenId === this.nativeTokenId);
    const assets = pairs.filter((p) => p.tokenId !== this.nativeTokenId);
    const nativeValues = await chunked(native, (c) => at.query.system.account.multi(c.map((p) => p.account)));
    const assetValues = await chunked(assets, (c) => at.query.assets.account.multi(c.map((p) => [p.tokenId, p.account] as [number, string])));
    return [
      ...native.map((p, i) => {
        const data = (nativeValues[i] as any).data;
        return { ...p, balance: (BigInt(data.free.toString()) + BigInt(data.reserved.toString())).toString() };
      }),
      ...assets.map((p, i) => ({ ...p, balance: some(assetValues[i] as Codec)?.balance.toString() ?? "0" })),
    ];
  }

  /** Reserves (the pool account's balances) and LP supply of pools. */
  async pools(at: At, refs: PoolRef[]): Promise<PoolBalances[]> {
    const sides = refs.flatMap((r) => [
      { tokenId: r.token0Id, account: r.account },
      { tokenId: r.token1Id, account: r.account },
    ]);
    const [balances, lp] = await Promise.all([
      // Reserves count the free native balance only, as assetConversionApi.getReserves does.
      this.reserveBalances(at, sides),
      chunked(refs, (c) => at.query.poolAssets.asset.multi(c.map((r) => r.lpTokenId))),
    ]);
    return refs.map((ref, i) => ({
      ref,
      reserve0: balances[2 * i] as string,
      reserve1: balances[2 * i + 1] as string,
      lpSupply: some(lp[i] as Codec)?.supply.toString() ?? "0",
    }));
  }

  private async reserveBalances(at: At, sides: { tokenId: number; account: string }[]): Promise<string[]> {
    const native = await chunked(sides.filter((s) => s.tokenId === this.nativeTokenId), (c) => at.query.system.account.multi(c.map((s) => s.account)));
    const assets = await chunked(sides.filter((s) => s.tokenId !== this.nativeTokenId), (c) =>
      at.query.assets.account.multi(c.map((s) => [s.tokenId, s.account] as [number, string])),
    );
    let n = 0;
    let a = 0;
    return sides.map((s) => (s.tokenId === this.nativeTokenId ? (native[n++] as any).data.free.toString() : (some(assets[a++] as Codec)?.balance.toString() ?? "0")));
  }

  /** Every pool of the chain (bootstrap). */
  async allPools(at: At): Promise<PoolRef[]> {
    if (!at.query.assetConversion) return [];
    const entries = await at.query.assetConversion.pools.entries();
    const out: PoolRef[] = [];
    for (const [key, value] of entries) {
      const poolId = key.args[0] as Codec;
      const [a, b] = (poolId.toPrimitive() as unknown[]).map((l) => locationToTokenId(l, this.nativeTokenId));
      const info = some(value as Codec);
      if (a === undefined || b === undefined || !info) continue;
      // The pool account is blake2_256 of the SCALE-encoded pool id (PoolCreated.pool_account).
      out.push({ token0Id: a, token1Id: b, lpTokenId: Number(info.lpToken.toString()), account: encodeAddress(blake2AsU8a(poolId.toU8a()), this.ss58) });
    }
    return out;
  }

  /** Every asset id (bootstrap). */
  async allAssetIds(at: At): Promise<number[]> {
    const keys = await at.query.assets.asset.keys();
    return keys.map((k) => Number(k.args[0]!.toString())).sort((x, y) => x - y);
  }

  /** Every non-zero balance of every asset, then of the native token, a page at a time. */
  async *allBalances(at: At): AsyncGenerator<BalanceState[]> {
    for (const [query, decode] of [
      [at.query.assets.account, (key: any, value: Codec) => ({ tokenId: Number(key.args[0].toString()), account: encodeAddress(key.args[1], this.ss58), balance: some(value)?.balance.toString() ?? "0" })],
      [at.query.system.account, (key: any, value: any) => ({ tokenId: this.nativeTokenId, account: encodeAddress(key.args[0], this.ss58), balance: (BigInt(value.data.free.toString()) + BigInt(value.data.reserved.toString())).toString() })],
    ] as const) {
      let startKey: string | undefined;
      for (;;) {
        const page = await (query as any).entriesPaged({ args: [], pageSize: PAGE, startKey });
        if (page.length === 0) break;
        yield page.map(([k, v]: [any, Codec]) => decode(k, v)).filter((b: BalanceState) => b.balance !== "0");
        startKey = page[page.length - 1][0].toHex();
        if (page.length < PAGE) break;
      }
    }
  }
}

/**
 * AssetDetails.status (Live/Frozen/Destroying) since pallet-assets gained asset destruction in
 * steps; older runtimes (the Rococo Asset Hub fallback devnet) have an `isFrozen` flag instead.
 */
function assetStatus(details: any): TokenState["status"] {
  if (details.status !== undefined) return details.status.type.toLowerCase() as TokenState["status"];
  return details.isFrozen?.isTrue ? "frozen" : "live";
}
