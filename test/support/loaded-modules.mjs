// Preloaded with `node --import` by a test: at exit, writes to stderr every module file the
// process loaded (ESM and CommonJS alike, through Node's in-thread module hooks), as one JSON line.
import { registerHooks } from "node:module";

const loaded = [];
registerHooks({
  load(url, context, next) {
    loaded.push(url);
    return next(url, context);
  },
});
process.on("exit", () => process.stderr.write(`loaded-modules ${JSON.stringify(loaded)}\n`));
