/**
 * Coverage, stated everywhere history is served (docs/api.md, "Coverage"). One rule: an answer
 * says what the store holds for it (historyFrom, historyGaps, historyComplete), and a bound the
 * request names (a block, a time, a block range) that reaches before historyFrom or into a gap
 * is refused, 404 BLOCK_BEFORE_HISTORY naming what the store holds: never an empty list or a
 * series that looks complete. What the request leaves open is answered from what the store holds.
 */
import { sql } from "drizzle-orm";
import { blockRangeOfTimes, eventCoverage, historyFloor, missingIn, rowsOf, transfersFloor, type BlockRange, type Coverage, type Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";

/**
 * What a history answer is read from: "events" (swaps, candles, prices: every block's events),
 * "transfers" (events, and given up before `tokenpool prune-history --transfers`), "balances"
 * (supply and holder counts: state, exact from the balance history floor on).
 */
export type HistoryKind = "events" | "transfers" | "balances";

export interface KindCoverage extends Coverage {
  kind: HistoryKind;
  /** Where history was given up or starts by design (the pruned transfers' floor, the balance floor). */
  floor: number | undefined;
}

export async function coverageOf(db: Database, kind: HistoryKind): Promise<KindCoverage> {
  const floor = kind === "transfers" ? await transfersFloor(db) : kind === "balances" ? await historyFloor(db, "holders") : undefined;
  if (kind !== "balances") return { kind, floor, ...(await eventCoverage(db, floor ?? 0)) };
  if (floor === undefined) return { kind, floor, first: undefined, last: undefined, gaps: [], moreGaps: false };
  // The floor is a snapshot (the state at its end): the series starts there, and the events
  // after it are what keep it exact (their gaps are its gaps).
  const [cov, [time]] = await Promise.all([
    eventCoverage(db, floor + 1),
    db.execute(sql`select timestamp from blocks where number = ${floor}::bigint`).then((r) => rowsOf<{ timestamp: string | number }>(r)),
  ]);
  return { kind, floor, ...cov, first: { number: floor, timestamp: time === undefined ? null : Number(time.timestamp) } };
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

const WHAT: Record<HistoryKind, string> = { events: "events", transfers: "transfers", balances: "supply and holder counts" };

function refusal(c: KindCoverage, asked: string, missing: BlockRange): AppError {
  const first = c.first?.number;
  if (c.kind === "transfers" && c.floor !== undefined && missing.fromBlock < c.floor)
    return new AppError("BLOCK_BEFORE_HISTORY", `${asked} reaches before block ${c.floor}: transfers before it were given up (tokenpool prune-history --transfers). The store's transfer history starts at block ${first ?? c.floor}.`);
  if (c.kind === "balances" && (first === undefined || missing.fromBlock < first))
    return new AppError(
      "BLOCK_BEFORE_HISTORY",
      first === undefined
        ? `${asked}: the store has no balance history yet: it starts with the indexer's first complete snapshot, which has not finished.`
        : `${asked} reaches before block ${first}, where the store's ${WHAT.balances} start (its first complete snapshot). Earlier ones need a store bootstrapped at or before that block; a backfill adds events, not balances.`,
    );
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
  let from = lo ?? hi!;
  const to = hi ?? Number.MAX_SAFE_INTEGER;
  if (from > to) return;
  if (c.kind === "transfers" && c.floor !== undefined && from < c.floor) throw refusal(c, asked, { fromBlock: from, toBlock: Math.min(to, c.floor - 1) });
  if (c.kind === "balances") {
    if (c.first === undefined || from < c.first.number) throw refusal(c, asked, { fromBlock: from, toBlock: to });
    // The floor's own state is held; the events after it keep it exact.
    from = Math.max(from, c.first.number + 1);
    if (from > to) return;
  }
  const missing = await missingIn(db, from, to);
  if (missing) throw refusal(c, asked, missing);
}

/** As requireBlocks, for the times a request named (Unix seconds): the blocks of those times. */
export async function requireTimes(db: Database, c: KindCoverage, from: number | undefined, to: number | undefined, asked: string): Promise<void> {
  if (from === undefined && to === undefined) return;
  // A state as of a time is the last block at or before it: known from the floor's time on.
  if (c.kind === "balances" && (c.first?.timestamp == null || (from ?? to!) < c.first.timestamp)) throw refusal(c, asked, { fromBlock: 0, toBlock: 0 });
  const r = await blockRangeOfTimes(db, from, to);
  const lo = from === undefined ? undefined : (r.fromBlock ?? 0);
  const hi = to === undefined ? undefined : (r.toBlock ?? Number.MAX_SAFE_INTEGER);
  await requireBlocks(db, c, c.kind === "balances" && lo !== undefined ? Math.max(lo, c.first!.number) : lo, hi, asked);
}

/** "The range asked (fromBlock=100, toBlock=300)": the bounds given, for a refusal. */
export function named(bounds: Record<string, number | undefined>): string {
  const given = Object.entries(bounds).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`);
  return `The range asked (${given.join(", ")})`;
}
