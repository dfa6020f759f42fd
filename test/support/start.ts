/**
 * `npm start` as a new user runs it — an empty DATA_DIR, no variables but two free ports (the
 * defaults 3000/9944 may be taken on a shared machine) — and a polite way to watch it: every
 * route counts against the 100 requests/min of this IP, so at most one request per poll.
 * Used by test/cli/start.test.ts and bench/start.ts.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./port.js";

export interface StartedService {
  base: string;
  /** The DATA_DIR: PGlite's files and the JWT secret. */
  dir: string;
  /** Date.now() when the process was spawned. */
  started: number;
  child: ChildProcess;
  stderr(): string;
  /** GET that throws unless 200; resolves to the JSON body. */
  get<T>(route: string, headers?: Record<string, string>): Promise<T>;
  /** Reads every `intervalMs` until `read` returns a value; fails if the process exits or after `timeoutMs`. */
  poll<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number, intervalMs?: number): Promise<T>;
  /** SIGTERM; resolves to the exit code; removes the DATA_DIR unless `keepData`. */
  stop(opts?: { keepData?: boolean }): Promise<number | null>;
}

export interface PoolStats {
  totalPools: number;
  totalValueLocked: string;
  volume24h: string;
  swaps24h: number;
  blockNumber: number;
}

/**
 * The project as a user's clone has it, in a temporary folder with nothing beside it (no
 * ../shared): the files git tracks or would track, and a link to this checkout's node_modules
 * (what `npm ci` would install). Resolves to its folder and a function that removes it.
 */
export async function freshClone(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), "tokenpool-clone-"));
  const dir = path.join(root, "tokenpool");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
    await copyFile(file, path.join(dir, file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err; // deleted in the work tree, not yet in git
    });
  }
  await symlink(path.resolve("node_modules"), path.join(dir, "node_modules"), "dir");
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * Runs what `npm start` runs (package.json: the build, then node dist/main.js) without npm in
 * between: npm reports a child stopped by SIGTERM as its own death by that signal, hiding the exit
 * code. `extraEnv` adds variables a user might set; `cwd` runs another copy of the project (a
 * fresh clone builds first, as `npm start` there does; `started` counts that time too).
 */
export async function spawnStart(extraEnv: Record<string, string> = {}, cwd?: string): Promise<StartedService> {
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-start-"));
  const [port, devnetPort] = [await freePort(), await freePort()];
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, PORT: String(port), DEVNET_PORT: String(devnetPort), LOG_LEVEL: "warn", ...extraEnv };
  const started = Date.now();
  await promisify(execFile)(process.execPath, ["scripts/build.mjs"], { cwd });
  const child = spawn(process.execPath, ["dist/main.js"], { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const get = async <T>(route: string, headers: Record<string, string> = {}): Promise<T> => {
    const res = await fetch(`${base}${route}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    base,
    dir,
    started,
    child,
    stderr: () => stderr,
    get,
    async poll<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 1_500): Promise<T> {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${stderr}`);
        const value = await read().catch(() => undefined);
        if (value !== undefined) return value;
        if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    },
    async stop(opts = {}) {
      child.kill("SIGTERM");
      const code = await exited;
      if (!opts.keepData) await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}
