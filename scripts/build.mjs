#!/usr/bin/env node
/**
 * `npm run build`: the TypeScript sources compiled to dist/ by tsc — the compiler that already
 * checks the types, one module per file, the server not bundled (the code reads its own files at
 * run time: migrations, the dashboard, the devnet genesis, package.json), so the files it reads are
 * copied beside it. The one bundle is the dashboard's script: its modules (api/dashboard/src/,
 * browser code, not tsc's) and lightweight-charts, by esbuild into dist/api/dashboard/app.js
 * (api/dashboard-bundle.ts says why). Incremental; `--force` (what `npm run build` passes) starts
 * from an empty dist/. Without it, a build whose inputs are exactly those of the last one does nothing.
 * `tokenpool` (bin/tokenpool.mjs) and the image run dist/; no TypeScript loader at run time.
 *
 * - The stamp (bin/fresh.mjs) is removed first and written last, with the inputs as read before
 *   tsc ran; if they changed while it ran, the build runs again (at most three times).
 * - tsc's incremental record trusts its own outputs: a module compiled before and deleted from
 *   dist/ since would stay missing, so a missing output makes a clean compile, and an output
 *   whose source is gone is deleted.
 * - One build at a time (a lock file beside dist/, taken over from a build that died).
 * - It says on stderr what it is doing and how long it took: a first build takes from ≈ 20 s on a
 *   quiet 2-core machine to 100 s on a loaded one, and a silent one cannot be told from a hang.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { BUNDLED, buildIsFresh, COPIED, inputFiles, inputRecord, outputsOf, ROOT, SOURCES, STAMP } from "../bin/fresh.mjs";

const force = process.argv.includes("--force");
process.chdir(fileURLToPath(ROOT));
if (!force && buildIsFresh()) {
  if (process.stderr.isTTY) process.stderr.write("build: dist/ is current, nothing to build\n");
  process.exit(0);
}

const started = performance.now();
const say = (line) => process.stderr.write(`build: ${line}\n`);
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

const LOCK = ".build.lock";
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};
/** Takes the lock; false when another build finished meanwhile and left nothing to do. */
function lock() {
  for (let waited = 0; ; waited += 200) {
    // Written whole, then linked in place: the lock file never exists without its pid.
    const mine = `${LOCK}.${process.pid}`;
    writeFileSync(mine, String(process.pid));
    try {
      linkSync(mine, LOCK);
      return true;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
    } finally {
      rmSync(mine, { force: true });
    }
    let holder;
    try {
      holder = Number(readFileSync(LOCK, "utf8"));
    } catch (e) {
      if (e.code === "ENOENT") continue; // released meanwhile: take it
      throw e;
    }
    if (!alive(holder)) rmSync(LOCK, { force: true }); // a build that died
    else if (waited === 0) process.stderr.write(`build: waiting for the build running as pid ${holder}\n`);
    else if (waited > 600_000) throw new Error(`build: ${LOCK} held by pid ${holder} for 10 min`);
    sleep(200);
    if (!force && buildIsFresh()) return false;
  }
}

function compile() {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  // tsc's record (dist/.tsbuildinfo) is what makes a later build recompile only what changed.
  const first = !existsSync("dist/.tsbuildinfo");
  say(`compiling the TypeScript sources to dist/ with tsc${first ? " (a first build: every module; later ones only what changed)" : ""}…`);
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
  } catch (e) {
    // tsc printed the errors; a stack trace of this script would only bury them.
    process.stderr.write("build: tsc failed (above); dist/ is not marked current\n");
    process.exit(typeof e.status === "number" && e.status > 0 ? e.status : 1);
  }
}

/** The dashboard's script, bundled by the module tsc just compiled (one definition of the bundle). */
async function bundle() {
  say("bundling the dashboard's script with esbuild…");
  const { bundleDashboard } = await import(new URL("../dist/api/dashboard-bundle.js", import.meta.url).href);
  try {
    writeFileSync("dist/api/dashboard/app.js", await bundleDashboard(ROOT));
  } catch (e) {
    // esbuild's messages name the file and line; a stack of this script would only bury them.
    for (const m of e.errors ?? [{ text: e.message }]) process.stderr.write(`${m.location ? `${m.location.file}:${m.location.line}: ` : ""}${m.text}\n`);
    process.stderr.write("build: the dashboard's bundle failed (above); dist/ is not marked current\n");
    process.exit(1);
  }
}

/** Makes dist/'s modules exactly the sources' (see the header): true when they already were. */
function outputsMatchSources() {
  const expected = new Set(outputsOf(inputFiles()));
  const copied = COPIED.map((dir) => `dist/${dir}/`);
  const present = new Set();
  const walk = (rel) => {
    for (const entry of readdirSync(rel, { withFileTypes: true })) {
      const p = `${rel}/${entry.name}`;
      if (copied.some((c) => `${p}/`.startsWith(c))) continue;
      if (entry.isDirectory()) walk(p);
      else if (p.endsWith(".js")) present.add(p);
    }
  };
  for (const s of SOURCES) if (!s.endsWith(".ts") && existsSync(`dist/${s}`)) walk(`dist/${s}`);
  for (const p of present) if (!expected.has(p)) rmSync(p);
  return [...expected].every((p) => existsSync(p));
}

if (lock()) {
  process.once("exit", () => rmSync(LOCK, { force: true })); // also when tsc fails (process.exit)
  {
    if (force) rmSync("dist", { recursive: true, force: true });
    rmSync(STAMP, { force: true }); // dist/ is being rewritten: not current until the end
    for (let attempt = 1; ; attempt++) {
      const before = inputRecord();
      compile();
      if (!outputsMatchSources()) {
        rmSync("dist/.tsbuildinfo", { force: true });
        compile();
      }
      for (const dir of COPIED) {
        rmSync(`dist/${dir}`, { recursive: true, force: true });
        mkdirSync(`dist/${dir}`, { recursive: true });
        cpSync(dir, `dist/${dir}`, { recursive: true, filter: (src) => !BUNDLED.some((b) => src === b || src.startsWith(`${b}/`)) });
      }
      await bundle();
      // What cli/main.ts reads of package.json (its version), and the module type of dist/.
      const pkg = JSON.parse(readFileSync("package.json", "utf8"));
      writeFileSync("dist/package.json", `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: "module" }, null, 2)}\n`);
      if (inputRecord() === before) {
        writeFileSync(STAMP, `${JSON.stringify({ inputs: before, built: new Date().toISOString() })}\n`);
        say(`built in ${elapsed()}`);
        break;
      }
      if (attempt === 3) {
        process.stderr.write("build: the sources kept changing while they were compiled; dist/ is not marked current\n");
        process.exitCode = 1;
        break;
      }
      process.stderr.write("build: a source changed while it was compiled: building again\n");
    }
  }
}
