/**
 * How a CSV download is sent: in small pieces, at the client's pace, and cut only when the client
 * falls below a stated minimum rate (docs/api.md, "CSV downloads").
 *
 * Why pieces: the connection budget's write deadline (api/connection-budget.ts) sees progress as
 * `bytesWritten − writableLength`, and a chunk handed to the socket counts as written only once
 * the kernel has taken all of it. A batch enqueued whole (10,000 rows ≈ 700 KB) therefore showed
 * no progress for 700 KB / rate: at 32 KB/s, 22 s per chunk once the socket buffers were full,
 * and readers at that speed were cut at the 30 s deadline (issue 38, finding 5). A piece of
 * PIECE_BYTES moves every half second at that rate, and every 30 s down to ≈ 0.55 KB/s.
 *
 * Why a rate and no fixed deadline: a fixed one (10 min, 60 s) cut any honest reader of a list
 * larger than deadline × its speed. The rule instead: after `graceMs`, the bytes sent must keep up
 * with `minBytesPerSecond` over the time the client held the download — the time the server
 * spent producing the next piece (a query, its turn in the read budget, a file read) is not the
 * client's and is left out. A client at or above the rate is never cut, whatever the size; one
 * that trickles falls behind and is cut; one that stalls is cut sooner by the write deadline.
 * Bytes the kernel has taken count as sent, so a trickler gets at most the socket buffers
 * (≈ 4 MB on Linux) beyond its rate: cut by graceMs + buffers / rate.
 */

/** Bytes per piece handed to the socket: its high-water mark, so each write waits for the last to drain. */
export const PIECE_BYTES = 16 * 1024;

export interface PaceLimits {
  /** The stated minimum rate (bytes/s) a reader must keep to hold its download. */
  minBytesPerSecond: number;
  /** Time from the start before the rate is checked (covers the start and a short pause). */
  graceMs: number;
}

/** What ended a download: its last byte, the client (cancelled), the rate rule, or an error. */
export type DownloadEnd = "done" | "cancelled" | "too_slow" | "failed";

export class TooSlowError extends Error {
  constructor(readonly sent: number, readonly ms: number, readonly minBytesPerSecond: number) {
    super(`the download fell below its minimum rate (${sent} bytes in ${Math.round(ms / 1000)} s; at least ${minBytesPerSecond} bytes/s are needed)`);
    this.name = "TooSlowError";
  }
}

/**
 * A byte stream over `next` (each call the next block of the download, or null at its end):
 * blocks are handed on in pieces of PIECE_BYTES, one piece per read, so at most one block is held.
 * `end` is called once, when the stream ends for any reason; `next` is never called after it.
 */
export function pacedStream(next: () => Promise<Uint8Array | null>, pace: PaceLimits, end: (how: DownloadEnd, err?: unknown) => void): ReadableStream<Uint8Array> {
  const started = performance.now();
  let serverMs = 0;
  let sent = 0;
  let block: Uint8Array | undefined;
  let at = 0;
  let ended = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const finish = (how: DownloadEnd, err?: unknown) => {
    if (ended) return;
    ended = true;
    clearInterval(check);
    block = undefined;
    end(how, err);
  };
  const check = setInterval(
    () => {
      const held = performance.now() - started - serverMs;
      if (held <= pace.graceMs || sent >= (pace.minBytesPerSecond * (held - pace.graceMs)) / 1000) return;
      const err = new TooSlowError(sent, held, pace.minBytesPerSecond);
      finish("too_slow", err);
      controllerRef?.error(err);
    },
    Math.max(50, Math.min(1_000, Math.floor(pace.graceMs / 4))),
  );
  check.unref();
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
      },
      async pull(controller) {
        if (ended) return;
        try {
          // Every pull enqueues or ends: a pull that returned with neither would never be called again.
          while (!block || at >= block.length) {
            const t0 = performance.now();
            const got = await next();
            serverMs += performance.now() - t0;
            if (ended) return;
            if (!got) {
              finish("done");
              controller.close();
              return;
            }
            block = got;
            at = 0;
          }
          const piece = block.subarray(at, at + PIECE_BYTES);
          at += piece.length;
          sent += piece.length;
          controller.enqueue(piece);
        } catch (err) {
          finish("failed", err);
          controller.error(err);
        }
      },
      cancel() {
        finish("cancelled");
      },
    },
    { highWaterMark: 0 },
  );
}
