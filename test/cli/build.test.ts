/**
 * The build (npm run build: dist/) and what `tokenpool` runs: in a fresh clone, the compiled
 * build once it is current, the sources through tsx (saying so) once they changed after it, and
 * in an image's layout — dist/ and bin/ without the sources — the build.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, symlink, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshClone } from "../support/start.js";

const run = promisify(execFile);
const MINUTE = 60_000;

describe("the build and what tokenpool runs", () => {
  let clone: { dir: string; remove: () => Promise<void> };
  let image: string | undefined;
  const tokenpool = (cwd: string, ...args: string[]) => run(process.execPath, ["bin/tokenpool.mjs", ...args], { cwd, env: { ...process.env, LOG_LEVEL: "warn" } });
  /** Which code a run of `tokenpool --help` loaded: the build or the sources (the loader's note). */
  const ran = async (cwd: string) => {
    const { stdout, stderr } = await tokenpool(cwd, "--help");
    expect(stdout).toContain("Usage: tokenpool");
    return stderr;
  };

  beforeAll(async () => {
    clone = await freshClone();
  }, MINUTE);
  afterAll(async () => {
    await clone?.remove();
    if (image) await rm(image, { recursive: true, force: true });
  });

  it("a fresh clone has no build: tokenpool runs the sources and says so; npm run build makes dist/, then tokenpool runs it", async () => {
    expect(await ran(clone.dir)).toContain("no build yet: running them through tsx");
    await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    expect(await ran(clone.dir)).toBe("");
    // The files the code reads at run time are beside it.
    for (const file of ["dist/cli/main.js", "dist/main.js", "dist/db/migrations/meta/_journal.json", "dist/api/dashboard/app.js", "dist/indexer/devnet/genesis/asset-hub-kusama-local.json.gz", "dist/package.json"]) {
      await expect(run("test", ["-f", path.join(clone.dir, file)])).resolves.toBeDefined();
    }
  }, 2 * MINUTE);

  it("a source changed after the build: tokenpool runs the sources (never the stale build) and says so; a build with nothing changed does nothing", async () => {
    const later = new Date(Date.now() + 5_000);
    await utimes(path.join(clone.dir, "api/app.ts"), later, later);
    expect(await ran(clone.dir)).toContain("the sources changed since the last build");
    const t = performance.now();
    await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    expect(await ran(clone.dir)).toBe("");
    const again = performance.now();
    await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    process.stdout.write(`build: incremental ${((again - t) / 1000).toFixed(1)} s, nothing to do ${Math.round(performance.now() - again)} ms\n`);
  }, 2 * MINUTE);

  it("an image's layout (dist/ and bin/, no sources, no TypeScript loader) runs the build", async () => {
    image = await mkdtemp(path.join(tmpdir(), "tokenpool-image-"));
    for (const part of ["dist", "bin", "package.json"]) await cp(path.join(clone.dir, part), path.join(image, part), { recursive: true });
    await symlink(path.resolve("node_modules"), path.join(image, "node_modules"), "dir");
    expect(await ran(image)).toBe("");
    const { stdout } = await tokenpool(image, "--version");
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, MINUTE);
});
