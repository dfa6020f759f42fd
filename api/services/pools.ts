import {
  findPool,
  findTokensBySymbol,
  getToken,
  latestBlock,
  latestPrices,
  poolStatsNow,
  poolsAt,
  pricesAt,
  reservesAt,
  tokenAt,
  tokensAtIds,
  swapTotals,
  type Database,
  type Pool,
  type PricePoint,
  type Token,
} from "../../db/index.js";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { parseTokenId, TOKEN_ID_RULE } from "../../shared/ids.js";
import { aprPercent, percentChange, poolTvlUsd, spotPrice } from "../../shared/market.js";
import { supplyRefusal } from "./accounts.js";
import { asOfBody, resolveAsOf, type AsOf } from "./as-of.js";
import { tokenIdentity } from "./identity.js";

const DAY = 86_400;
/** What a pair answer reads of a token: a current row, or one from token history. */
type TokenFields = Pick<Token, "id" | "symbol" | "decimals" | "kind" | "assetId" | "location">;
const usd = (v: bigint) => formatFixed(v, USD_SCALE);

function priceOf(prices: Map<number, PricePoint>, id: number): bigint | undefined {
  const p = prices.get(id);
  return p ? parseFixed(p.priceUsd, USD_SCALE) : undefined;
}

/** A pool's TVL (poolTvlUsd): its priced sides, each once; a side whose token is unknown counts 0. */
export function tvl(pool: Pick<Pool, "token0Id" | "token1Id" | "reserve0" | "reserve1">, tokens: Map<number, Pick<Token, "decimals">>, prices: Map<number, PricePoint>): bigint {
  const side = (id: number, reserve: string) => {
    const t = tokens.get(id);
    return { reserve: BigInt(reserve), decimals: t?.decimals ?? 0, priceUsd: t ? priceOf(prices, id) : undefined };
  };
  return poolTvlUsd(side(pool.token0Id, pool.reserve0), side(pool.token1Id, pool.reserve1));
}

/** The 24 h window ending at the newest indexed block (live or catching up alike). */
export async function window(db: Database) {
  const head = await latestBlock(db);
  return head ? { head, range: { from: head.timestamp - DAY, to: head.timestamp } } : undefined;
}

/** The totals over all pools now, in one statement (poolStatsNow): a read without a transaction. */
export async function aggregatePoolStats(db: Database) {
  const now = await poolStatsNow(db);
  return {
    totalPools: now.pools,
    totalValueLocked: usd(BigInt(now.tvl)),
    volume24h: usd(parseFixed(now.volumeUsd, USD_SCALE)),
    fees24h: usd(parseFixed(now.feeUsd, USD_SCALE)),
    swaps24h: now.swaps,
    blockNumber: now.head?.number ?? null,
    timestamp: now.head?.timestamp ?? null,
  };
}

/** Token ids an AMBIGUOUS_TOKEN message names at most (a symbol may be shared by thousands of assets). */
const AMBIGUOUS_NAMED = 10;

/** A token reference that is an id (resolveTokenRef answers that id's token, or refuses). */
const numericRef = (ref: string): number | undefined => (/^\d+$/.test(ref) ? parseTokenId(ref) : undefined);

/**
 * A pair path segment: a numeric token id, or a symbol (case-insensitive) that must name one token
 * (of the tokens now). With `block`, an id also names a token destroyed since that existed then.
 */
export async function resolveTokenRef(db: Database, ref: string, param: string, asOf?: Promise<{ number: number } | undefined>): Promise<Token> {
  if (/^\d+$/.test(ref)) {
    const id = parseTokenId(ref);
    if (id === undefined) throw new AppError("VALIDATION_ERROR", `Invalid path parameter "${param}": a token id ${TOKEN_ID_RULE}.`);
    const current = await getToken(db, id);
    if (current) return current;
    const block = await asOf;
    const then = block && (await tokenAt(db, id, block.number));
    if (!then) throw new AppError("TOKEN_NOT_FOUND", block === undefined ? `Token ${id} was not found.` : `Token ${id} did not exist at block ${block.number} (nor does it now).`);
    return then;
  }
  // One more than the ids an answer names: enough to tell "these" from "these and more".
  const matches = await findTokensBySymbol(db, ref, AMBIGUOUS_NAMED + 1);
  if (matches.length === 0) throw new AppError("TOKEN_NOT_FOUND", `No token has the symbol "${ref}".`);
  if (matches.length > 1) {
    const ids = matches.slice(0, AMBIGUOUS_NAMED).map((t) => t.id).join(", ");
    const more = matches.length > AMBIGUOUS_NAMED ? " and more" : "";
    throw new AppError("AMBIGUOUS_TOKEN", `The symbol "${ref}" is shared by tokens ${ids}${more}; use a token id instead.`);
  }
  return matches[0] as Token;
}

/**
 * One pair, oriented as asked: now, or as of a block (`at`, `atTime`) — the pool as read at or
 * before it (pool history: reserves, LP supply, fee), the tokens and prices as of it, and the 24 h
 * window ending at it. A pair whose pool did not exist yet at the block is POOL_NOT_FOUND.
 */
export async function pairStats(db: Database, refA: string, refB: string, q: AsOf = {}) {
  // The pool, and as of a block its row and the tokens then, for two token ids at a block number.
  const lookups = (idA: number, idB: number, at: number | undefined) =>
    Promise.all([
      findPool(db, idA, idB),
      // Either orientation: the pool's own is known from `findPool`.
      at !== undefined ? poolsAt(db, [{ token0Id: idA, token1Id: idB }, { token0Id: idB, token1Id: idA }], at) : Promise.resolve([]),
      at !== undefined ? tokensAtIds(db, [idA, idB], at) : Promise.resolve([]),
      // Now, the 24 h window ends at the newest block.
      at !== undefined ? Promise.resolve(undefined) : window(db),
    ]);
  // Asked by ids (and by block number, or now), these are known before the block and the tokens
  // are checked, so they are read with them: one round trip instead of two. Unused when either
  // check refuses.
  const ids = [numericRef(refA), numericRef(refB)];
  const early = ids[0] !== undefined && ids[1] !== undefined && ids[0] !== ids[1] && q.atTime === undefined ? lookups(ids[0], ids[1], q.at) : undefined;
  early?.catch(() => {});
  // The block and the two tokens are looked up at once (the block's refusal, if any, comes first).
  const asOf = q.at !== undefined || q.atTime !== undefined ? resolveAsOf(db, q, ["holders", "lp"]) : Promise.resolve(undefined);
  const refs = Promise.all([resolveTokenRef(db, refA, "tokenA", asOf), resolveTokenRef(db, refB, "tokenB", asOf)]);
  asOf.catch(() => {});
  refs.catch(() => {});
  const block = await asOf;
  const [currentA, currentB] = await refs;
  if (currentA.id === currentB.id) throw new AppError("VALIDATION_ERROR", `Invalid path parameter "tokenB": the two tokens of a pair must differ.`);
  const named = `${currentA.symbol || currentA.id}/${currentB.symbol || currentB.id}`;
  const [found, states, tokensThen, now] = await (early ?? lookups(currentA.id, currentB.id, block?.number));
  if (!found) throw new AppError("POOL_NOT_FOUND", `No pool exists for ${named}.`);
  let pool: Pool = found;
  let a: TokenFields = currentA;
  let b: TokenFields = currentB;
  if (block) {
    const then = states.find((r) => r.token0Id === found.token0Id && r.token1Id === found.token1Id);
    if (!then) throw new AppError("POOL_NOT_FOUND", `No pool existed for ${named} at block ${block.number}.`);
    if (then.lpSupply === null || then.lpFeePpm === null) throw await supplyRefusal(db, found, block.number);
    pool = { ...found, reserve0: then.reserve0, reserve1: then.reserve1, lpSupply: then.lpSupply, lpFeePpm: then.lpFeePpm, blockNumber: then.blockNumber };
    const byId = new Map(tokensThen.map((t) => [t.id, t]));
    const at = (t: TokenFields) => {
      const row = byId.get(t.id);
      if (!row) throw new AppError("TOKEN_NOT_FOUND", `Token ${t.id} did not exist at block ${block.number}.`);
      return row;
    };
    a = at(currentA);
    b = at(currentB);
  }
  const flipped = pool.token0Id !== a.id;
  const reserveA = BigInt(flipped ? pool.reserve1 : pool.reserve0);
  const reserveB = BigInt(flipped ? pool.reserve0 : pool.reserve1);
  const w = block ? { head: block, range: { from: block.timestamp - DAY, to: block.timestamp } } : now;
  const [prices, totals, then] = await Promise.all([
    block ? pricesAt(db, [a.id, b.id], block.number) : latestPrices(db, [a.id, b.id]),
    w ? swapTotals(db, w.range, pool) : Promise.resolve({ volumeUsd: "0", feeUsd: "0", swaps: 0 }),
    w ? reservesAt(db, pool, w.range.from) : Promise.resolve(undefined),
  ]);
  const tokens = new Map([[a.id, a], [b.id, b]]);
  const tvlUsd = tvl(pool, tokens, prices);
  const price = spotPrice(reserveA, a.decimals, reserveB, b.decimals);
  const priceThen = then
    ? spotPrice(BigInt(flipped ? then.reserve1 : then.reserve0), a.decimals, BigInt(flipped ? then.reserve0 : then.reserve1), b.decimals)
    : 0n;
  const fees = parseFixed(totals.feeUsd, USD_SCALE);
  const side = (t: TokenFields, reserve: bigint) => {
    const p = priceOf(prices, t.id);
    return { tokenId: t.id, symbol: t.symbol, decimals: t.decimals, ...tokenIdentity(t), reserve: reserve.toString(), priceUsd: p === undefined ? null : usd(p) };
  };
  return {
    tokenA: side(a, reserveA),
    tokenB: side(b, reserveB),
    price: usd(price),
    totalValueLocked: usd(tvlUsd),
    volume24h: usd(parseFixed(totals.volumeUsd, USD_SCALE)),
    fees24h: usd(fees),
    swaps24h: totals.swaps,
    priceChange24h: usd(percentChange(price, priceThen)),
    apr: usd(aprPercent(fees, tvlUsd)),
    lpTokenId: pool.lpTokenId,
    lpSupply: pool.lpSupply,
    feeRate: formatFixed(BigInt(pool.lpFeePpm), 6),
    blockNumber: w?.head.number ?? pool.blockNumber,
    timestamp: w?.head.timestamp ?? null,
    ...(block ? { asOf: asOfBody(block) } : {}),
  };
}
