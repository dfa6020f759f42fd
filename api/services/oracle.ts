/**
 * Many tokens' USD values in one call (GET /oracle/values): each as GET /oracle/value/{id}
 * answers it, in the order asked. A token without a value is an entry with the error that route
 * would answer (TOKEN_NOT_FOUND, PRICE_UNAVAILABLE), not a failure of the whole list.
 */
import { getTokens, latestBlock, latestPriceRows, type Database } from "../../db/index.js";
import { normalizeDecimal } from "../../shared/decimal.js";
import { tokenIdentity } from "./identity.js";
import { priceUnavailable } from "./tokens.js";

/** Tokens one request may ask for. */
export const MAX_ORACLE_IDS = 30;

export async function oracleValues(db: Database, ids: number[]) {
  const [tokens, prices, head] = await Promise.all([getTokens(db, ids), latestPriceRows(db, ids), latestBlock(db)]);
  const byId = new Map(tokens.map((t) => [t.id, t]));
  const values = ids.map((id) => {
    const token = byId.get(id);
    if (!token) {
      return { tokenId: id, symbol: null, kind: null, assetId: null, location: null, valueUsd: null, error: { code: "TOKEN_NOT_FOUND" as const, message: `Token ${id} was not found.` } };
    }
    const price = prices.get(id);
    const identity = { tokenId: token.id, symbol: token.symbol, ...tokenIdentity(token) };
    if (!price || price.priceUsd === null) {
      const err = priceUnavailable(token, price);
      return { ...identity, valueUsd: null, error: { code: "PRICE_UNAVAILABLE" as const, message: err.message } };
    }
    return { ...identity, valueUsd: normalizeDecimal(price.priceUsd), error: null };
  });
  return { values, timestamp: head?.timestamp ?? 0, blockNumber: head?.number ?? 0 };
}
