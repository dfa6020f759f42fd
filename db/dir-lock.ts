/**
 * PGlite lets one process use a data folder; a second one (say `tokenpool status` while
 * `npm start` runs) reads a half-written state and can leave the folder unopenable after a crash.
 * So a process that opens DATA_DIR/pglite first takes DATA_DIR/pglite.lock: a file created
 * exclusively, holding its pid. Another live process holding it refuses the open with a clear
 * message; a lock left by a process that no longer exists (killed, crashed, a container that
 * restarted) is taken over. Hand-written: proper-lockfile's mtime-refresh locks need a timer in
 * every process and misjudge a suspended laptop; a pid check is exact on one host, which is all
 * a local data folder can be shared by.
 */
import { open, readFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";

export class DataDirInUse extends Error {
  override name = "DataDirInUse";
}

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // our own pid in a file we did not write: a previous life (containers restart as pid 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock at `file`; resolves to its release. Throws DataDirInUse when a live process holds it. */
export async function lockDataDir(file: string, folder: string): Promise<() => Promise<void>> {
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, "wx", 0o600);
      await handle.writeFile(mine);
      await handle.close();
      return async () => {
        if ((await readFile(file, "utf8").catch(() => "")) === mine) await unlink(file).catch(() => {});
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let holder: { pid?: number; host?: string; since?: string } = {};
    try {
      holder = JSON.parse(await readFile(file, "utf8"));
    } catch {
      // Unreadable or half-written: treated as stale below.
    }
    if (typeof holder.pid === "number" && (holder.host === undefined || holder.host === hostname()) && alive(holder.pid)) {
      throw new DataDirInUse(
        `${folder} is in use by process ${holder.pid} (since ${holder.since ?? "?"}): PGlite allows one process per data folder. Stop that process first (its state is at GET /health), or use DATABASE_URL to share a PostgreSQL database. If no such process runs, delete ${file}.`,
      );
    }
    await unlink(file).catch(() => {});
  }
  throw new DataDirInUse(`could not take ${file}: other processes keep taking it`);
}
