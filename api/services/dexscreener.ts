/**
 * The DEX Screener adapter (DEX Screener Adapter Specs v1.1, Dec 2023; docs/api.md, "DEX
 * Screener adapter"): latest block, asset, pair and events, served from the indexed tables.
 * Amounts, prices and reserves are decimalized strings (amount / 10^decimals), exact.
 */
import { blockTimes, findPool, getTokens, latestEventBlock, missingIn, poolEventsIn, poolsCreated, reservesAround, tokenAt, type Database, type PoolEvent, type Token } from "../../db/index.js";
import { formatFixed, pow10 } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { coverageOf, named, requireBlocks } from "./coverage.js";
import { reservesAfter, type Reserves } from "./dex-reserves.js";
import { requireToken } from "./tokens.js";

/** Blocks one /events request may span: DEX Screener's indexer asks in chunks it can be set to. */
export const MAX_EVENT_BLOCKS = 1_000;
/** Events one answer may hold: a busier range is refused, to be asked in smaller chunks. */
export const MAX_EVENTS = 10_000;
/** The DEX every pair is on: pallet-asset-conversion. */
export const DEX_KEY = "asset-conversion" as const;
/** Digits of a priceNative (the spec's indexer reads up to 50). */
const PRICE_SCALE = 50;

export const pairIdOf = (p: { token0Id: number; token1Id: number }) => `${p.token0Id}-${p.token1Id}`;

async function latestOrFail(db: Database) {
  const head = await latestEventBlock(db);
  if (!head) throw new AppError("BLOCK_NOT_INDEXED", "The store holds no block's events yet.");
  return head;
}

export async function dexLatestBlock(db: Database) {
  const head = await latestOrFail(db);
  return { block: { blockNumber: head.number, blockTimestamp: head.timestamp } };
}

/** A token as an Asset: its name, or its symbol, or its id when the chain gives none (the spec refuses ""). */
export async function dexAsset(db: Database, id: number) {
  const token = await requireToken(db, id);
  const symbol = token.symbol || String(token.id);
  return {
    asset: {
      id: String(token.id),
      name: token.name || symbol,
      symbol,
      totalSupply: formatFixed(BigInt(token.supply), token.decimals),
      metadata: { kind: token.kind, decimals: String(token.decimals) },
    },
  };
}

export async function dexPair(db: Database, id: string) {
  const [a, b] = id.split("-").map(Number) as [number, number];
  const pool = await findPool(db, a, b);
  if (!pool) throw new AppError("POOL_NOT_FOUND", `No pool ${id}: a pair id is "{token0Id}-{token1Id}", the pool's tokens in the chain's order (GET /pool/stats/${a}/${b} names it).`);
  if (pool.token0Id !== a) throw new AppError("POOL_NOT_FOUND", `No pair ${id}: this pool's id is ${pairIdOf(pool)} (its tokens in the chain's order).`);
  // The block the store first saw the pool is its creation block only when the store holds that block's events.
  const [missing, times] = await Promise.all([missingIn(db, pool.createdBlock, pool.createdBlock), blockTimes(db, [pool.createdBlock])]);
  const created = missing === undefined;
  const at = times.get(pool.createdBlock);
  return {
    pair: {
      id: pairIdOf(pool),
      dexKey: DEX_KEY,
      asset0Id: String(pool.token0Id),
      asset1Id: String(pool.token1Id),
      ...(created && at !== undefined ? { createdAtBlockNumber: pool.createdBlock, createdAtBlockTimestamp: at } : {}),
      feeBps: pool.lpFeePpm / 100,
      metadata: { lpTokenId: String(pool.lpTokenId), poolAccount: pool.account },
    },
  };
}

export async function dexEvents(db: Database, fromBlock: number, toBlock: number) {
  if (fromBlock > toBlock) throw new AppError("VALIDATION_ERROR", `fromBlock (${fromBlock}) is after toBlock (${toBlock}).`);
  if (toBlock - fromBlock + 1 > MAX_EVENT_BLOCKS) throw new AppError("VALIDATION_ERROR", `The range spans ${toBlock - fromBlock + 1} blocks; at most ${MAX_EVENT_BLOCKS} a request.`);
  const head = await latestOrFail(db);
  if (toBlock > head.number) throw new AppError("BLOCK_NOT_INDEXED", `Block ${toBlock} is not indexed yet: GET /dexscreener/latest-block says the newest block /events answers (${head.number}).`);
  await requireBlocks(db, await coverageOf(db, "events"), fromBlock, toBlock, named({ fromBlock, toBlock }));
  const rows = await poolEventsIn(db, fromBlock, toBlock, MAX_EVENTS + 1);
  if (rows.length > MAX_EVENTS) throw new AppError("VALIDATION_ERROR", `Blocks ${fromBlock}-${toBlock} hold more than ${MAX_EVENTS} events: ask for fewer blocks (up to block ${rows[MAX_EVENTS]!.blockNumber - 1}).`);
  const pools = [...new Map(rows.map((r) => [pairIdOf(r), { token0Id: r.token0Id, token1Id: r.token1Id }])).values()];
  const [reserveRows, created, decimals] = await Promise.all([reservesAround(db, pools, fromBlock, toBlock), poolsCreated(db, pools), decimalsOf(db, pools, toBlock)]);
  const reserves = reservesAfter(rows, reserveRows, created);
  const events = [];
  let block = -1;
  let ordinal = 0;
  // A swap of credit (a fee paid in an asset, an XCM message's) has no trader: it moves the
  // reserves the next event carries, but is no event of its own.
  for (const e of rows.filter((r) => r.account !== null)) {
    if (e.blockNumber !== block) [block, ordinal] = [e.blockNumber, 0];
    events.push(eventOf(e, ordinal++, decimals, reserves.get(e)));
  }
  return { events };
}

/** The decimals of the pools' tokens: now, or as of `block` for a token since destroyed. */
async function decimalsOf(db: Database, pools: { token0Id: number; token1Id: number }[], block: number): Promise<Map<number, number>> {
  const ids = [...new Set(pools.flatMap((p) => [p.token0Id, p.token1Id]))];
  const found = new Map((await getTokens(db, ids)).map((t: Token) => [t.id, t.decimals]));
  for (const id of ids.filter((i) => !found.has(i))) {
    const past = await tokenAt(db, id, block);
    if (!past) throw new AppError("INTERNAL_ERROR", `Token ${id} of a pool has no metadata in the store.`);
    found.set(id, past.decimals);
  }
  return found;
}

function eventOf(e: PoolEvent, eventIndex: number, decimals: Map<number, number>, after: Reserves | undefined) {
  const d0 = decimals.get(e.token0Id)!;
  const d1 = decimals.get(e.token1Id)!;
  const base = {
    block: { blockNumber: e.blockNumber, blockTimestamp: e.timestamp },
    txnId: e.extrinsicIndex === null ? `${e.blockNumber}-event-${e.eventIndex}` : `${e.blockNumber}-${e.extrinsicIndex}`,
    txnIndex: e.extrinsicIndex ?? e.eventIndex,
    eventIndex,
    maker: e.account!,
    pairId: pairIdOf(e),
  };
  const reserves = after ? { reserves: { asset0: formatFixed(after[0], d0), asset1: formatFixed(after[1], d1) } } : {};
  const metadata = { metadata: { event: `${e.blockNumber}-${e.eventIndex}`, ...(e.hops > 1 ? { hop: `${e.hop + 1} of ${e.hops}` } : {}) } };
  if (e.kind !== "swap") {
    return { ...base, eventType: e.kind === "add" ? ("join" as const) : ("exit" as const), amount0: formatFixed(BigInt(e.amount0!), d0), amount1: formatFixed(BigInt(e.amount1!), d1), ...reserves, ...metadata };
  }
  const inIs0 = e.tokenIn === e.token0Id;
  const amountIn = BigInt(e.amountIn!);
  const amountOut = BigInt(e.amountOut!);
  const [a0, a1] = inIs0 ? [amountIn, amountOut] : [amountOut, amountIn];
  const amounts = inIs0
    ? { asset0In: formatFixed(amountIn, d0), asset1Out: formatFixed(amountOut, d1) }
    : { asset1In: formatFixed(amountIn, d1), asset0Out: formatFixed(amountOut, d0) };
  // asset1 per asset0 in this trade: (a1 / 10^d1) / (a0 / 10^d0).
  const priceNative = formatFixed(a0 === 0n ? 0n : (a1 * pow10(d0 + PRICE_SCALE)) / (a0 * pow10(d1)), PRICE_SCALE);
  return { ...base, eventType: "swap" as const, ...amounts, priceNative, ...reserves, ...metadata };
}
