/**
 * The build (npm run build: dist/) and what `tokenpool` runs: in a fresh clone, the compiled
 * build once it is current, the sources through tsx (saying so) once they changed after it, and
 * in an image's layout — dist/ and bin/ without the sources — the build.
 */
import { execFile, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDataDir } from "../support/db.js";
import { freePort } from "../support/port.js";
import { freshClone } from "../support/start.js";

const run = promisify(execFile);
const MINUTE = 60_000;

describe("the build and what tokenpool runs", () => {
  let clone: { dir: string; remove: () => Promise<void> };
  let image: string | undefined;
  let slim: string | undefined;
  const tokenpool = (cwd: string, ...args: string[]) => run(process.execPath, ["bin/tokenpool.mjs", ...args], { cwd, env: { ...process.env, LOG_LEVEL: "warn" } });
  // Every module file the run loaded (Node's own module hooks, not the launcher's word).
  const preload = path.resolve("test/support/loaded-modules.mjs");
  /**
   * The launcher's note of a run of `tokenpool --help` ("" when it runs the build), once the code
   * that actually ran agrees with it: the modules Node loaded are dist/'s compiled CLI and none of
   * the TypeScript sources, or the sources' CLI and none of dist/.
   */
  const ran = async (cwd: string) => {
    const { stdout, stderr } = await run(process.execPath, ["--import", preload, "bin/tokenpool.mjs", "--help"], { cwd, env: { ...process.env, LOG_LEVEL: "warn" } });
    expect(stdout).toContain("Usage: tokenpool");
    const lines = stderr.split("\n");
    const line = lines.find((l) => l.startsWith("loaded-modules "));
    const files = (JSON.parse(line!.slice("loaded-modules ".length)) as string[]).filter((u) => u.startsWith("file:")).map((u) => path.relative(cwd, fileURLToPath(u)));
    const note = lines.filter((l) => l !== line).join("\n");
    const build = files.filter((f) => f.startsWith("dist/"));
    const sources = files.filter((f) => f.endsWith(".ts") && !f.startsWith("node_modules/"));
    if (note === "") expect({ build: build.includes("dist/cli/main.js"), sources }, "no note: the build ran").toEqual({ build: true, sources: [] });
    else expect({ build, sources: sources.includes("cli/main.ts") }, `"${note.trim()}": the sources ran`).toEqual({ build: [], sources: true });
    return note;
  };

  beforeAll(async () => {
    clone = await freshClone();
    // node_modules as hard links (≈ 3 s), not the clone's symlink: tsc records the modules it reads
    // by their real paths, so through a link to this checkout's node_modules the clone's first build
    // could not reuse this checkout's record and checked every module again (20–80 s).
    await rm(path.join(clone.dir, "node_modules"));
    await run("cp", ["-al", path.resolve("node_modules"), path.join(clone.dir, "node_modules")]).catch(async () => {
      // Another file system than the checkout's (no hard links across): the link again, and the slow first build.
      await rm(path.join(clone.dir, "node_modules"), { recursive: true, force: true });
      await symlink(path.resolve("node_modules"), path.join(clone.dir, "node_modules"), "dir");
    });
  }, MINUTE);
  afterAll(async () => {
    await clone?.remove();
    if (image) await rm(image, { recursive: true, force: true });
    if (slim) await rm(slim, { recursive: true, force: true });
  });

  it("a fresh clone has no build: tokenpool runs the sources and says so; a build makes dist/ current, then tokenpool runs it", async () => {
    expect(await ran(clone.dir)).toContain("no build yet: running the sources through tsx");
    // This checkout's dist/ (the suite's setup built it) as a start, so that the builds below are
    // incremental (tsc's record is by content); a clone built from nothing is start.test's.
    await cp(path.resolve("dist"), path.join(clone.dir, "dist"), { recursive: true });
    await rm(path.join(clone.dir, "dist/.built"));
    // It says what it does, and how long it took: a slow build is told from a hang (issue 41).
    const { stderr } = await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    expect(stderr).toContain("build: compiling the TypeScript sources to dist/ with tsc");
    expect(stderr).toMatch(/^build: built in \d+\.\d s$/m);
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
    // And a lock left by a build that died (its pid gone): this build takes it over, not waits on
    // it for 10 min (the timeout), and removes it when done. (One tsc run for both: 5–40 s each.)
    const dead = await run(process.execPath, ["-e", "console.log(process.pid)"]);
    await writeFile(path.join(clone.dir, ".build.lock"), dead.stdout.trim());
    const t = performance.now();
    await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir, timeout: MINUTE });
    expect(await ran(clone.dir)).toBe("");
    await expect(run("test", ["-e", path.join(clone.dir, ".build.lock")])).rejects.toThrow();
    const again = performance.now();
    await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    process.stdout.write(`build: incremental ${((again - t) / 1000).toFixed(1)} s, nothing to do ${Math.round(performance.now() - again)} ms\n`);
  }, 2 * MINUTE);

  it("a change is a change whatever its date: a file dated in the future, then one edited with an older date, a deleted source, a module deleted from dist/", async () => {
    const stale = "the sources changed since the last build";
    const build = () => run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    // Edits are made to modules no other imports, and undone (content and dates) where the build
    // is not what is tested: each tsc run here is 5–40 s on a loaded 2-core machine.
    const [main, decimal] = [path.join(clone.dir, "cli/main.ts"), path.join(clone.dir, "shared/decimal.ts")];
    const whole = new Date("2026-01-01T00:00:00Z"); // a date a file can be given back exactly
    for (const file of [main, decimal]) await utimes(file, whole, whole);
    // A file dated next year does not make every later edit look older than the build; and a new
    // module, built, is in dist/.
    await utimes(path.join(clone.dir, "shared/logger.ts"), new Date("2031-06-01"), new Date("2031-06-01"));
    await writeFile(path.join(clone.dir, "shared/zz-gone.ts"), "export const gone = 1;\n");
    await build();
    expect(await ran(clone.dir)).toBe("");
    await expect(run("test", ["-f", path.join(clone.dir, "dist/shared/zz-gone.js")])).resolves.toBeDefined();
    const editThenUndo = async (file: string, date: Date) => {
      const source = await readFile(file, "utf8");
      await writeFile(file, `${source}\n`);
      await utimes(file, date, date);
      expect(await ran(clone.dir), file).toContain(stale);
      await writeFile(file, source);
      await utimes(file, whole, whole);
      expect(await ran(clone.dir), `${file} as it was`).toBe("");
    };
    // An edit saved now, then one whose file carries an older date (cp -p, rsync, tar).
    await editThenUndo(main, new Date());
    await editThenUndo(decimal, new Date(Date.now() - 3_600_000));
    // A module deleted from dist/ by hand: not current (put back: current again).
    const metrics = path.join(clone.dir, "dist/shared/metrics.js");
    const compiled = await readFile(metrics);
    await rm(metrics);
    expect(await ran(clone.dir)).toContain(stale);
    await writeFile(metrics, compiled);
    expect(await ran(clone.dir), "dist/shared/metrics.js put back").toBe("");
    // The new module deleted: the build is stale.
    await rm(path.join(clone.dir, "shared/zz-gone.ts"));
    expect(await ran(clone.dir)).toContain(stale);
    // Both at once for one build (each tsc run is 5–40 s): it drops the deleted module's output,
    // and writes the module deleted from dist/ again (tsc's own record says nothing changed).
    await rm(metrics);
    await build();
    expect(await ran(clone.dir)).toBe("");
    await expect(run("test", ["-e", path.join(clone.dir, "dist/shared/zz-gone.js")])).rejects.toThrow();
    await expect(run("test", ["-f", metrics])).resolves.toBeDefined();
  }, 4 * MINUTE);

  it("a type error fails the build with tsc's message (no stack of the script), writes nothing and leaves dist/ not current", async () => {
    // The CLI's entry: no module imports it, so tsc's incremental record checks this file again
    // and nothing else (a shared module's 19 importers made each of the two builds 15–30 s).
    const file = path.join(clone.dir, "cli/main.ts");
    const source = await readFile(file, "utf8");
    await writeFile(file, `${source}\nconst broken: number = "text";\nvoid broken;\n`);
    const failed = await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir }).then(() => undefined, (e: { code: number; stdout: string; stderr: string }) => e);
    expect(failed?.code).toBeGreaterThan(0);
    expect(failed?.stdout).toContain("TS2322");
    expect(failed?.stderr).toContain("dist/ is not marked current");
    expect(failed?.stderr).not.toMatch(/at .*build\.mjs/);
    try {
      expect(await readFile(path.join(clone.dir, "dist/cli/main.js"), "utf8")).not.toContain("broken");
      expect(await ran(clone.dir)).toContain("the last build did not finish");
    } finally {
      await writeFile(file, source);
      await run(process.execPath, ["scripts/build.mjs"], { cwd: clone.dir });
    }
  }, 2 * MINUTE);

  it("npm start: a SIGTERM to npm itself (not its process group) stops the service, which frees its port", async () => {
    const [port, devnetPort] = [await freePort(), await freePort()];
    const data = await mkdtemp(path.join(tmpdir(), "tokenpool-npm-start-"));
    const npm = spawn("npm", ["start"], { cwd: clone.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: data, PORT: String(port), DEVNET_PORT: String(devnetPort), LOG_LEVEL: "warn" }, stdio: "ignore", detached: true });
    const health = () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status, () => 0);
    try {
      for (const until = Date.now() + 90_000; (await health()) === 0; await new Promise((r) => setTimeout(r, 500))) {
        if (Date.now() > until || npm.exitCode !== null) throw new Error("npm start never answered /health");
      }
      npm.kill("SIGTERM");
      await new Promise((r) => npm.once("exit", r));
      // The service got the signal and stops: its port closes (a shell in between kept it running).
      let open = true;
      for (const until = Date.now() + 20_000; open && Date.now() < until; await new Promise((r) => setTimeout(r, 250))) open = (await health()) !== 0;
      expect(open, "the service still answers after npm was stopped").toBe(false);
    } finally {
      try {
        process.kill(-npm.pid!, "SIGKILL"); // its process group: whatever it left running
      } catch {
        // none left
      }
      await rm(data, { recursive: true, force: true });
    }
  }, 2 * MINUTE);

  it("an image's layout (dist/ and bin/, no sources, no TypeScript loader) runs the build", async () => {
    image = await mkdtemp(path.join(tmpdir(), "tokenpool-image-"));
    for (const part of ["dist", "bin", "package.json"]) await cp(path.join(clone.dir, part), path.join(image, part), { recursive: true });
    await symlink(path.resolve("node_modules"), path.join(image, "node_modules"), "dir");
    expect(await ran(image)).toBe("");
    const { stdout } = await tokenpool(image, "--version");
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, MINUTE);

  it("the production image's modules, without the devnet (chopsticks): the API serves, and `start` without WS_URL says what to do", async () => {
    // The image runs `npm uninstall @acala-network/chopsticks @substrate/connect-known-chains`
    // (Dockerfile); here the same modules are left out of a node_modules of links.
    slim = await mkdtemp(path.join(tmpdir(), "tokenpool-slim-"));
    for (const part of ["dist", "bin", "package.json"]) await cp(path.join(clone.dir, part), path.join(slim, part), { recursive: true });
    const left = new Set(["@acala-network", "@substrate/connect-known-chains"]);
    const modules = path.join(slim, "node_modules");
    await mkdir(modules);
    for (const entry of await readdir(path.resolve("node_modules"))) {
      if (left.has(entry)) continue;
      if (!entry.startsWith("@")) {
        await symlink(path.resolve("node_modules", entry), path.join(modules, entry), "dir");
        continue;
      }
      await mkdir(path.join(modules, entry));
      for (const scoped of await readdir(path.resolve("node_modules", entry))) {
        if (!left.has(`${entry}/${scoped}`)) await symlink(path.resolve("node_modules", entry, scoped), path.join(modules, entry, scoped), "dir");
      }
    }
    // A migrated store (from the suite's dump): what is tested is the modules, not a first start's
    // initdb and migrations (≈ 10 s of CPU here; test/cli/start.test.ts starts from nothing).
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: await migratedDataDir(path.join(slim, "data")), HOST: "127.0.0.1" };
    delete env.WS_URL;
    delete env.DATABASE_URL;

    const started = await run(process.execPath, ["bin/tokenpool.mjs", "start"], { cwd: slim, env: { ...env, PORT: String(await freePort()) } }).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(started.code).not.toBe(0);
    expect(started.stderr).toContain("the local devnet is not installed here");
    expect(started.stderr).toContain("set WS_URL");
    expect(started.stderr).not.toContain("ERR_MODULE_NOT_FOUND");

    const port = await freePort();
    const api = spawn(process.execPath, ["bin/tokenpool.mjs", "api"], { cwd: slim, env: { ...env, PORT: String(port) }, stdio: "ignore" });
    try {
      let health = 0;
      for (let i = 0; i < 100 && health !== 200; i++) {
        health = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status, () => 0);
        if (health !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(health).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200);
    } finally {
      api.kill("SIGTERM");
    }
  }, MINUTE);
});
