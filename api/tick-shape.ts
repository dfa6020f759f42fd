/**
 * Keeps one of Node's process.nextTick queue entries (a "TickObject") alive for the life of the
 * process, so that every cached answer keeps costing what it costs on a fresh process.
 *
 * Why: each nextTick call builds `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`,
 * an object literal whose keys are computed, so nothing holds its hidden classes (maps) but the
 * TickObjects themselves — V8 keeps map transitions and the type feedback of the literal's stores
 * weakly. A server that goes quiet for a few seconds runs a full GC with no TickObject alive
 * (V8 collects the heap of an idle process); the maps die, nextTick's optimized code is thrown
 * away with them, and it is re-optimized from feedback that the GC cleared: generic stores, for
 * as long as the process lives. Measured on Node 20 (`npm run bench`, /oracle/value, 137 B): a
 * nextTick took ≈ 25 ns on a fresh API and 200–400 ns once it had idled 15 s; an answer makes
 * ten of them (Node's own request and response streams), so a cached answer cost 15–17 µs of CPU
 * instead of 12.5–13 µs, and the API answered 77–80 % of bare Hono's throughput instead of 95 %.
 * One kept TickObject keeps the maps, and so the feedback, alive: 25–80 ns after the same idle.
 *
 * `executionAsyncResource()` inside a nextTick callback is that tick's own object (Node pushes
 * it as the current resource while the callback runs, with or without async hooks). Where a
 * Node version no longer does, it is some other object, and keeping it costs nothing.
 */
import { executionAsyncResource } from "node:async_hooks";

let kept: object | undefined;

/** Keeps a TickObject from now on (idempotent). */
export function keepTickShape(): void {
  if (kept === undefined) process.nextTick(() => (kept ??= executionAsyncResource()));
}

/** The object kept (tests: it must be a nextTick entry, with its callback). */
export function keptTickShape(): object | undefined {
  return kept;
}
