import {
  ACCOUNT_ROWS,
  holdingsAt,
  poolsAt,
  poolSupplyFrom,
  pricesAt,
  tokensAtIds,
  type Holder,
  type Pool,
  type PricePoint,
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
import type { tokenHistory } from "../../db/schema/index.js";
import { AppError } from "../../shared/errors.js";
import { balanceParts } from "./balance-parts.js";
import { asOfBody, resolveAsOf, type AsOf } from "./as-of.js";
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
export async function resolveAddress(db: Database, text: string, param = "address", where: "path" | "query" = "path") {
  return canonicalAddress(text, await chainSs58(db), param, where);
}

const usd = (v: bigint) => formatFixed(v, USD_SCALE);

/** A holding as the portfolio values it: a balance, with its parts when the answer is current. */
type Holding = { tokenId: number; balance: string; blockNumber: number } & Partial<Pick<Holder, "free" | "reserved" | "frozen" | "transferable" | "status">>;
type PoolState = { lpTokenId: number; token0Id: number; token1Id: number; reserve0: string; reserve1: string; lpSupply: string };

/** Everything a portfolio is made of, read now or as of a block. */
interface Holdings {
  holdings: Holding[];
  positions: Array<{ lpTokenId: number; balance: string; blockNumber: number }>;
  block: { number: number; timestamp: number; historyFrom?: number } | undefined;
  asOf: boolean;
  /** The pools of `positions`, by LP token id (as of the block). */
  pools(lpTokenIds: number[]): Promise<Map<number, PoolState>>;
  tokens(ids: number[]): Promise<Array<Token | (typeof tokenHistory.$inferSelect)>>;
  prices(ids: number[]): Promise<Map<number, PricePoint>>;
}

async function holdingsNow(db: Database, address: string): Promise<Holdings> {
  const [holdings, positions, head] = await Promise.all([accountHoldings(db, address), accountLpPositions(db, address), latestBlock(db)]);
  return {
    holdings,
    positions,
    block: head,
    asOf: false,
    pools: async (ids) => new Map((await poolsByLpToken(db, ids)).map((p) => [p.lpTokenId, p])),
    tokens: (ids) => getTokens(db, ids),
    prices: (ids) => latestPrices(db, ids),
  };
}

/**
 * Holdings as of a block, from balance, token, pool and price history: exact from the history
 * floors (holders and LP positions) on, refused before. Balance parts are not kept in history,
 * so they are null in these answers.
 */
async function holdingsAsOf(db: Database, address: string, q: AsOf): Promise<Holdings> {
  const block = await resolveAsOf(db, q, ["holders", "lp"]);
  const [holdings, positions] = await Promise.all([
    holdingsAt(db, false, address, block.number, ACCOUNT_ROWS + 1),
    holdingsAt(db, true, address, block.number, ACCOUNT_ROWS + 1),
  ]);
  return {
    holdings,
    positions: positions.map(({ tokenId, ...rest }) => ({ lpTokenId: tokenId, ...rest })),
    block,
    asOf: true,
    pools: async (ids) => {
      const current = await poolsByLpToken(db, ids);
      const states = await poolsAt(db, current, block.number);
      const byPair = new Map(states.map((r) => [`${r.token0Id}/${r.token1Id}`, r]));
      const out = new Map<number, PoolState>();
      for (const p of current) {
        const then = byPair.get(`${p.token0Id}/${p.token1Id}`);
        if (!then) continue;
        if (then.lpSupply === null) throw await supplyRefusal(db, p, block.number);
        out.set(p.lpTokenId, { lpTokenId: p.lpTokenId, token0Id: p.token0Id, token1Id: p.token1Id, reserve0: then.reserve0, reserve1: then.reserve1, lpSupply: then.lpSupply });
      }
      return out;
    },
    tokens: (ids) => tokensAtIds(db, ids, block.number),
    prices: (ids) => pricesAt(db, ids, block.number),
  };
}

/** A pool's LP supply as of `block` is not on record (a store indexed before migration 0016). */
export async function supplyRefusal(db: Database, pool: Pick<Pool, "token0Id" | "token1Id">, block: number): Promise<AppError> {
  const from = await poolSupplyFrom(db, pool);
  return new AppError(
    "BLOCK_BEFORE_HISTORY",
    `Block ${block} is before the store's pool history for ${pool.token0Id}/${pool.token1Id}: its LP supply is on record from block ${from ?? "(none yet)"} on (the store was indexed before TokenPool kept it). Earlier blocks need a store bootstrapped at or before them.`,
  );
}

/**
 * What one account holds: every token balance (native, assets, foreign) with its USD value and
 * share of supply, every LP position with the underlying amounts it is worth, and the total.
 * Values are at the newest indexed block — or as of a block (`at`, `atTime`), from history; an
 * unpriced token counts nothing towards the total.
 */
export async function accountPortfolio(db: Database, text: string, q: AsOf = {}) {
  const { address, accountId } = await resolveAddress(db, text);
  const view = q.at !== undefined || q.atTime !== undefined ? await holdingsAsOf(db, address, q) : await holdingsNow(db, address);
  const { holdings, positions, block: head } = view;
  const truncated = holdings.length > ACCOUNT_ROWS || positions.length > ACCOUNT_ROWS;
  const held = holdings.slice(0, ACCOUNT_ROWS);
  const lp = positions.slice(0, ACCOUNT_ROWS);
  const pools = await view.pools(lp.map((p) => p.lpTokenId));
  const ids = [...new Set([...held.map((h) => h.tokenId), ...[...pools.values()].flatMap((p) => [p.token0Id, p.token1Id])])];
  const [tokenRows, prices] = await Promise.all([view.tokens(ids), view.prices(ids)]);
  const tokens = new Map(tokenRows.map((t) => [t.id, t]));
  const priceOf = (id: number) => {
    const p = prices.get(id);
    return p ? parseFixed(p.priceUsd, USD_SCALE) : undefined;
  };
  const valueOf = (t: { id: number; decimals: number }, amount: bigint) => {
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
        ...balanceParts({ free: h.free ?? null, reserved: h.reserved ?? null, frozen: h.frozen ?? null, transferable: h.transferable ?? null, status: h.status ?? null }),
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
    const side = (t: { id: number; symbol: string; decimals: number }, reserve: bigint) => {
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
    ...(view.asOf && head?.historyFrom !== undefined ? { asOf: asOfBody({ ...head, historyFrom: head.historyFrom }) } : {}),
  };
}
