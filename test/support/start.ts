/**
 * `npm start` as a new user runs it — an empty DATA_DIR, no variables but two free ports (the
 * defaults 3000/9944 may be taken on a shared machine) — and a polite way to watch it: every
 * route counts against the 100 requests/min of this IP, so at most one request per poll.
 * Used by test/cli/start.test.ts and bench/start.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
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
 * Spawns what `npm start` runs (package.json: node --import tsx main.ts) without npm in between:
 * npm reports a child stopped by SIGTERM as its own death by that signal, hiding the exit code.
 * `extraEnv` adds variables a user might set.
 */
export async function spawnStart(extraEnv: Record<string, string> = {}): Promise<StartedService> {
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-start-"));
  const [port, devnetPort] = [await freePort(), await freePort()];
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, PORT: String(port), DEVNET_PORT: String(devnetPort), LOG_LEVEL: "warn", ...extraEnv };
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], { env, stdio: ["ignore", "ignore", "pipe"] });
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
