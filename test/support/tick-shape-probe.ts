/**
 * Run by test/api/tick-shape.test.ts in a child with `--expose-gc --allow-natives-syntax`: keeps
 * a TickObject (api/tick-shape.ts), lets full GCs run with no other TickObject alive, as on an
 * idle server, then prints what the kept object is and whether a new TickObject has its map.
 */
import { executionAsyncResource } from "node:async_hooks";
import { keepTickShape, keptTickShape, stopTickShape } from "../../api/tick-shape.js";

const gc = (globalThis as { gc?: () => void }).gc!;
// V8's own check (natives syntax), compiled at run time: TypeScript has no syntax for it.
const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean;
const nextTickObject = () => new Promise<object>((resolve) => process.nextTick(() => resolve(executionAsyncResource())));

keepTickShape(50);
keepTickShape(50); // a second caller: still one timer
await nextTickObject();
const first = keptTickShape();
// Renewed: a newer TickObject replaces the first within a few periods.
await new Promise((r) => setTimeout(r, 200));
const kept = keptTickShape();
for (let i = 0; i < 4; i++) gc();
const after = await nextTickObject();
// Two callers: the first to stop leaves it kept, the last lets it go.
stopTickShape();
const afterOneStop = keptTickShape() !== undefined;
stopTickShape();
const afterBothStops = keptTickShape() === undefined;
process.stdout.write(
  JSON.stringify({
    keys: kept ? Object.keys(kept) : null,
    symbols: kept ? Object.getOwnPropertySymbols(kept).map(String) : null,
    sameMap: kept ? sameMap(kept, after) : null,
    renewed: first !== undefined && kept !== first,
    afterOneStop,
    afterBothStops,
  }),
);
