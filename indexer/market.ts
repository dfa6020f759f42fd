/**
 * The indexer's in-memory view of the market: pools with their reserves, token decimals and
 * the prices last written. It is loaded from the database at every (re)start, so it always
 * equals the committed state plus the blocks of the batch in progress.
 */
import { latestPrices, listPools, tokenDecimals, type Database } from "../db/index.js";
import { parseFixed, USD_SCALE } from "../shared/decimal.js";
import { poolKey } from "./chain/locations.js";
import { computePrices, type PoolState } from "./prices.js";
import type { PoolRef } from "./touched.js";

export interface OracleSettings {
  nativeTokenId: number;
  stablecoins: Set<number>;
  minLiquidityUsd: bigint;
}

export class Market {
  readonly refs = new Map<string, PoolRef>();
  readonly reserves = new Map<string, PoolState>();
  decimals = new Map<number, number>();
  prices = new Map<number, bigint>();

  constructor(readonly oracle: OracleSettings) {}

  static async load(db: Database, oracle: OracleSettings): Promise<Market> {
    const m = new Market(oracle);
    const [pools, decimals, prices] = await Promise.all([listPools(db), tokenDecimals(db), latestPrices(db)]);
    for (const p of pools) {
      m.setPool({ token0Id: p.token0Id, token1Id: p.token1Id, lpTokenId: p.lpTokenId, account: p.account }, BigInt(p.reserve0), BigInt(p.reserve1));
    }
    m.decimals = decimals;
    m.prices = new Map([...prices].map(([id, p]) => [id, parseFixed(p.priceUsd, USD_SCALE)]));
    return m;
  }

  setPool(ref: PoolRef, reserve0: bigint, reserve1: bigint): void {
    const key = poolKey(ref.token0Id, ref.token1Id);
    this.refs.set(key, ref);
    this.reserves.set(key, { token0Id: ref.token0Id, token1Id: ref.token1Id, reserve0, reserve1 });
  }

  /** Recomputes every price; returns those that changed since the last call. */
  reprice(): Map<number, bigint> {
    const next = computePrices({
      pools: this.reserves.values(),
      decimals: this.decimals,
      stablecoins: this.oracle.stablecoins,
      nativeTokenId: this.oracle.nativeTokenId,
      minLiquidityUsd: this.oracle.minLiquidityUsd,
    });
    const changed = new Map<number, bigint>();
    for (const [id, price] of next) if (this.prices.get(id) !== price) changed.set(id, price);
    for (const [id, price] of next) this.prices.set(id, price);
    return changed;
  }
}
