/**
 * One balance as of a block (GET /accounts/{address}/balances/{id}, …/lp-balances/{lpTokenId}):
 * read from balance history (db/schema/history.ts), exact from the store's history floor to its
 * newest block, refused outside it — never guessed.
 */
import { sql } from "drizzle-orm";
import { balanceAt, getToken, historyFloor, latestBlock, poolsByLpToken, rowsOf, type Database, type HistoryKind } from "../../db/index.js";
import { normalizeDecimal } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { resolveAddress } from "./accounts.js";

export interface AsOf {
  /** A block number (`?at=`). */
  at?: number | undefined;
  /** Unix seconds (`?atTime=`): the last block at or before it. */
  atTime?: number | undefined;
  /** Where the two came from, for the message when both are given (default: the query). */
  field?: "query" | "body";
}

/**
 * The indexed block an `?at=` / `?atTime=` names (the newest without either), checked against the
 * history of `kind` (of each kind given: the answer needs all of them, so the latest floor).
 */
export async function resolveAsOf(db: Database, q: AsOf, kind: HistoryKind | HistoryKind[]): Promise<{ number: number; timestamp: number }> {
  if (q.at !== undefined && q.atTime !== undefined) throw new AppError("VALIDATION_ERROR", `Invalid ${q.field ?? "query"}: give "${q.field === "body" ? "block" : "at"}" (a block) or "atTime" (Unix seconds), not both.`);
  const kinds = typeof kind === "string" ? [kind] : kind;
  const [head, ...floors] = await Promise.all([latestBlock(db), ...kinds.map((k) => historyFloor(db, k))]);
  const floor = floors.some((f) => f === undefined) ? undefined : Math.max(...(floors as number[]));
  if (!head || floor === undefined) throw new AppError("BLOCK_BEFORE_HISTORY", "The store has no balance history yet: it starts with the indexer's first complete snapshot, which has not finished.");
  const refuseBefore = (what: string) =>
    new AppError(
      "BLOCK_BEFORE_HISTORY",
      `${what} is before the store's balance history, which starts at block ${floor} (its first complete snapshot). Balances as of earlier blocks need a store bootstrapped at or before that block; a backfill adds swaps, prices and transfers, not balances.`,
    );
  if (q.at !== undefined) {
    if (q.at > head.number) throw new AppError("BLOCK_NOT_INDEXED", `Block ${q.at} is not indexed yet: the store's newest block is ${head.number}.`);
    if (q.at < floor) throw refuseBefore(`Block ${q.at}`);
    const [row] = rowsOf<{ timestamp: string | number }>(await db.execute(sql`select timestamp from blocks where number = ${q.at}`));
    if (!row) throw refuseBefore(`Block ${q.at}`);
    return { number: q.at, timestamp: Number(row.timestamp) };
  }
  if (q.atTime !== undefined) {
    if (q.atTime > head.timestamp) throw new AppError("BLOCK_NOT_INDEXED", `Time ${q.atTime} is after the store's newest block (${head.number}, at ${head.timestamp}): a later block could still be the last one at or before it.`);
    const [row] = rowsOf<{ number: string | number; timestamp: string | number }>(
      await db.execute(sql`select number, timestamp from blocks where timestamp <= ${q.atTime} order by timestamp desc, number desc limit 1`),
    );
    if (!row || Number(row.number) < floor) throw refuseBefore(`Time ${q.atTime}${row ? ` (block ${row.number})` : ""}`);
    return { number: Number(row.number), timestamp: Number(row.timestamp) };
  }
  return { number: head.number, timestamp: head.timestamp };
}

const asOfBody = (b: { number: number; timestamp: number }) => ({ blockNumber: b.number, timestamp: b.timestamp });

/** A token balance of an account as of a block. */
export async function tokenBalanceAsOf(db: Database, text: string, tokenId: number, q: AsOf) {
  const { address, accountId } = await resolveAddress(db, text);
  const block = await resolveAsOf(db, q, "holders");
  const [token, found] = await Promise.all([getToken(db, tokenId), balanceAt(db, false, tokenId, address, block.number)]);
  // A token gone now (destroyed) still answers for the blocks it has history at.
  if (!token && !found) throw new AppError("TOKEN_NOT_FOUND", `Token ${tokenId} was not found.`);
  return {
    address,
    accountId,
    tokenId,
    symbol: token?.symbol ?? null,
    decimals: token?.decimals ?? null,
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
