/**
 * `tokenpool snapshot --token 1984 --at 9000000 --out holders.csv`: the holder snapshot the API's
 * POST /snapshots computes, in the foreground, with a progress bar; then its CSV. Stopped
 * (Ctrl-C, a crash), it resumes where it was when run again; a snapshot already done (by the API
 * or an earlier run) is only written out. The file appears under its name only once complete.
 */
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { once } from "node:events";
import { getSnapshot, requestSnapshot, snapshotCsvBatch, tokenAt, type Database } from "../db/index.js";
import { resolveAsOf } from "../api/services/balances.js";
import { runSnapshot } from "../api/snapshot-runner.js";
import { progressReporter } from "./progress.js";

export interface SnapshotCommand {
  token: number;
  at?: number | undefined;
  atTime?: number | undefined;
  out: string;
}

/** Rows per query when writing the CSV. */
const BATCH = 10_000;

export async function snapshotCommand(db: Database, cmd: SnapshotCommand, signal: AbortSignal, stderr: NodeJS.WriteStream = process.stderr): Promise<{ id: number; holders: number; block: number } | undefined> {
  // In the command's words (resolveAsOf's refusal names the API's query parameters).
  if (cmd.at !== undefined && cmd.atTime !== undefined) throw new Error("give --at (a block) or --at-time (Unix seconds), not both");
  const block = await resolveAsOf(db, { at: cmd.at, atTime: cmd.atTime }, "holders", { kept: true });
  if (!(await tokenAt(db, cmd.token, block.number))) throw new Error(`token ${cmd.token} did not exist at block ${block.number}`);
  const { snapshot } = await requestSnapshot(db, cmd.token, block.number, null);
  let s = snapshot;
  if (s.state !== "done") {
    if (s.accountsDone > 0) stderr.write(`resuming snapshot ${s.id} after ${s.accountsDone} accounts\n`);
    let bar: ReturnType<typeof progressReporter> | undefined;
    s = await runSnapshot(db, s.id, {
      signal,
      onProgress: (p) => {
        bar ??= progressReporter(`snapshot of token ${cmd.token} at block ${block.number}`, p.accountsEstimate ?? 0, p.accountsDone, stderr, "accounts");
        bar.update(p.accountsDone);
      },
    });
    bar?.stop();
    if (s.state === "failed") throw new Error(`snapshot ${s.id} failed: ${s.error ?? "no reason kept"}`);
    if (s.state !== "done") {
      stderr.write(`stopped after ${s.accountsDone} accounts: run the same command again to resume\n`);
      return undefined;
    }
  }
  try {
    await writeCsv(db, s.id, cmd.out, signal);
  } catch (err) {
    if (signal.aborted) {
      stderr.write(`stopped while writing the CSV (snapshot ${s.id} is done and kept): run the same command again to write it\n`);
      return undefined;
    }
    throw err;
  }
  const done = (await getSnapshot(db, s.id))!;
  return { id: done.id, holders: done.holders ?? 0, block: done.blockNumber };
}

/** The ranked list as CSV into `out` ("-": stdout), through `out.partial` then renamed. */
async function writeCsv(db: Database, id: number, out: string, signal: AbortSignal): Promise<void> {
  const toStdout = out === "-";
  const path = toStdout ? undefined : `${out}.partial`;
  const stream = toStdout ? process.stdout : createWriteStream(path!);
  try {
    let after = 0;
    if (!stream.write("rank,address,balance\n")) await once(stream, "drain");
    for (;;) {
      if (signal.aborted) throw new Error("stopped");
      const batch = await snapshotCsvBatch(db, id, after, BATCH);
      if (batch.text && !stream.write(batch.text)) await once(stream, "drain");
      if (batch.rows < BATCH) break;
      after = batch.last;
    }
    if (!toStdout) {
      await new Promise<void>((resolve, reject) => (stream as ReturnType<typeof createWriteStream>).end((err?: Error | null) => (err ? reject(err) : resolve())));
      await rename(path!, out);
    }
  } catch (err) {
    if (!toStdout) {
      (stream as ReturnType<typeof createWriteStream>).destroy();
      await rm(path!, { force: true });
    }
    throw err;
  }
}
