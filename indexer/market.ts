/**
 * The indexer's in-memory view of the market: pools with their reserves, token decimals and
 * symbols, how to read each token, and the prices last written. It is loaded from the database
 * at every (re)start, so it always equals the committed state plus the blocks of the batch in
 * progress.
 */
import { latestPrices, listPools, tokenKeys, type Database } from "../db/index.js";
import { parseFixed, USD_SCALE } from "../shared/decimal.js";
import type { TokenDirectory } from "./chain/directory.js";
import { poolKey, type TokenKey } from "./chain/locations.js";
import { computePrices, type PoolState } from "./prices.js";
import type { PoolRef } from "./touched.js";

/** USD_STABLECOINS as configured: token ids and symbols (case-insensitive). */
export interface AnchorConfig {
  ids: number[];
  symbols: string[];
}

export interface OracleSettings {
  nativeTokenId: number;
  /** The anchors named by USD_STABLECOINS; undefined = the chain's own (indexer/anchors.ts). */
  stablecoins: AnchorConfig | undefined;
  minLiquidityUsd: bigint;
}

export interface ResolvedAnchors {
  ids: Set<number>;
  /** Symbols that match several tokens: none of them is used (a copycat must not become 1 USD). */
  ambiguous: Map<string, number[]>;
  /** Symbols no token has (yet). */
  unmatched: string[];
}

export class Market {
  readonly refs = new Map<string, PoolRef>();
  readonly reserves = new Map<string, PoolState>();
  readonly decimals = new Map<number, number>();
  readonly symbols = new Map<number, string>();
  prices = new Map<number, bigint>();

  constructor(
    readonly oracle: OracleSettings,
    readonly anchors: AnchorConfig,
  ) {}

  static async load(db: Database, oracle: OracleSettings, anchors: AnchorConfig, directory: TokenDirectory): Promise<Market> {
    const m = new Market(oracle, anchors);
    const [pools, tokens, prices] = await Promise.all([listPools(db), tokenKeys(db), latestPrices(db)]);
    for (const p of pools) {
      m.setPool({ token0Id: p.token0Id, token1Id: p.token1Id, lpTokenId: p.lpTokenId, account: p.account }, BigInt(p.reserve0), BigInt(p.reserve1));
    }
    for (const t of tokens) {
      m.setToken(t);
      const key: TokenKey | undefined =
        t.kind === "foreign" && t.locationKey ? { kind: "foreign", key: t.locationKey, location: t.location } : t.kind === "asset" && t.assetId !== null ? { kind: "asset", assetId: t.assetId } : undefined;
      if (key) directory.set(t.id, key);
    }
    m.prices = new Map([...prices].map(([id, p]) => [id, parseFixed(p.priceUsd, USD_SCALE)]));
    return m;
  }

  setToken(t: { id: number; decimals: number; symbol: string }): void {
    this.decimals.set(t.id, t.decimals);
    this.symbols.set(t.id, t.symbol);
  }

  deleteToken(id: number): void {
    this.decimals.delete(id);
    this.symbols.delete(id);
  }

  setPool(ref: PoolRef, reserve0: bigint, reserve1: bigint): void {
    const key = poolKey(ref.token0Id, ref.token1Id);
    this.refs.set(key, ref);
    this.reserves.set(key, { token0Id: ref.token0Id, token1Id: ref.token1Id, reserve0, reserve1 });
  }

  /** The anchors' token ids now: configured ids, and symbols that name exactly one token. */
  resolveAnchors(): ResolvedAnchors {
    const ids = new Set(this.anchors.ids);
    const ambiguous = new Map<string, number[]>();
    const unmatched: string[] = [];
    for (const symbol of this.anchors.symbols) {
      const matches = [...this.symbols].filter(([, s]) => s.toLowerCase() === symbol.toLowerCase()).map(([id]) => id);
      if (matches.length === 1) ids.add(matches[0]!);
      else if (matches.length > 1) ambiguous.set(symbol, matches);
      else unmatched.push(symbol);
    }
    return { ids, ambiguous, unmatched };
  }

  /** Recomputes every price; returns those that changed since the last call. */
  reprice(): Map<number, bigint> {
    const next = computePrices({
      pools: this.reserves.values(),
      decimals: this.decimals,
      stablecoins: this.resolveAnchors().ids,
      nativeTokenId: this.oracle.nativeTokenId,
      minLiquidityUsd: this.oracle.minLiquidityUsd,
    });
    const changed = new Map<number, bigint>();
    for (const [id, price] of next) if (this.prices.get(id) !== price) changed.set(id, price);
    for (const [id, price] of next) this.prices.set(id, price);
    return changed;
  }
}
