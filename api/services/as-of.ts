/**
 * The block an answer is as of (`?at=` / `?atTime=`, or a snapshot's `block` / `atTime`): resolved
 * against the store's history floors and the re-reads still owed, refused where the answer could
 * not be exact yet.
 */
import { asOfBounds, type AsOfBounds, type Database, type HistoryKind } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";

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
 * `kept`: the answer is stored for good (a holder snapshot), so it must be final even at the head.
 */
export async function resolveAsOf(db: Database, q: AsOf, kind: HistoryKind | HistoryKind[], opts: { kept?: boolean } = {}): Promise<AsOfBlock> {
  if (q.at !== undefined && q.atTime !== undefined) throw new AppError("VALIDATION_ERROR", `Invalid ${q.field ?? "query"}: give "${q.field === "body" ? "block" : "at"}" (a block) or "atTime" (Unix seconds), not both.`);
  const kinds = typeof kind === "string" ? [kind] : kind;
  // indexer/reread.ts's task (holders of a token whose accounts were destroyed unnamed), and the
  // verification pass a runtime upgrade owes (indexer/sweep.ts: its migrations announce nothing).
  const bounds = await asOfBounds(db, kinds, q, ["reread", "sweep-upgrade"]);
  const resolved = pick(q, bounds);
  const pending = bounds.task;
  // Until those are done, state from that block on may still be corrected. So an answer as of
  // such a block, or one that is kept (a snapshot), waits; "now" answers as the current rows do.
  const asked = q.at !== undefined || q.atTime !== undefined || opts.kept === true;
  if (asked && pending && resolved.number >= pending.block)
    throw new AppError(
      "BLOCK_NOT_INDEXED",
      `Block ${resolved.number} is not final in the store yet: state from block ${pending.block} on is being verified against chain storage (a runtime upgrade, or accounts changed without events); ask again when /health shows no reread and no verification.upgrade.`,
    );
  // The history floor (an answer says where its history starts: docs/api.md, "Coverage").
  return { ...resolved, historyFrom: bounds.floor! };
}

/** A block an answer is as of, and the first block it could be (the history floor of its kinds). */
export interface AsOfBlock {
  number: number;
  timestamp: number;
  historyFrom: number;
}

function pick(q: AsOf, { head, floor, asked: row }: AsOfBounds): { number: number; timestamp: number } {
  if (!head || floor === undefined) throw new AppError("BLOCK_BEFORE_HISTORY", "The store has no balance history yet: it starts with the indexer's first complete snapshot, which has not finished.");
  const refuseBefore = (what: string) =>
    new AppError(
      "BLOCK_BEFORE_HISTORY",
      `${what} is before the store's balance history, which starts at block ${floor} (its first complete snapshot). Balances as of earlier blocks need a store bootstrapped at or before that block; a backfill adds swaps, prices and transfers, not balances.`,
    );
  if (q.at !== undefined) {
    if (q.at > head.number) throw new AppError("BLOCK_NOT_INDEXED", `Block ${q.at} is not indexed yet: the store's newest block is ${head.number}.`);
    if (q.at < floor) throw refuseBefore(`Block ${q.at}`);
    if (!row) throw refuseBefore(`Block ${q.at}`);
    return row;
  }
  if (q.atTime !== undefined) {
    if (q.atTime > head.timestamp) throw new AppError("BLOCK_NOT_INDEXED", `Time ${q.atTime} is after the store's newest block (${head.number}, at ${head.timestamp}): a later block could still be the last one at or before it.`);
    if (!row || row.number < floor) throw refuseBefore(`Time ${q.atTime}${row ? ` (block ${row.number})` : ""}`);
    return row;
  }
  return { number: head.number, timestamp: head.timestamp };
}

/** The asOf object of an answer (api/schemas.ts AsOf). */
export const asOfBody = (b: AsOfBlock) => ({ blockNumber: b.number, timestamp: b.timestamp, historyFrom: b.historyFrom });
