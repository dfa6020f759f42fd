/**
 * Keeps a recent process.nextTick queue entry (a "TickObject") alive for the life of the
 * process, so that a cached answer keeps costing what it costs on a fresh process.
 *
 * Why: each nextTick call builds `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`
 * (Node 24 adds the async context frame), an object literal whose keys are computed, so nothing
 * holds its hidden classes (maps) but the TickObjects themselves: V8 keeps map transitions, and
 * the type feedback of the literal's stores, weakly. A server that goes quiet gets full GCs with
 * no TickObject alive (V8 collects an idle process's heap: 10 s to 3 min into the quiet here,
 * varying); the maps die, nextTick's optimized code is thrown away with them and re-optimized
 * from the feedback the GC cleared: generic stores (`Runtime_DefineKeyedOwnPropertyInLiteral`),
 * for as long as the process lives. Measured on Node 20 (the bench's `/oracle/value`, 137 B): a nextTick took
 * ≈ 25 ns on a fresh API and 200–400 ns once it had idled 15 s; an answer makes ten of them
 * (Node's own request and response streams), so a cached answer cost 15–17 µs of CPU instead of
 * 12.5–13 µs, and the API answered 77–80 % of bare Hono's throughput instead of 95–97 %.
 *
 * A kept TickObject keeps its map, and through the map's back pointers every map before it,
 * alive, and so the feedback. It is renewed every second, as a precaution only: keeping one
 * object once was enough in every case tried (async ids past the small-integer range included),
 * and a wake-up a second costs nothing. `executionAsyncResource()` inside a nextTick callback is
 * that tick's own object (Node pushes it as the current resource while the callback runs, with or
 * without async hooks; read in the Node 20 and 24 sources); where a Node version no longer does,
 * it is some other object, and keeping it costs nothing.
 *
 * Call it where no async context is active (api/server.ts does, at start): the kept object and
 * the timer carry the context of the call (an AsyncLocalStorage store on Node 20, the context
 * frame on Node 24), which would then live as long as they do.
 */
import { executionAsyncResource } from "node:async_hooks";

let kept: object | undefined;
let refresh: NodeJS.Timeout | undefined;
/** Servers of this process that asked for it (tests and `npm start` may run several). */
let users = 0;
const capture = (): void => void (kept = executionAsyncResource());

/** From now on, keeps a TickObject, renewed every `everyMs` (one timer however many call it). */
export function keepTickShape(everyMs = 1_000): void {
  users += 1;
  if (refresh !== undefined) return;
  process.nextTick(capture);
  refresh = setInterval(() => process.nextTick(capture), everyMs).unref();
}

/** One caller is done (the API's close()); the last one stops the renewal and lets the object go. */
export function stopTickShape(): void {
  if (users === 0 || --users > 0) return;
  clearInterval(refresh);
  refresh = undefined;
  kept = undefined;
}

/** The object kept (tests: it must be a nextTick entry). */
export function keptTickShape(): object | undefined {
  return kept;
}
