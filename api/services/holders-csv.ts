/**
 * The current holder list of a token as CSV (GET /assets/holders/{id} with Accept: text/csv):
 * the file of the newest list (api/services/holder-csv-files.ts: dumped at the database's speed in
 * one transaction, shared), sent at the client's pace (api/services/csv-pace.ts). No database
 * connection is held while the client reads.
 */
import { open, type FileHandle } from "node:fs/promises";
import type { DownloadHooks, PaceLimits } from "./csv-pace.js";
import { pacedStream } from "./csv-pace.js";
import type { HolderCsvFiles } from "./holder-csv-files.js";

/** Bytes read from the file at a time (the stream sends them in pieces). */
const READ_BYTES = 64 * 1024;

/**
 * The stream of `tokenId`'s newest list, its block, its exact size in bytes and its rows (the
 * header line not counted). `hooks.end` is
 * called once when the stream ends; the file is held until then.
 */
export async function currentHoldersCsv(files: HolderCsvFiles, tokenId: number, opts: { pace: PaceLimits; hooks: DownloadHooks }): Promise<{ body: ReadableStream<Uint8Array>; block: number; bytes: number; rows: number }> {
  const { file, release } = await files.open(tokenId);
  let fh: FileHandle;
  try {
    fh = await open(file.path, "r");
  } catch (err) {
    release();
    throw err;
  }
  let at = 0;
  const next = async (): Promise<Uint8Array | null> => {
    if (at >= file.bytes) return null;
    const buf = Buffer.allocUnsafe(Math.min(READ_BYTES, file.bytes - at));
    const { bytesRead } = await fh.read(buf, 0, buf.length, at);
    if (bytesRead === 0) throw new Error(`the holders CSV file ended at ${at} of ${file.bytes} bytes`);
    at += bytesRead;
    return buf.subarray(0, bytesRead);
  };
  const body = pacedStream(next, opts.pace, {
    ...opts.hooks,
    end: (how, err) => {
      void fh.close().catch(() => {});
      release();
      opts.hooks.end(how, err);
    },
  }, file.bytes);
  return { body, block: file.block, bytes: file.bytes, rows: file.rows };
}
