/**
 * How a CSV download is sent: in small pieces, at the client's pace, and cut only when the client
 * falls below a stated minimum rate (docs/api.md, "CSV downloads").
 *
 * Why not the connection budget's 30 s write deadline (api/connection-budget.ts): it sees
 * progress as the bytes the kernel has taken, and TCP lets a sender write again only once a third
 * of its send buffer has drained — ≈ 1.3 MB with Linux's autotuned 4 MB buffers. A client reading
 * a steady 32 KB/s therefore shows no progress for ≈ 41 s at a time, and 8 of 8 such readers were
 * cut (issue 38, finding 5; measured in docs/performance.md: at 32 KB/s the sender's count did not
 * move for 30 s after the first 4 MB, whatever the size of the chunks written). A download's
 * connection is left to this rule instead (pacedByItself).
 *
 * Why a rate and no fixed deadline: a fixed one (10 min, 60 s) cut any honest reader of a list
 * larger than deadline × its speed. The rule: after `graceMs`, the bytes sent must keep up with
 * `minBytesPerSecond` over the time the client held the download — the time the server spent
 * producing the next piece (a query, its turn in the read budget, a file read) is not the
 * client's and is left out. A client at or above the rate is never cut, whatever the size; one
 * that trickles or stalls falls behind and is cut. Bytes the kernel has taken count as sent, so a
 * stalled reader gets the socket buffers (≈ 4 MB) on top: cut within graceMs + 4 MB / rate
 * (≈ 4.8 min at 16 KB/s).
 *
 * Why pieces: at most one piece (16 KB) waits in the socket beyond what the kernel took, instead
 * of a whole batch (700 KB), and the count of bytes sent follows what the kernel took closely.
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

/** What the download's owner hears: `end` once, however it ends; `cut`, if given, ends the connection when the download is cut (else the stream errors). */
export interface DownloadHooks {
  end(how: DownloadEnd, err?: unknown): void;
  /**
   * Ends the connection of a download that is cut. The client sees the answer end short (a
   * chunked answer without its last chunk, or fewer bytes than Content-Length): a failed
   * download, never a shorter list passed as whole. Erroring the stream instead would make
   * @hono/node-server print the error to the console.
   */
  cut?(err: Error): void;
}

export class TooSlowError extends Error {
  constructor(readonly sent: number, readonly ms: number, readonly minBytesPerSecond: number) {
    super(`the download fell below its minimum rate (${sent} bytes in ${Math.round(ms / 1000)} s; at least ${minBytesPerSecond} bytes/s are needed)`);
    this.name = "TooSlowError";
  }
}

/**
 * A byte stream over `next` (each call the next block of the download, or null at its end):
 * blocks are handed on in pieces of PIECE_BYTES, one piece per read, so at most one block is held.
 * `hooks.end` is called once, when the stream ends for any reason; `next` is never called after it.
 * `bytes`, when given, is the Content-Length sent: a download that would end short of it or pass
 * it is cut ("failed") instead — a short one under a kept-alive connection would leave the client
 * waiting for the rest, a longer one would be refused by node mid-write.
 */
export function pacedStream(next: () => Promise<Uint8Array | null>, pace: PaceLimits, hooks: DownloadHooks, bytes?: number): ReadableStream<Uint8Array> {
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
    hooks.end(how, err);
  };
  /** A cut: the connection ended (the stream is then cancelled by its writer), or the stream errored. */
  const fail = (how: "too_slow" | "failed", err: unknown) => {
    if (ended) return;
    finish(how, err);
    const e = err instanceof Error ? err : new Error(String(err));
    if (hooks.cut) hooks.cut(e);
    else controllerRef?.error(e);
  };
  const check = setInterval(
    () => {
      const held = performance.now() - started - serverMs;
      if (held <= pace.graceMs || sent >= (pace.minBytesPerSecond * (held - pace.graceMs)) / 1000) return;
      fail("too_slow", new TooSlowError(sent, held, pace.minBytesPerSecond));
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
              if (bytes !== undefined && sent !== bytes) throw new Error(`the download ended at ${sent} of the ${bytes} bytes announced`);
              finish("done");
              controller.close();
              return;
            }
            if (bytes !== undefined && sent + got.length > bytes) throw new Error(`the download passed the ${bytes} bytes announced`);
            block = got;
            at = 0;
          }
          const piece = block.subarray(at, at + PIECE_BYTES);
          at += piece.length;
          sent += piece.length;
          controller.enqueue(piece);
        } catch (err) {
          fail("failed", err);
        }
      },
      cancel() {
        finish("cancelled");
      },
    },
    { highWaterMark: 0 },
  );
}
