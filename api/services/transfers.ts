/**
 * Transfer lists (GET /accounts/{address}/transfers, GET /assets/{id}/transfers): the rows the
 * indexer keeps of every balance movement (db/schema/transfers.ts), newest first, keyset-paged.
 */
import { accountTransfers, extrinsicHashes, extrinsicKey, getToken, getTokens, lpTokenKnown, poolsByLpToken, timesAsBlocks, TRANSFER_SCAN_ROWS, tokenTransfers, type AccountScanFilter, type Database, type Transfer, type TransferFilter, type TransferPosition } from "../../db/index.js";
import type { TransferKind } from "../../db/schema/transfers.js";
import { normalizeDecimal } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { resolveAddress } from "./accounts.js";
import { coverageBody, coverageOf, named, requireBlocks, requireTimes } from "./coverage.js";

export interface TransferQuery {
  limit: number;
  cursor?: string | undefined;
  tokenId?: number | undefined;
  lpTokenId?: number | undefined;
  kind?: TransferKind | undefined;
  direction?: "in" | "out" | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
  /** Unix seconds (the routes also take them as the deprecated from/to). */
  fromTime?: number | undefined;
  toTime?: number | undefined;
  /** An address in any spelling: only rows between the account and it. */
  counterparty?: string | undefined;
}

function encodeCursor(t: { blockNumber: number; eventIndex: number }): string {
  return Buffer.from(JSON.stringify([t.blockNumber, t.eventIndex])).toString("base64url");
}

function decodeCursor(text: string): { blockNumber: number; eventIndex: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const ok = (v: unknown, max: number) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;
  if (Array.isArray(parsed) && parsed.length === 2 && ok(parsed[0], Number.MAX_SAFE_INTEGER) && ok(parsed[1], 2_147_483_647)) {
    const cursor = { blockNumber: parsed[0] as number, eventIndex: parsed[1] as number };
    // One spelling per position: any other would be one more response-cache key.
    if (encodeCursor(cursor) === text) return cursor;
  }
  throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": not a cursor returned by this endpoint (use nextCursor).');
}

/** The filters as the query takes them, checked before anything is read. */
function filterOf(q: TransferQuery): TransferFilter & AccountScanFilter {
  if (q.fromBlock !== undefined && q.toBlock !== undefined && q.fromBlock > q.toBlock) throw new AppError("VALIDATION_ERROR", 'Invalid query: "fromBlock" is after "toBlock".');
  if (q.fromTime !== undefined && q.toTime !== undefined && q.fromTime > q.toTime) throw new AppError("VALIDATION_ERROR", 'Invalid query: "fromTime" is after "toTime".');
  // A row moves a token or an LP token, never both: together they could only answer an empty list.
  if (q.tokenId !== undefined && q.lpTokenId !== undefined) throw new AppError("VALIDATION_ERROR", 'Invalid query: give "tokenId" or "lpTokenId", not both.');
  const asset = q.tokenId !== undefined ? { tokenId: q.tokenId } : q.lpTokenId !== undefined ? { lpTokenId: q.lpTokenId } : undefined;
  return { asset, kind: q.kind, fromBlock: q.fromBlock, toBlock: q.toBlock, fromTime: q.fromTime, toTime: q.toTime, before: q.cursor === undefined ? undefined : decodeCursor(q.cursor) };
}

const row = (t: Transfer) => ({
  blockNumber: t.blockNumber,
  timestamp: t.timestamp,
  extrinsicIndex: t.extrinsicIndex,
  extrinsicHash: null as string | null,
  eventIndex: t.eventIndex,
  tokenId: t.tokenId,
  lpTokenId: t.lpTokenId,
  from: t.fromAccount,
  to: t.toAccount,
  amount: normalizeDecimal(t.amount),
  kind: t.kind,
  event: t.event,
  valueUsd: t.valueUsd === null ? null : normalizeDecimal(t.valueUsd),
  tip: t.tip === null ? null : normalizeDecimal(t.tip),
});

async function page<T extends ReturnType<typeof row>>(db: Database, rows: Transfer[], limit: number, map: (t: Transfer) => T, stoppedAt?: TransferPosition) {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  // A page that stopped at the scan bound continues below the last row it examined.
  const next = stoppedAt ?? (rows.length > limit ? last : undefined);
  // The page's extrinsic hashes, in one read of block_extrinsics (db/queries/extrinsics.ts).
  const hashes = await extrinsicHashes(db, shown);
  const transfers = shown.map((t) => ({ ...map(t), extrinsicHash: t.extrinsicIndex === null ? null : (hashes.get(extrinsicKey(t.blockNumber, t.extrinsicIndex)) ?? null) }));
  return { transfers, nextCursor: next ? encodeCursor(next) : null };
}

/** What the store holds of transfers; a named bound it does not reach is refused (coverage.ts). */
async function covered(db: Database, q: TransferQuery) {
  const coverage = await coverageOf(db, "transfers");
  await requireBlocks(db, coverage, q.fromBlock, q.toBlock, named({ fromBlock: q.fromBlock, toBlock: q.toBlock }));
  await requireTimes(db, coverage, q.fromTime, q.toTime, named({ fromTime: q.fromTime, toTime: q.toTime }));
  return coverage;
}

/** `scanRows`: how many of the account's rows a page filtered by token examines (TRANSFER_SCAN_ROWS; smaller in tests). */
export async function accountTransferPage(db: Database, text: string, q: TransferQuery, scanRows = TRANSFER_SCAN_ROWS) {
  const asked = filterOf(q);
  const { address, accountId } = await resolveAddress(db, text);
  if (q.counterparty !== undefined) asked.counterparty = (await resolveAddress(db, q.counterparty, "counterparty", "query")).address;
  const coverage = await covered(db, q);
  const found = await timesAsBlocks(db, asked).then((f) => (f ? accountTransfers(db, address, q.direction, f, q.limit + 1, scanRows) : { rows: [] }));
  const listed = await page(db, found.rows, q.limit, (t) => ({ ...row(t), direction: t.fromAccount === address ? (t.toAccount === address ? ("self" as const) : ("out" as const)) : ("in" as const) }), found.stoppedAt);
  const units = await unitsOf(db, listed.transfers);
  return {
    address,
    accountId,
    ...coverageBody(coverage),
    ...listed,
    transfers: listed.transfers.map(({ direction, ...t }) => ({ ...t, ...(t.tokenId === null ? NO_UNITS : (units.get(t.tokenId) ?? NO_UNITS)), direction })),
    partial: found.stoppedAt !== undefined,
  };
}

const NO_UNITS = { symbol: null, decimals: null };

/** Symbol and decimals of the tokens a page's rows move (one lookup for the page): an account's list mixes tokens. */
async function unitsOf(db: Database, rows: Array<{ tokenId: number | null }>): Promise<Map<number, { symbol: string; decimals: number }>> {
  const ids = [...new Set(rows.flatMap((r) => (r.tokenId === null ? [] : [r.tokenId])))];
  return new Map((await getTokens(db, ids)).map((t) => [t.id, { symbol: t.symbol, decimals: t.decimals }]));
}

export async function tokenTransferPage(db: Database, id: number, q: Omit<TransferQuery, "tokenId" | "lpTokenId" | "direction" | "counterparty">) {
  const asked = filterOf(q);
  const token = await getToken(db, id);
  if (!token) throw new AppError("TOKEN_NOT_FOUND", `No token with id ${id} is indexed.`);
  const coverage = await covered(db, q);
  const rows = await timesAsBlocks(db, asked).then((f) => (f ? tokenTransfers(db, { tokenId: id }, f, q.limit + 1) : []));
  return { tokenId: token.id, symbol: token.symbol, decimals: token.decimals, ...coverageBody(coverage), ...(await page(db, rows, q.limit, row)) };
}

/** An LP token's transfers (PoolAssets: mints and burns as liquidity is added and removed, and moves between accounts). */
export async function lpTransferPage(db: Database, id: number, q: Omit<TransferQuery, "tokenId" | "lpTokenId" | "direction" | "counterparty">) {
  const asked = filterOf(q);
  const [[pool], known] = await Promise.all([poolsByLpToken(db, [id]), lpTokenKnown(db, id)]);
  if (!known) throw new AppError("TOKEN_NOT_FOUND", `No LP token with id ${id} is indexed.`);
  const coverage = await covered(db, q);
  const rows = await timesAsBlocks(db, asked).then((f) => (f ? tokenTransfers(db, { lpTokenId: id }, f, q.limit + 1) : []));
  return { lpTokenId: id, pool: pool ? { token0Id: pool.token0Id, token1Id: pool.token1Id } : null, ...coverageBody(coverage), ...(await page(db, rows, q.limit, row)) };
}
