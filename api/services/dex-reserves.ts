/**
 * A pool's reserves after each of its events (the DEX Screener adapter's `reserves`). The store
 * keeps the reserves read from chain storage after each block that changed a pool, not after
 * each event; within a block they are derived, and only where that is exact:
 *
 * - the pool's last event of a block gets that block's reserves as read (exact by definition);
 * - its earlier events get the reserves before the block (the pool's previous row, or zero in
 *   its creation block) moved by each event's amounts in turn — kept only when that walk ends on
 *   the reserves read after the block. Anything else that moved the pool's balances in the
 *   block (tokens sent straight to the pool account, an event the store skipped) breaks the
 *   equality, and then those events carry no reserves, as the spec allows.
 */
import type { PoolEvent, ReservesRow } from "../../db/index.js";

export type Reserves = readonly [bigint, bigint];

const keyOf = (p: { token0Id: number; token1Id: number }) => `${p.token0Id}-${p.token1Id}`;

/** What an event moves into (+) or out of (−) its pool, token0 then token1. */
export function deltaOf(e: PoolEvent): Reserves {
  if (e.kind === "swap") {
    const into = BigInt(e.amountIn ?? 0);
    const out = BigInt(e.amountOut ?? 0);
    return e.tokenIn === e.token0Id ? [into, -out] : [-out, into];
  }
  const sign = e.kind === "add" ? 1n : -1n;
  return [sign * BigInt(e.amount0 ?? 0), sign * BigInt(e.amount1 ?? 0)];
}

/**
 * Reserves after each event of `events` (chain order) that they are known exactly for.
 * `rows`: each pool's reserves rows of the events' blocks and its newest row before them, oldest
 * first; `created`: the block each pool was created in.
 */
export function reservesAfter(events: PoolEvent[], rows: ReservesRow[], created: Map<string, number>): Map<PoolEvent, Reserves> {
  const history = new Map<string, ReservesRow[]>();
  for (const r of rows) {
    const list = history.get(keyOf(r)) ?? [];
    list.push(r);
    history.set(keyOf(r), list);
  }
  const groups = new Map<string, PoolEvent[]>();
  for (const e of events) {
    const key = `${keyOf(e)}@${e.blockNumber}`;
    const group = groups.get(key) ?? [];
    group.push(e);
    groups.set(key, group);
  }
  const out = new Map<PoolEvent, Reserves>();
  for (const group of groups.values()) {
    const first = group[0]!;
    const list = history.get(keyOf(first)) ?? [];
    const end = list.find((r) => r.blockNumber === first.blockNumber);
    if (!end) continue;
    const after: Reserves = [BigInt(end.reserve0), BigInt(end.reserve1)];
    const before = reservesBefore(list, first.blockNumber, created.get(keyOf(first)));
    const walked = before && walk(group, before);
    if (walked && walked[walked.length - 1]![0] === after[0] && walked[walked.length - 1]![1] === after[1]) group.forEach((e, i) => out.set(e, walked[i]!));
    else out.set(group[group.length - 1]!, after);
  }
  return out;
}

/** The reserves before block `block`: the newest row before it, or zero in the pool's creation block. */
function reservesBefore(list: ReservesRow[], block: number, createdBlock: number | undefined): Reserves | undefined {
  let prev: ReservesRow | undefined;
  for (const r of list) if (r.blockNumber < block) prev = r;
  if (prev) return [BigInt(prev.reserve0), BigInt(prev.reserve1)];
  return createdBlock === block ? [0n, 0n] : undefined;
}

function walk(group: PoolEvent[], start: Reserves): Reserves[] {
  let [r0, r1] = start;
  return group.map((e) => {
    const [d0, d1] = deltaOf(e);
    r0 += d0;
    r1 += d1;
    return [r0, r1] as const;
  });
}
