/**
 * Coverage, stated everywhere history is served (docs/api.md, "Coverage"). One rule: an answer
 * says what the store holds for it (historyFrom, historyGaps, historyComplete), and a bound the
 * request names (a block, a time, a block range) that reaches before historyFrom or into a gap
 * is refused, 404 BLOCK_BEFORE_HISTORY naming what the store holds: never an empty list or a
 * series that looks complete. What the request leaves open is answered from what the store holds.
 */
import { sql } from "drizzle-orm";
import { blockRangeOfTimes, eventCoverage, missingIn, rowsOf, transfersFloor, type BlockRange, type Coverage, type Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";

/**
 * What a history answer is read from: "events" (swaps, candles, prices, supply records: every
 * block's events as the store holds them), "transfers" (events, given up before
 * `tokenpool prune-history --transfers`).
 */
export type HistoryKind = "events" | "transfers" | "state";

export interface KindCoverage extends Coverage {
  kind: HistoryKind;
  /** Where transfers were given up (tokenpool prune-history --transfers). */
  floor: number | undefined;
  /** The first block whose events the store holds (`first` is the snapshot before it for "state"). */
  eventsFrom: number | undefined;
}

/**
 * "state": a series of values as of times (prices, supply and holder counts), which a snapshot
 * gives as well as events: it starts at the block of the snapshot the first events follow (a
 * bootstrap's block is in `blocks` but not in the event ranges), one block before them.
 */
export async function coverageOf(db: Database, kind: HistoryKind): Promise<KindCoverage> {
  const floor = kind === "transfers" ? await transfersFloor(db) : undefined;
  const cov = await eventCoverage(db, floor ?? 0);
  const base = { kind, floor, ...cov, eventsFrom: cov.first?.number };
  if (kind !== "state" || cov.first === undefined || cov.first.number <= 1) return base;
  const [snapshot] = rowsOf<{ timestamp: string | number }>(await db.execute(sql`select timestamp from blocks where number = ${cov.first.number - 1}::bigint`));
  return snapshot === undefined ? base : { ...base, first: { number: cov.first.number - 1, timestamp: Number(snapshot.timestamp) } };
}

/** The fields every history answer carries. */
export function coverageBody(c: Coverage) {
  return {
    historyFrom: c.first?.number ?? null,
    historyFromTime: c.first?.timestamp ?? null,
    historyGaps: c.gaps,
    historyComplete: c.first !== undefined && c.first.number <= 1 && c.gaps.length === 0 && !c.moreGaps,
  };
}

const WHAT: Record<HistoryKind, string> = { events: "events", transfers: "transfers", state: "history" };

function refusal(c: KindCoverage, asked: string, missing: BlockRange): AppError {
  const first = c.first?.number;
  if (c.kind === "transfers" && c.floor !== undefined && missing.fromBlock < c.floor)
    return new AppError("BLOCK_BEFORE_HISTORY", `${asked} reaches before block ${c.floor}: transfers before it were given up (tokenpool prune-history --transfers). The store's transfer history starts at block ${first ?? c.floor}.`);
  if (first === undefined) return new AppError("BLOCK_BEFORE_HISTORY", `${asked}: the store holds no block's ${WHAT[c.kind]} yet.`);
  const range = missing.fromBlock === missing.toBlock ? `block ${missing.fromBlock}` : `blocks ${missing.fromBlock}-${missing.toBlock}`;
  const fill = `\`tokenpool backfill --from ${missing.fromBlock} --to ${Math.min(missing.toBlock, first > missing.fromBlock ? first - 1 : missing.toBlock)}\` against an archive node adds them`;
  if (missing.fromBlock < first) return new AppError("BLOCK_BEFORE_HISTORY", `${asked} reaches before block ${first}, the first whose ${WHAT[c.kind]} the store holds (${range} missing); ${fill}.`);
  return new AppError("BLOCK_BEFORE_HISTORY", `${asked} reaches into a gap in the store's history: it lacks the ${WHAT[c.kind]} of ${range} (skipped by a re-bootstrap, or not backfilled yet); ${fill}.`);
}

/**
 * Refuses (BLOCK_BEFORE_HISTORY) the blocks a request named when the store lacks any of their
 * history of `c.kind`: [lo, hi] when both are named, [lo, the newest] for lo alone, block hi
 * for hi alone (the list goes on below it as far as the store holds, and says so). Blocks after
 * the newest indexed one are not missing, only not indexed yet.
 */
export async function requireBlocks(db: Database, c: KindCoverage, lo: number | undefined, hi: number | undefined, asked: string): Promise<void> {
  if (lo === undefined && hi === undefined) return;
  // Block 0 (genesis) has no events: a store held from block 1 holds the chain's whole history.
  const from = Math.max(1, lo ?? hi!);
  const to = hi ?? Number.MAX_SAFE_INTEGER;
  if (from > to) return;
  if (c.kind === "transfers" && c.floor !== undefined && from < c.floor) throw refusal(c, asked, { fromBlock: from, toBlock: Math.min(to, c.floor - 1) });
  const missing = await missingIn(db, from, to);
  if (missing) throw refusal(c, asked, missing);
}

/** As requireBlocks, for the times a request named (Unix seconds): the blocks of those times. */
export async function requireTimes(db: Database, c: KindCoverage, from: number | undefined, to: number | undefined, asked: string): Promise<void> {
  if (from === undefined && to === undefined) return;
  const r = await blockRangeOfTimes(db, from, to);
  let lo = from === undefined ? undefined : (r.fromBlock ?? 0);
  let hi = to === undefined ? undefined : (r.toBlock ?? Number.MAX_SAFE_INTEGER);
  if (c.kind === "state" && c.first !== undefined && c.eventsFrom !== undefined && c.first.number < c.eventsFrom) {
    // Values as of times: known from the snapshot's time on; the events after it keep them so.
    if (c.first.timestamp === null || (from ?? to!) < c.first.timestamp) throw refusal(c, asked, { fromBlock: 1, toBlock: c.first.number - 1 });
    if (lo !== undefined) lo = Math.max(lo, c.eventsFrom);
    if (hi !== undefined) hi = Math.max(hi, c.eventsFrom);
  }
  await requireBlocks(db, c, lo, hi, asked);
}

/** "The range asked (fromBlock=100, toBlock=300)": the bounds given, for a refusal. */
export function named(bounds: Record<string, number | undefined>): string {
  const given = Object.entries(bounds).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`);
  return `The range asked (${given.join(", ")})`;
}
