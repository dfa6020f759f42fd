#!/usr/bin/env node
// The `tokenpool` command. It runs the compiled build (dist/, `npm run build`): no TypeScript
// loader at run time. In a source checkout whose sources changed since the last build (or that
// was never built), it says so and runs the sources through tsx instead, so a developer never
// runs stale code by accident; an image has only dist/ and always runs it.
import { existsSync } from "node:fs";
import { buildIsFresh, hasBuild, hasSources } from "./fresh.mjs";

if (buildIsFresh()) {
  await import("../dist/cli/main.js");
} else {
  if (!hasSources()) throw new Error("tokenpool: neither a build (dist/) nor the sources are here");
  const why = hasBuild() ? "the sources changed since the last build" : existsSync(new URL("../dist/", import.meta.url)) ? "the last build did not finish" : "no build yet";
  process.stderr.write(`tokenpool: ${why}: running the sources through tsx (npm run build compiles them)\n`);
  const { register } = await import("tsx/esm/api");
  register();
  await import("../cli/main.ts");
}
