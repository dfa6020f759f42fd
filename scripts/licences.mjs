#!/usr/bin/env node
/**
 * `npm run licences`: every package an install of TokenPool brings (package-lock.json, the dev
 * packages aside: they build and test it, and none of them ships) is under a licence an
 * Apache-2.0 project can be distributed with, or is one of the exceptions below with its reason.
 * Exits 1 naming each other one, with the package that asks for it. The suite runs it
 * (test/licences.test.ts), so a new dependency under GPL fails CI.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const satisfies = createRequire(import.meta.url)("spdx-satisfies");

/** Permissive licences (and the PSF's) whose terms an Apache-2.0 distribution meets by keeping their notices. */
export const ALLOWED = ["Apache-2.0", "MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "0BSD", "BlueOak-1.0.0", "CC0-1.0", "Unlicense", "Python-2.0", "Zlib"];

/**
 * Packages outside ALLOWED, each with why it may stay. The first four are GPL-3.0: none is ever
 * loaded by the API, the indexer or a worker (test/licences.test.ts checks the indexer's chain
 * modules), and the production image (Dockerfile) removes them.
 */
export const EXCEPTIONS = {
  "@substrate/connect": "GPL-3.0-only; an optional dependency of @polkadot/rpc-provider for its light-client provider, which TokenPool never uses (it connects over WebSocket); not in the image",
  "@substrate/connect-extension-protocol": "GPL-3.0-only; a dependency of @substrate/connect (above); not in the image",
  smoldot: "GPL-3.0-or-later WITH Classpath-exception-2.0; the light client behind @substrate/connect (above); not in the image",
  "@substrate/connect-known-chains": "GPL-3.0-only; chain specs read only by the local devnet's Rococo fallback (DEVNET_GENESIS=rococo); not in the image",
  jsonify: "public domain (no SPDX identifier); a dependency of json-stable-stringify",
};

/** The package's name from its path in the lock file (node_modules/a/node_modules/@b/c → @b/c). */
const nameOf = (path) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

/** Packages of `lock` (a parsed package-lock.json, v2 or v3) outside the policy: [name, version, licence, where]. */
export function offending(lock) {
  const out = [];
  for (const [path, p] of Object.entries(lock.packages ?? {})) {
    if (path === "" || p.dev || p.link || !path.includes("node_modules/")) continue;
    const name = nameOf(path);
    if (name in EXCEPTIONS) continue;
    const licence = typeof p.license === "string" ? p.license : undefined;
    let ok = false;
    try {
      ok = licence !== undefined && satisfies(licence, ALLOWED);
    } catch {
      ok = false; // not an SPDX expression: a person has to read it (and list it above)
    }
    if (!ok) out.push([name, p.version ?? "?", licence ?? "(none given)", path]);
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
  const bad = offending(lock);
  for (const [name, version, licence, path] of bad) process.stderr.write(`licences: ${name}@${version} is under ${licence} (${path}): not in scripts/licences.mjs's ALLOWED nor its EXCEPTIONS\n`);
  if (bad.length > 0) process.exit(1);
  const count = Object.entries(lock.packages).filter(([path, p]) => path.includes("node_modules/") && !p.dev && !p.link).length;
  process.stdout.write(`licences: the ${count} packages an install brings are under ${ALLOWED.join(", ")}, or listed exceptions (${Object.keys(EXCEPTIONS).length})\n`);
}
