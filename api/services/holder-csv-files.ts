/**
 * The current holder list of a token as a file (GET /assets/holders/{id} with Accept: text/csv).
 *
 * The list must be one block's, so it is read inside one REPEATABLE READ transaction. Streamed
 * straight from that transaction, a download held a database connection — and held back vacuum
 * on `holders`, which the indexer rewrites every block — for as long as the client took: 48 MB at
 * 16 KB/s is 50 minutes. Instead the list is dumped at the database's speed into a file (cursor
 * batches: 600,000 holders in ≈ 2 s, docs/performance.md), the transaction ends, and the file is
 * sent at the client's pace with no connection held.
 *
 * - **Single flight**: everyone asking for a token's list while it is dumped, or once dumped while
 *   its block is still the newest or for `reuseMs` after, shares that one file.
 * - **Disk cap** (`maxBytes`): files in use are never deleted; a dump that would pass the cap
 *   first deletes files nobody reads, oldest first, and past that fails — the download is then
 *   served from the newest finished file of the token if there is one (X-Block-Number says its
 *   block), else refused (429, Retry-After).
 * - **Clean-up**: a file nobody reads is deleted once a newer one of its token exists, or
 *   `lingerMs` after its last reader; the folder (one per process, under the OS temp folder:
 *   TMPDIR) goes at close, and folders of processes that no longer run are deleted at start.
 */
import { mkdir, open, readdir, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { CSV_HEADER, getToken, latestBlock, readOnlySnapshot, rowsOf, type Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";

export interface HolderCsvFileLimits {
  /** Bytes all files together may take on disk. */
  maxBytes: number;
  /** Dumps running at once (each holds a database connection while it runs). */
  dumps: number;
  /** How long a file of the newest block is kept after its last reader, for the next one. */
  lingerMs: number;
  /**
   * How long a finished list is shared even once newer blocks exist (its X-Block-Number says
   * which it is): without it, asking for a large token's list every block would dump it every
   * block (≈ 3 s of the database for 600,000 holders), and a dump slower than the blocks would
   * never be answered.
   */
  reuseMs: number;
}

/** Holders per FETCH of a dump. */
const FETCH = 10_000;

export interface HolderCsvFile {
  readonly tokenId: number;
  /** The block the list is exact at (known once the dump's transaction has started). */
  block: number;
  readonly path: string;
  bytes: number;
  rows: number;
  refs: number;
  complete: boolean;
  failed: boolean;
  ready: Promise<void>;
  /** When the dump finished (performance.now()). */
  doneAt: number;
  linger?: NodeJS.Timeout | undefined;
}

const PREFIX = "tokenpool-csv-";

/** Deletes the file folders of processes that no longer run (a crash leaves its folder behind). */
async function sweepStale(base: string): Promise<void> {
  for (const name of await readdir(base).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length));
    let alive = pid === process.pid;
    if (!alive && Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === "EPERM";
      }
    }
    if (!alive) await rm(join(base, name), { recursive: true, force: true }).catch(() => {});
  }
}

export class HolderCsvFiles {
  private readonly files = new Set<HolderCsvFile>();
  private used = 0;
  private running = 0;
  private readonly waiters: Array<() => void> = [];
  private readonly dir: string;
  private made: Promise<void> | undefined;
  private serial = 0;

  constructor(
    private readonly store: Database,
    readonly limits: HolderCsvFileLimits,
    private readonly logger: Logger,
    private readonly base = tmpdir(),
  ) {
    this.dir = join(base, `${PREFIX}${process.pid}`, `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
  }

  /** The folder, made at the first dump (readable by this user only: the lists need a token to read). */
  private folder(): Promise<void> {
    this.made ??= sweepStale(this.base).then(() => mkdir(this.dir, { recursive: true, mode: 0o700 })).then(() => {});
    return this.made;
  }

  /** Bytes the files take now (finished and being written). */
  get bytesOnDisk(): number {
    return this.used;
  }

  get count(): number {
    return this.files.size;
  }

  /**
   * A reader's hold on the newest list of `tokenId` (dumped now, or shared); `release` (idempotent)
   * when its download ends. TOKEN_NOT_FOUND for an unknown token.
   */
  async open(tokenId: number): Promise<{ file: HolderCsvFile; release: () => void }> {
    const head = (await latestBlock(this.store))?.number ?? 0;
    const recent = performance.now() - this.limits.reuseMs;
    let file = this.newest(tokenId, (f) => !f.failed && (!f.complete || f.block >= head || f.doneAt >= recent));
    if (!file) {
      file = this.start(tokenId);
    }
    const release = this.hold(file);
    try {
      await file.ready;
      return { file, release };
    } catch (err) {
      release();
      // The disk cap is full of files in use: an older list of this token still answers, at its block.
      const older = err instanceof AppError && err.code === "RATE_LIMITED" ? this.newest(tokenId, (f) => f.complete) : undefined;
      if (older) return { file: older, release: this.hold(older) };
      throw err;
    }
  }

  private newest(tokenId: number, ok: (f: HolderCsvFile) => boolean): HolderCsvFile | undefined {
    let best: HolderCsvFile | undefined;
    // A dump in progress (block not known yet: -1) comes after any finished list that qualifies.
    for (const f of this.files) if (f.tokenId === tokenId && ok(f) && (!best || f.block > best.block)) best = f;
    return best;
  }

  private hold(file: HolderCsvFile): () => void {
    file.refs += 1;
    clearTimeout(file.linger);
    file.linger = undefined;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--file.refs === 0) this.idle(file);
    };
  }

  /** Nobody reads `file`: gone now if a newer list of its token exists, else after the linger. */
  private idle(file: HolderCsvFile): void {
    if (!file.complete) return;
    const newer = this.newest(file.tokenId, (f) => f.block > file.block && !f.failed);
    if (newer) return void this.drop(file);
    file.linger = setTimeout(() => file.refs === 0 && this.drop(file), this.limits.lingerMs);
    file.linger.unref();
  }

  private drop(file: HolderCsvFile): void {
    if (!this.files.delete(file)) return;
    clearTimeout(file.linger);
    this.used -= file.bytes;
    void rm(file.path, { force: true }).catch((err: unknown) => this.logger.warn({ err }, "holders CSV: a file could not be deleted"));
  }

  private start(tokenId: number): HolderCsvFile {
    const file: HolderCsvFile = { tokenId, block: -1, path: join(this.dir, `holders-${tokenId}-${++this.serial}.csv`), bytes: 0, rows: 0, refs: 0, complete: false, failed: false, ready: Promise.resolve(), doneAt: 0 };
    this.files.add(file);
    file.ready = this.dump(file).then(
      () => {
        file.complete = true;
        file.doneAt = performance.now();
        // The older lists of this token nobody reads are of no more use.
        for (const f of [...this.files]) if (f.tokenId === tokenId && f !== file && f.refs === 0 && f.complete) this.drop(f);
        // Every reader gave up while it was dumped: kept for the linger, as any file nobody reads.
        if (file.refs === 0) this.idle(file);
      },
      (err: unknown) => {
        file.failed = true;
        this.drop(file);
        throw err;
      },
    );
    file.ready.catch(() => {});
    return file;
  }

  /** Frees `bytes` of the cap by deleting finished files nobody reads, oldest first; false if it cannot. */
  private makeRoom(bytes: number): boolean {
    if (this.used + bytes <= this.limits.maxBytes) return true;
    const idle = [...this.files].filter((f) => f.refs === 0 && f.complete).sort((a, b) => a.block - b.block);
    for (const f of idle) {
      this.drop(f);
      if (this.used + bytes <= this.limits.maxBytes) return true;
    }
    return false;
  }

  private async turn(): Promise<() => void> {
    if (this.running >= this.limits.dumps) await new Promise<void>((r) => this.waiters.push(r));
    this.running += 1;
    return () => {
      this.running -= 1;
      this.waiters.shift()?.();
    };
  }

  private async dump(file: HolderCsvFile): Promise<void> {
    await this.folder();
    const done = await this.turn();
    let fh: FileHandle | undefined;
    const started = performance.now();
    try {
      fh = await open(file.path, "w");
      const out = fh;
      await readOnlySnapshot(this.store, async (db) => {
        const [token, head] = await Promise.all([getToken(db, file.tokenId), latestBlock(db)]);
        if (!token) throw new AppError("TOKEN_NOT_FOUND", `Token ${file.tokenId} was not found.`);
        file.block = head?.number ?? 0;
        await db.execute(sql`declare holders_csv no scroll cursor for
          select h.account, h.balance::text as amount from holders h where h.token_id = ${file.tokenId} and h.balance > 0 order by h.balance desc, h.account`);
        let text = CSV_HEADER;
        for (;;) {
          const rows = rowsOf<{ account: string; amount: string }>(await db.execute(sql.raw(`fetch ${FETCH} from holders_csv`)));
          for (const r of rows) text += `${++file.rows},${r.account},${r.amount}\n`;
          const bytes = Buffer.from(text);
          if (!this.makeRoom(bytes.length)) {
            throw new AppError("RATE_LIMITED", `The holder lists being downloaded take the whole disk budget for CSV files (${Math.round(this.used / 2 ** 20)} MiB of ${Math.round(this.limits.maxBytes / 2 ** 20)} MiB); retry in a minute.`, { "Retry-After": "60" });
          }
          this.used += bytes.length;
          file.bytes += bytes.length;
          await out.write(bytes);
          text = "";
          if (rows.length < FETCH) break;
        }
      });
      this.logger.debug({ tokenId: file.tokenId, block: file.block, rows: file.rows, bytes: file.bytes, ms: Math.round(performance.now() - started) }, "holders CSV: list dumped");
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.logger.warn({ err, tokenId: file.tokenId }, "holders CSV: the list could not be dumped");
      throw new AppError("SERVICE_UNAVAILABLE", "The holder list could not be read; retry.", { "Retry-After": "5" });
    } finally {
      await fh?.close().catch(() => {});
      done();
    }
  }

  /** Deletes every file (the API is closing). */
  async close(): Promise<void> {
    for (const f of this.files) clearTimeout(f.linger);
    this.files.clear();
    if (!this.made) return;
    await this.made.catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}
