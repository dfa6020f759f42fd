/**
 * What history the store holds (db/schema/chain.ts, event_ranges): the block ranges whose events
 * it has. Every list and series read from history says this (docs/api.md, "Coverage"): its first
 * block, and the gaps after it (blocks a re-bootstrap skipped, history a backfill has not reached).
 * Reads are a few index seeks on a table of one row per run of blocks, never a scan of blocks.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";

/** Blocks fromBlock..toBlock, both included. */
export interface BlockRange {
  fromBlock: number;
  toBlock: number;
}

/** Gaps an answer lists at most (the newest); a store has one per re-bootstrap or unfinished backfill. */
export const MAX_GAPS = 100;

/** Serializes the merges of event ranges across writers (follower, backfill workers) until commit. */
const EVENT_RANGES_LOCK_KEY = 7_262_023;

/** The runs of consecutive numbers in `numbers` (any order, repeats allowed), ascending. */
export function runsOf(numbers: number[]): BlockRange[] {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: BlockRange[] = [];
  for (const n of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.toBlock + 1 === n) last.toBlock = n;
    else runs.push({ fromBlock: n, toBlock: n });
  }
  return runs;
}

/**
 * The events of `ranges` are in the store: each is merged with the ranges it overlaps or touches,
 * so the table keeps one row per run. The transaction-scoped lock makes concurrent writers merge
 * one after the other (each sees the rows the one before committed): no two rows overlap or
 * touch. A writer calls this last in its transaction, after every other write, so the lock is
 * never held while waiting for another lock.
 */
export async function recordEventRanges(db: Database, ranges: BlockRange[]): Promise<void> {
  if (ranges.length === 0) return;
  await db.execute(sql`select pg_advisory_xact_lock(${EVENT_RANGES_LOCK_KEY})`);
  for (const r of ranges) {
    await db.execute(sql`
      with gone as (
        delete from event_ranges where to_block >= ${r.fromBlock - 1}::bigint and from_block <= ${r.toBlock + 1}::bigint
        returning from_block, to_block
      )
      insert into event_ranges (from_block, to_block)
      select min(from_block), max(to_block) from (select from_block, to_block from gone union all select ${r.fromBlock}::bigint, ${r.toBlock}::bigint) x`);
  }
}

export interface Coverage {
  /** The first block whose events the store holds (at or after `from` when given), with its time; undefined when none. */
  first: { number: number; timestamp: number | null } | undefined;
  /** The last block whose events the store holds. */
  last: number | undefined;
  /** Ranges after `first` whose events the store lacks, newest first, MAX_GAPS at most. */
  gaps: BlockRange[];
  /** More gaps than MAX_GAPS: the oldest are not listed. */
  moreGaps: boolean;
}

type Num = string | number | null;
const num = (v: Num | undefined) => (v === null || v === undefined ? undefined : Number(v));

/**
 * What the store holds: its first event block, its last, and the gaps between (newest first).
 * `from`: history before it is given up (transfers pruned, a balance floor): the answer starts
 * there. Two statements of index seeks: the first range, and the newest MAX_GAPS + 1 ranges.
 */
export async function eventCoverage(db: Database, from = 0): Promise<Coverage> {
  const [head] = rowsOf<{ first: Num; time: Num; last: Num }>(
    await db.execute(sql`
      select f.first, b.timestamp as time, (select to_block from event_ranges order by from_block desc limit 1) as last
      from (select 1) one
      left join lateral (select greatest(from_block, ${from}::bigint) as first from event_ranges where to_block >= ${from}::bigint order by from_block limit 1) f on true
      left join blocks b on b.number = f.first`),
  );
  const first = num(head?.first);
  if (first === undefined) return { first: undefined, last: undefined, gaps: [], moreGaps: false };
  const ranges = rowsOf<{ from_block: Num; to_block: Num }>(
    await db.execute(sql`select from_block, to_block from event_ranges where to_block >= ${first}::bigint order by from_block desc limit ${MAX_GAPS + 1}`),
  ).map((r) => ({ fromBlock: Number(r.from_block), toBlock: Number(r.to_block) }));
  const gaps: BlockRange[] = [];
  for (let i = 0; i + 1 < ranges.length; i++) gaps.push({ fromBlock: ranges[i + 1]!.toBlock + 1, toBlock: ranges[i]!.fromBlock - 1 });
  const moreGaps = ranges.length > MAX_GAPS && ranges[ranges.length - 1]!.fromBlock > first;
  return { first: { number: first, timestamp: num(head?.time) ?? null }, last: num(head?.last), gaps, moreGaps };
}

/**
 * The first run of blocks in [lo, hi] whose events the store lacks (before its first event
 * block, or in a gap), or undefined when it holds them all. Blocks after its last event block
 * are not missing but not indexed yet: `hi` is capped there. Three index seeks.
 */
export async function missingIn(db: Database, lo: number, hi: number): Promise<BlockRange | undefined> {
  const [r] = rowsOf<{ from_block: Num; to_block: Num; next: Num; last: Num }>(
    await db.execute(sql`
      select c.from_block, c.to_block,
        (select from_block from event_ranges where from_block > ${lo}::bigint order by from_block limit 1) as next,
        (select to_block from event_ranges order by from_block desc limit 1) as last
      from (select 1) one
      left join lateral (select from_block, to_block from event_ranges where from_block <= ${lo}::bigint order by from_block desc limit 1) c on true`),
  );
  const last = num(r?.last);
  const next = num(r?.next);
  const top = Math.min(hi, last ?? -1);
  if (last === undefined) return { fromBlock: lo, toBlock: hi };
  if (lo > top) return undefined;
  const to = num(r?.to_block);
  // `lo` itself is missing: before the first range, or in the gap after one.
  if (to === undefined || to < lo) return { fromBlock: lo, toBlock: Math.min(hi, (next ?? hi + 1) - 1) };
  if (to >= top) return undefined;
  return { fromBlock: to + 1, toBlock: Math.min(hi, (next ?? hi + 1) - 1) };
}

/** The runs of blocks whose events the store holds that overlap [from, to], ascending. */
export async function eventRangesIn(db: Database, from: number, to: number): Promise<BlockRange[]> {
  return rowsOf<{ from_block: Num; to_block: Num }>(
    await db.execute(sql`select from_block, to_block from event_ranges where to_block >= ${from}::bigint and from_block <= ${to}::bigint order by from_block`),
  ).map((r) => ({ fromBlock: Number(r.from_block), toBlock: Number(r.to_block) }));
}
