#!/usr/bin/env node
/**
 * `npm run build`: the TypeScript sources compiled to dist/ by tsc — the compiler that already
 * checks the types, one module per file, nothing bundled (the code reads its own files at run
 * time: migrations, the dashboard, the devnet genesis, package.json), so the files it reads are
 * copied beside it. Incremental: a build with nothing changed takes about two seconds.
 * `tokenpool` (bin/tokenpool.mjs) and the image run dist/; no TypeScript loader at run time.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { buildIsFresh, newestInput, ROOT as root, STAMP } from "../bin/fresh.mjs";

const at = (p) => new URL(p, root);
process.chdir(fileURLToPath(root));
if (buildIsFresh() && !process.argv.includes("--force")) process.exit(0); // nothing changed since dist/ was built
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
for (const dir of ["db/migrations", "api/dashboard", "indexer/devnet/genesis"]) {
  mkdirSync(at(`dist/${dir}`), { recursive: true });
  cpSync(at(dir), at(`dist/${dir}`), { recursive: true });
}
// What cli/main.ts reads of package.json (its version), and the module type of dist/.
const pkg = JSON.parse(readFileSync(at("package.json"), "utf8"));
writeFileSync(at("dist/package.json"), `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: "module" }, null, 2)}\n`);
// The stamp bin/tokenpool.mjs compares with the sources' times: written last, after a good build,
// and never older than the newest input (a file dated in the future would make every build stale).
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
const when = new Date(Math.max(Date.now(), newestInput()));
utimesSync(STAMP, when, when);
