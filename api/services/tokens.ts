import { balanceAt, countHolders, tokenAt, tokenWithValue, getToken, holdersAfter, holdersByOffset, latestBlock, latestPrice, type Database, type PriceRow, type Token } from "../../db/index.js";
import { formatFixed, normalizeDecimal, parseFixed, ratio, USD_SCALE, usdValue } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { balanceParts } from "./balance-parts.js";
import { asOfBody, resolveAsOf, type AsOf } from "./as-of.js";
import { tokenIdentity } from "./identity.js";

export async function requireToken(db: Database, id: number): Promise<Token> {
  const token = await getToken(db, id);
  if (!token) throw new AppError("TOKEN_NOT_FOUND", `Token ${id} was not found.`);
  return token;
}

/**
 * The token's current USD value. A token without one — it never had a route above the liquidity
 * floor, or its price expired when its last one fell below it — is PRICE_UNAVAILABLE, never its
 * last known value (that stays in /oracle/history).
 */
export async function oracleValue(db: Database, id: number) {
  const [token, price, head] = await Promise.all([requireToken(db, id), latestPrice(db, id), latestBlock(db)]);
  if (!price || price.priceUsd === null) throw priceUnavailable(token, price);
  return {
    tokenId: token.id,
    symbol: token.symbol,
    ...tokenIdentity(token),
    valueUsd: normalizeDecimal(price.priceUsd),
    timestamp: head?.timestamp ?? 0,
    blockNumber: head?.number ?? price.blockNumber,
  };
}

/** Why a token has no current USD value: it never had one, or it expired at a block. */
export function priceUnavailable(token: Token, price: PriceRow | undefined): AppError {
  const name = `Token ${token.id} (${token.symbol})`;
  return new AppError(
    "PRICE_UNAVAILABLE",
    price
      ? `${name} has no current USD price since block ${price.blockNumber}: every pool route to a USD stablecoin fell below the liquidity floor (ORACLE_MIN_LIQUIDITY_USD) or is gone. Its earlier values are in /oracle/history/${token.id}.`
      : `${name} has no USD price: no pool route above the liquidity floor (ORACLE_MIN_LIQUIDITY_USD) connects it to a USD stablecoin.`,
  );
}

/**
 * A token's metadata, supply and treasury value: now, or as of a block (`at`, `atTime`: its
 * row, price and owner balance there, from token, price and balance history).
 */
export async function assetMetadata(db: Database, id: number, q: AsOf = {}) {
  const past = q.at !== undefined || q.atTime !== undefined;
  const { token, block, priceUsd, ownerBalance } = past ? await metadataAt(db, id, q) : await metadataNow(db, id);
  // The spec types treasuryValue as a string: "0" without a price, and valueUsd (null) says why.
  const valueUsd = priceUsd == null ? null : normalizeDecimal(priceUsd);
  const treasury = valueUsd === null ? 0n : usdValue(ownerBalance, token.decimals, parseFixed(valueUsd, USD_SCALE));
  return {
    tokenId: token.id,
    name: token.name,
    symbol: token.symbol,
    ...tokenIdentity(token),
    totalSupply: normalizeDecimal(token.supply),
    treasuryValue: formatFixed(treasury, USD_SCALE),
    valueUsd,
    decimals: token.decimals,
    owner: token.owner,
    status: token.status,
    blockNumber: token.blockNumber,
    ...(block ? { asOf: asOfBody(block) } : {}),
  };
}

/** The current answer's parts: one statement (tokenWithValue). */
async function metadataNow(db: Database, id: number) {
  const row = await tokenWithValue(db, id);
  if (!row) throw new AppError("TOKEN_NOT_FOUND", `Token ${id} was not found.`);
  return { token: row.token, block: undefined, priceUsd: row.priceUsd, ownerBalance: BigInt(row.ownerBalance) };
}

/** As of a block: the token, its price and its owner's balance from history. */
async function metadataAt(db: Database, id: number, q: AsOf) {
  const block = await resolveAsOf(db, q, "holders");
  const token = await tokenAt(db, id, block.number);
  if (!token) throw new AppError("TOKEN_NOT_FOUND", `Token ${id} did not exist at block ${block.number}.`);
  const [price, owner] = await Promise.all([
    latestPrice(db, id, block.number),
    token.owner ? balanceAt(db, false, id, token.owner, block.number) : Promise.resolve(undefined),
  ]);
  return { token, block, priceUsd: price?.priceUsd ?? null, ownerBalance: BigInt(owner?.balance ?? "0") };
}

export interface HolderQuery {
  page?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

export async function tokenHolders(db: Database, id: number, q: HolderQuery) {
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  const token = await requireToken(db, id);
  const firstRank = after ? after.rank + 1 : ((q.page ?? 1) - 1) * q.limit + 1;
  // A deep page needs the count first: past the middle its anchor is found from the far end.
  const deep = !after && firstRank > 1;
  const counted = deep ? await countHolders(db, id) : undefined;
  const [total, rows] = await Promise.all([
    counted ?? countHolders(db, id),
    after ? holdersAfter(db, id, after, q.limit + 1) : holdersByOffset(db, id, firstRank - 1, q.limit + 1, counted),
  ]);
  const page = rows.slice(0, q.limit);
  const supply = BigInt(token.supply);
  const last = page[page.length - 1];
  return {
    tokenId: token.id,
    page: Math.floor((firstRank - 1) / q.limit) + 1,
    limit: q.limit,
    totalHolders: total,
    totalPages: Math.ceil(total / q.limit),
    holders: page.map((h, i) => ({
      rank: firstRank + i,
      address: h.account,
      balance: normalizeDecimal(h.balance),
      share: formatFixed(ratio(BigInt(h.balance), supply, USD_SCALE), USD_SCALE),
      ...balanceParts(h),
    })),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ balance: normalizeDecimal(last.balance), account: last.account, rank: firstRank + page.length - 1 }) : null,
  };
}
