// Whether dist/ (npm run build) is current: the stamp dist/.built records every input (source
// files, the files they read at run time, the build settings) by path, size and modification
// time as the build read them, and the build is current when today's record is the same —
// equality, not "older than the stamp", so a file dated in the future, one copied with an old
// date (cp -p, rsync, tar), a deleted file and an edit saved while the build ran all count as
// changes. Read by bin/tokenpool.mjs (which runs dist/ only when it is current) and
// scripts/build.mjs (which then has nothing to do).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";

export const ROOT = new URL("../", import.meta.url);
export const STAMP = new URL("dist/.built", ROOT);
/** The folders tsc compiles (tsconfig.build.json's include) and the run-time files copied beside them. */
export const SOURCES = ["main.ts", "api", "cli", "db", "indexer", "shared"];
export const COPIED = ["db/migrations", "api/dashboard", "indexer/devnet/genesis"];
/** Sources bundled by esbuild (browser code: the dashboard's modules), not compiled one by one by tsc nor copied. */
export const BUNDLED = ["api/dashboard/src"];
const SETTINGS = ["package.json", "tsconfig.json", "tsconfig.build.json", "scripts/build.mjs"];
/** What the two commands need of a build: a stamp beside a build that lost them is not current. */
const ENTRIES = ["dist/main.js", "dist/cli/main.js", "dist/api/dashboard/app.js"];

/** Every input file, relative to the root, sorted (≈ 200 files: a few milliseconds). */
export function inputFiles() {
  const files = [];
  const walk = (rel) => {
    const s = statSync(new URL(rel, ROOT));
    if (s.isDirectory()) for (const name of readdirSync(new URL(rel, ROOT))) walk(`${rel}/${name}`);
    else if (!rel.endsWith(".test.ts")) files.push([rel, s]);
  };
  for (const p of [...SOURCES, ...SETTINGS]) if (existsSync(new URL(p, ROOT))) walk(p);
  return files.sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The inputs as they are now: a digest of each file's path, size and modification time. */
export function inputRecord(files = inputFiles()) {
  const hash = createHash("sha256");
  for (const [rel, s] of files) hash.update(`${rel}\0${s.size}\0${s.mtimeMs}\n`);
  return hash.digest("hex");
}

/** The module tsc writes for each source file it compiles (dist/x.js for x.ts). */
export function outputsOf(files) {
  const tsc = (rel) => SOURCES.some((s) => rel === s || rel.startsWith(`${s}/`)) && !BUNDLED.some((b) => rel.startsWith(`${b}/`));
  return files.map(([rel]) => rel).filter((rel) => rel.endsWith(".ts") && !rel.endsWith(".d.ts") && tsc(rel)).map((rel) => `dist/${rel.slice(0, -3)}.js`);
}

export const hasBuild = () => existsSync(STAMP) && ENTRIES.every((e) => existsSync(new URL(e, ROOT)));
export const hasSources = () => existsSync(new URL("cli/main.ts", ROOT));

/** The record a finished build wrote, or undefined. */
function stampRecord() {
  try {
    return JSON.parse(readFileSync(STAMP, "utf8")).inputs;
  } catch {
    return undefined;
  }
}

/**
 * A build exists, and (where the sources are here too) its inputs are exactly today's and each
 * of their modules is there (one deleted from dist/ by hand is not silently missing at run time).
 */
export function buildIsFresh() {
  if (!hasBuild()) return false;
  if (!hasSources()) return true;
  const files = inputFiles();
  return stampRecord() === inputRecord(files) && outputsOf(files).every((out) => existsSync(new URL(out, ROOT)));
}
