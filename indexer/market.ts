/**
 * The indexer's in-memory view of the market: pools with their reserves, token decimals and
 * symbols, how to read each token, and the prices last written. It is loaded from the database
 * at every (re)start, so it always equals the committed state plus the blocks of the batch in
 * progress.
 */
import { allForeignLocations, latestPrices, listPools, tokenSymbols, type Database } from "../db/index.js";
import { parseFixed, USD_SCALE } from "../shared/decimal.js";
import type { TokenDirectory } from "./chain/directory.js";
import { poolKey } from "./chain/locations.js";
import type { PoolRef } from "./chain/reader.js";
import { computePrices, type PoolState } from "./prices.js";

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
  /**
   * Configured symbols pinned to a token id (see Market.anchorIds). Settings live as long as the
   * process, the market only as long as a connection: pins made before a reconnect hold after it.
   */
  pins?: Map<string, number>;
}

/** What happened to a configured symbol: pinned to a token, or not (yet) usable. */
export type AnchorNotice =
  | { kind: "pinned"; symbol: string; id: number }
  | { kind: "ambiguous"; symbol: string; ids: number[] }
  | { kind: "unmatched"; symbol: string };

export class Market {
  readonly refs = new Map<string, PoolRef>();
  readonly reserves = new Map<string, PoolState>();
  readonly decimals = new Map<number, number>();
  readonly symbols = new Map<number, string>();
  /** Current prices (the last reprice): a token without one has none, never an old one. */
  prices = new Map<number, bigint>();
  /** Configured symbols pinned to the one token that had it when first seen. */
  private readonly pinned: Map<string, number>;
  /** Symbols last reported ambiguous or unmatched, so each state is reported once. */
  private readonly reported = new Map<string, string>();

  constructor(
    readonly oracle: OracleSettings,
    readonly anchors: AnchorConfig,
    private readonly notify: (notice: AnchorNotice) => void = () => {},
  ) {
    this.pinned = oracle.pins ?? new Map();
  }

  static async load(db: Database, oracle: OracleSettings, anchors: AnchorConfig, directory: TokenDirectory, notify?: (notice: AnchorNotice) => void): Promise<Market> {
    const m = new Market(oracle, anchors, notify);
    const [pools, tokens, locations, prices] = await Promise.all([listPools(db), tokenSymbols(db), allForeignLocations(db), latestPrices(db)]);
    for (const p of pools) {
      m.setPool({ token0Id: p.token0Id, token1Id: p.token1Id, lpTokenId: p.lpTokenId, account: p.account }, BigInt(p.reserve0), BigInt(p.reserve1));
    }
    for (const t of tokens) m.setToken(t);
    for (const l of locations) directory.set(l.tokenId, { kind: "foreign", key: l.locationKey, location: l.location }, true);
    // Current prices only: a token whose latest row is null (expired) has none, as after reprice().
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

  /**
   * The anchors' token ids: configured ids, and configured symbols. A symbol is compared exactly
   * (case and all: Polkadot AH has both "USDt" and "USDT"), and pinned to the one token that has
   * it the first time exactly one does; a token that takes the same symbol later (anyone can
   * create an asset called "USDT") changes nothing until a restart, when an ambiguous symbol
   * anchors nothing. Each ambiguous or missing symbol is reported once per state.
   */
  anchorIds(): Set<number> {
    const ids = new Set(this.anchors.ids);
    for (const symbol of this.anchors.symbols) {
      const pinned = this.pinned.get(symbol);
      if (pinned !== undefined) {
        if (this.symbols.has(pinned)) ids.add(pinned);
        continue;
      }
      const matches = [...this.symbols].filter(([, s]) => s === symbol).map(([id]) => id);
      const state = matches.length === 1 ? "pinned" : matches.length > 1 ? `ambiguous:${matches.join(",")}` : "unmatched";
      if (matches.length === 1) {
        this.pinned.set(symbol, matches[0]!);
        ids.add(matches[0]!);
      }
      if (this.reported.get(symbol) === state) continue;
      this.reported.set(symbol, state);
      if (matches.length === 1) this.notify({ kind: "pinned", symbol, id: matches[0]! });
      else if (matches.length > 1) this.notify({ kind: "ambiguous", symbol, ids: matches });
      else this.notify({ kind: "unmatched", symbol });
    }
    return ids;
  }

  /**
   * Recomputes every price; returns those that changed since the last call, null for a token
   * that had a price and has none now (every route fell below the floor, its pools or the token
   * itself are gone): its price expired. `prices` then holds current prices only, so a swap of
   * that block is valued through its other side.
   */
  reprice(): Map<number, bigint | null> {
    const next = computePrices({
      pools: this.reserves.values(),
      decimals: this.decimals,
      stablecoins: this.anchorIds(),
      nativeTokenId: this.oracle.nativeTokenId,
      minLiquidityUsd: this.oracle.minLiquidityUsd,
    });
    const changed = new Map<number, bigint | null>();
    for (const [id, price] of next) if (this.prices.get(id) !== price) changed.set(id, price);
    for (const id of this.prices.keys()) if (!next.has(id)) changed.set(id, null);
    for (const [id, price] of changed) {
      if (price === null) this.prices.delete(id);
      else this.prices.set(id, price);
    }
    return changed;
  }
}
