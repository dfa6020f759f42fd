/**
 * One balance as of a block (GET /accounts/{address}/balances/{id}, …/lp-balances/{lpTokenId}):
 * read from balance history (db/schema/history.ts), exact from the store's history floor to its
 * newest block, refused outside it — never guessed.
 */
import { balanceAt, getToken, poolsAt, poolsByLpToken, tokenAt, type Database } from "../../db/index.js";
import { normalizeDecimal } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { resolveAddress } from "./accounts.js";
import { asOfBody, resolveAsOf, type AsOf } from "./as-of.js";

// cli/snapshot.ts takes resolveAsOf from here (it lived here once).
export { resolveAsOf };

/** A token balance of an account as of a block. */
export async function tokenBalanceAsOf(db: Database, text: string, tokenId: number, q: AsOf) {
  const { address, accountId } = await resolveAddress(db, text);
  const block = await resolveAsOf(db, q, "holders");
  const [now, then, found] = await Promise.all([getToken(db, tokenId), tokenAt(db, tokenId, block.number), balanceAt(db, false, tokenId, address, block.number)]);
  // As /assets/metadata and snapshots answer: a token that did not exist at the block (not yet
  // created, or destroyed and never held since) is not found there. One destroyed at or before
  // the block still answers the 0 it left, from its history.
  if (!then && !found) throw new AppError("TOKEN_NOT_FOUND", now ? `Token ${tokenId} did not exist at block ${block.number}.` : `Token ${tokenId} was not found.`);
  return {
    address,
    accountId,
    tokenId,
    symbol: then?.symbol ?? null,
    decimals: then?.decimals ?? null,
    balance: normalizeDecimal(found?.balance ?? "0"),
    asOf: asOfBody(block),
    recordedAt: found?.blockNumber ?? null,
  };
}

/** An LP token balance (a pool position) of an account as of a block. */
export async function lpBalanceAsOf(db: Database, text: string, lpTokenId: number, q: AsOf) {
  const { address, accountId } = await resolveAddress(db, text);
  const block = await resolveAsOf(db, q, "lp");
  const [[pool], found] = await Promise.all([poolsByLpToken(db, [lpTokenId]), balanceAt(db, true, lpTokenId, address, block.number)]);
  if (!pool && !found) throw new AppError("TOKEN_NOT_FOUND", `LP token ${lpTokenId} was not found.`);
  // A pool created after the block: its LP token did not exist there.
  if (pool && !found && (await poolsAt(db, [pool], block.number)).length === 0) throw new AppError("TOKEN_NOT_FOUND", `LP token ${lpTokenId} did not exist at block ${block.number}: its pool was created later.`);
  return {
    address,
    accountId,
    lpTokenId,
    pool: pool ? { token0Id: pool.token0Id, token1Id: pool.token1Id } : null,
    balance: normalizeDecimal(found?.balance ?? "0"),
    asOf: asOfBody(block),
    recordedAt: found?.blockNumber ?? null,
  };
}
