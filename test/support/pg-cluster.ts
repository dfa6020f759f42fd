/**
 * A private PostgreSQL cluster for tests that stop and restart the server itself (never the
 * shared one on :5432): Debian's initdb/pg_ctl in a temporary directory, on a free port, trust
 * auth. As root (CI), the server runs as the `postgres` user, which initdb requires.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { freePort } from "./port.js";

const run = promisify(execFile);

/** Debian's server binaries (the newest installed major), or undefined. */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "pg_ctl"))).sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(root, majors[0], "bin") : undefined;
}

export interface PgCluster {
  url: string;
  port: number;
  /** Stops the server: "immediate" is a crash (no checkpoint), "fast" a clean shutdown. */
  stop(mode?: "immediate" | "fast"): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** A temporary directory owned by the server's user, and a runner of the server binaries as that user. */
async function clusterDir(): Promise<{ dir: string; as: (cmd: string, args: string[]) => Promise<unknown> }> {
  const bin = postgresBin();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  const root = userInfo().uid === 0;
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-pg-"));
  const as = async (cmd: string, args: string[]) => {
    const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    return run(file, argv, { timeout: 60_000 });
  };
  if (root) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
  return { dir, as };
}

/**
 * A physical streaming replica of `primary` (pg_basebackup -R), whose startup process applies
 * each commit `applyDelayMs` after the primary made it (recovery_min_apply_delay): replication
 * lag on demand. Read-only; its url names the primary's `tokenpool` database.
 */
export async function startReplica(primary: PgCluster, applyDelayMs: number): Promise<PgCluster> {
  const { dir, as } = await clusterDir();
  const data = path.join(dir, "data");
  await as("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", data, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"]);
  return serve(dir, data, as, `-c hot_standby=on -c recovery_min_apply_delay=${applyDelayMs}ms`);
}

/** Starts the cluster in `data` on a free port, with `options` added to the server's. */
async function serve(dir: string, data: string, as: (cmd: string, args: string[]) => Promise<unknown>, options = ""): Promise<PgCluster> {
  const port = await freePort();
  const pgCtl = (args: string[]) => as("pg_ctl", ["-D", data, "-w", "-t", "60", ...args]);
  const start = () => pgCtl(["-l", path.join(dir, "log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${options}`, "start"]).then(() => {});
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/tokenpool`,
    port,
    stop: (mode = "immediate") => pgCtl(["-m", mode, "stop"]).then(() => {}),
    start,
    async destroy() {
      await pgCtl(["-m", "immediate", "stop"]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function startPgCluster(): Promise<PgCluster> {
  const { dir, as } = await clusterDir();
  const data = path.join(dir, "data");
  await as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const cluster = await serve(dir, data, as);
  const admin = postgres(cluster.url.replace(/\/tokenpool$/, "/postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe("create database tokenpool");
  await admin.end();
  return cluster;
}
