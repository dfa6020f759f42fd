/**
 * Keeps a recent process.nextTick queue entry (a "TickObject") alive for the life of the
 * process, so that a cached answer keeps costing what it costs on a fresh process.
 *
 * Why: each nextTick call builds `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`
 * (Node 24 adds the async context frame), an object literal whose keys are computed, so nothing
 * holds its hidden classes (maps) but the TickObjects themselves: V8 keeps map transitions, and
 * the type feedback of the literal's stores, weakly. A server that goes quiet for a few seconds
 * runs full GCs with no TickObject alive (V8 collects an idle process's heap); the maps die,
 * nextTick's optimized code is thrown away with them and re-optimized from the feedback the GC
 * cleared: generic stores (`Runtime_DefineKeyedOwnPropertyInLiteral`), for as long as the
 * process lives. Measured on Node 20 (the bench's `/oracle/value`, 137 B): a nextTick took
 * ≈ 25 ns on a fresh API and 200–400 ns once it had idled 15 s; an answer makes ten of them
 * (Node's own request and response streams), so a cached answer cost 15–17 µs of CPU instead of
 * 12.5–13 µs, and the API answered 77–80 % of bare Hono's throughput instead of 95–97 %.
 *
 * A kept TickObject keeps its map, and through the map's back pointers every map before it,
 * alive, and so the feedback. It is replaced every second by a newer one: a map V8 replaces
 * later (a field generalized, e.g. async ids past the small-integer range after ≈ 2^31 ticks)
 * is kept too. `executionAsyncResource()` inside a nextTick callback is that tick's own object
 * (Node pushes it as the current resource while the callback runs, with or without async hooks);
 * where a Node version no longer does, it is some other object, and keeping it costs nothing.
 */
import { executionAsyncResource } from "node:async_hooks";

let kept: object | undefined;
let refresh: NodeJS.Timeout | undefined;
const capture = (): void => void (kept = executionAsyncResource());

/** From now on, keeps a TickObject, renewed every `everyMs` (idempotent). */
export function keepTickShape(everyMs = 1_000): void {
  if (refresh !== undefined) return;
  process.nextTick(capture);
  refresh = setInterval(() => process.nextTick(capture), everyMs).unref();
}

/** The object kept (tests: it must be a nextTick entry). */
export function keptTickShape(): object | undefined {
  return kept;
}
