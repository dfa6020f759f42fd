import {
  ACCOUNT_ROWS,
  accountHoldings,
  accountLpPositions,
  CHAIN_TASK,
  getTask,
  getTokens,
  latestBlock,
  latestPrices,
  poolsByLpToken,
  type ChainInfo,
  type Database,
  type Token,
} from "../../db/index.js";
import { canonicalAddress } from "../../shared/address.js";
import { formatFixed, parseFixed, ratio, USD_SCALE, usdValue } from "../../shared/decimal.js";
import { balanceParts } from "./balance-parts.js";
import { tokenIdentity } from "./identity.js";

/** The prefix of a chain whose indexer has not said (no store yet): the generic Substrate one. */
const GENERIC_SS58 = 42;
const known = new WeakMap<Database, number>();

/** The SS58 prefix of the indexed chain (written by the indexer; it never changes for a store). */
export async function chainSs58(db: Database): Promise<number> {
  const cached = known.get(db);
  if (cached !== undefined) return cached;
  const info = await getTask<ChainInfo>(db, CHAIN_TASK);
  if (!info) return GENERIC_SS58;
  known.set(db, info.ss58);
  return info.ss58;
}

/** An address in any prefix (or hex) as the store keeps it: SS58 in the chain's prefix. */
export async function resolveAddress(db: Database, text: string, param = "address") {
  return canonicalAddress(text, await chainSs58(db), param);
}

const usd = (v: bigint) => formatFixed(v, USD_SCALE);

/**
 * What one account holds: every token balance (native, assets, foreign) with its USD value and
 * share of supply, every LP position with the underlying amounts it is worth, and the total.
 * Values are at the newest indexed block; an unpriced token counts nothing towards the total.
 */
export async function accountPortfolio(db: Database, text: string) {
  const { address, accountId } = await resolveAddress(db, text);
  const [holdings, positions, head] = await Promise.all([accountHoldings(db, address), accountLpPositions(db, address), latestBlock(db)]);
  const truncated = holdings.length > ACCOUNT_ROWS || positions.length > ACCOUNT_ROWS;
  const held = holdings.slice(0, ACCOUNT_ROWS);
  const lp = positions.slice(0, ACCOUNT_ROWS);
  const pools = new Map((await poolsByLpToken(db, lp.map((p) => p.lpTokenId))).map((p) => [p.lpTokenId, p]));
  const ids = [...new Set([...held.map((h) => h.tokenId), ...[...pools.values()].flatMap((p) => [p.token0Id, p.token1Id])])];
  const [tokenRows, prices] = await Promise.all([getTokens(db, ids), latestPrices(db, ids)]);
  const tokens = new Map(tokenRows.map((t) => [t.id, t]));
  const priceOf = (id: number) => {
    const p = prices.get(id);
    return p ? parseFixed(p.priceUsd, USD_SCALE) : undefined;
  };
  const valueOf = (t: Token, amount: bigint) => {
    const p = priceOf(t.id);
    return p === undefined ? undefined : usdValue(amount, t.decimals, p);
  };
  let total = 0n;

  const tokenRowsOut = held.flatMap((h) => {
    const t = tokens.get(h.tokenId);
    if (!t) return [];
    const balance = BigInt(h.balance);
    const value = valueOf(t, balance);
    if (value !== undefined) total += value;
    return [
      {
        tokenId: t.id,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        ...tokenIdentity(t),
        balance: balance.toString(),
        valueUsd: value === undefined ? null : usd(value),
        share: usd(ratio(balance, BigInt(t.supply), USD_SCALE)),
        ...balanceParts(h),
        blockNumber: h.blockNumber,
        sortValue: value ?? -1n,
      },
    ];
  });

  const lpOut = lp.flatMap((position) => {
    const pool = pools.get(position.lpTokenId);
    const t0 = pool && tokens.get(pool.token0Id);
    const t1 = pool && tokens.get(pool.token1Id);
    if (!pool || !t0 || !t1) return [];
    const balance = BigInt(position.balance);
    const supply = BigInt(pool.lpSupply);
    const side = (t: Token, reserve: bigint) => {
      const amount = supply === 0n ? 0n : (reserve * balance) / supply;
      const value = valueOf(t, amount);
      return { tokenId: t.id, symbol: t.symbol, decimals: t.decimals, amount: amount.toString(), valueUsd: value === undefined ? null : usd(value), value };
    };
    const a = side(t0, BigInt(pool.reserve0));
    const b = side(t1, BigInt(pool.reserve1));
    const value = (a.value ?? 0n) + (b.value ?? 0n);
    total += value;
    const strip = ({ value: _, ...rest }: typeof a) => rest;
    return [
      {
        lpTokenId: pool.lpTokenId,
        pool: `${t0.symbol || t0.id}/${t1.symbol || t1.id}`,
        balance: balance.toString(),
        lpSupply: supply.toString(),
        share: usd(ratio(balance, supply, USD_SCALE)),
        tokenA: strip(a),
        tokenB: strip(b),
        valueUsd: usd(value),
        blockNumber: position.blockNumber,
        sortValue: value,
      },
    ];
  });

  const byValue = <T extends { sortValue: bigint }>(rows: T[]) => rows.sort((x, y) => (x.sortValue > y.sortValue ? -1 : x.sortValue < y.sortValue ? 1 : 0)).map(({ sortValue: _, ...r }) => r);
  return {
    address,
    accountId,
    tokens: byValue(tokenRowsOut),
    lpPositions: byValue(lpOut),
    totalValueUsd: usd(total),
    truncated,
    blockNumber: head?.number ?? null,
    timestamp: head?.timestamp ?? null,
  };
}
