// Whether dist/ (npm run build) is current: its stamp is newer than every source file, asset and
// build setting it was made from. Read by bin/tokenpool.mjs (which runs dist/ only when it is)
// and scripts/build.mjs (which then has nothing to do).
import { existsSync, readdirSync, statSync } from "node:fs";

export const ROOT = new URL("../", import.meta.url);
export const STAMP = new URL("dist/.built", ROOT);
/** What a build is made of: the sources (and the files they read at run time), and its settings. */
const INPUTS = ["main.ts", "api", "cli", "db", "indexer", "shared", "package.json", "tsconfig.json", "tsconfig.build.json", "scripts/build.mjs"];

/** The newest modification time among the inputs (≈ 180 files: a few milliseconds). */
export function newestInput() {
  let newest = 0;
  const walk = (url) => {
    const s = statSync(url);
    if (s.isDirectory()) for (const name of readdirSync(url)) walk(new URL(name, url.href.endsWith("/") ? url : `${url.href}/`));
    else if (!url.pathname.endsWith(".test.ts")) newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of INPUTS) if (existsSync(new URL(p, ROOT))) walk(new URL(p, ROOT));
  return newest;
}

export const hasBuild = () => existsSync(STAMP);
export const hasSources = () => existsSync(new URL("cli/main.ts", ROOT));

/** A build exists, and (where the sources are here too) nothing changed since it was made. */
export function buildIsFresh() {
  return hasBuild() && (!hasSources() || newestInput() <= statSync(STAMP).mtimeMs);
}
