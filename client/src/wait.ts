/**
 * `snapshots.wait(id)`: a holder snapshot is computed by a job (queued → running → done, or
 * failed with its error); this reads it every `interval` until it is one of the last two.
 */
import type { CallOptions, PathValue } from "./call.js";
import { SnapshotWaitError } from "./errors.js";
import type { Sleep } from "./http.js";
import type { components } from "./schema.js";

type Snapshot = components["schemas"]["HolderSnapshot"];

export interface WaitOptions {
  /** Stops waiting: rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds to wait in all (default 0: no limit); past it, SnapshotWaitError with reason "timeout". */
  timeout?: number;
  /** Milliseconds between two reads (default 1000). */
  interval?: number;
  /** Extra headers of each read. */
  headers?: CallOptions["headers"];
}

export async function waitForSnapshot(get: (id: PathValue, options: CallOptions) => Promise<Snapshot>, id: PathValue, options: WaitOptions, sleep: Sleep): Promise<Snapshot> {
  const interval = options.interval ?? 1_000;
  const ms = options.timeout ?? 0;
  if (!(interval > 0 && interval <= 2_147_483_647)) throw new RangeError(`wait: interval must be a number of milliseconds above 0, not ${interval}`);
  if (!(ms >= 0 && ms <= 2_147_483_647)) throw new RangeError(`wait: timeout must be a number of milliseconds from 0 (none) to 2147483647, not ${ms}`);
  const deadline = ms > 0 ? AbortSignal.timeout(ms) : undefined;
  const signals = [options.signal, deadline].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  let last: Snapshot | undefined;
  try {
    for (;;) {
      last = await get(id, { signal, headers: options.headers });
      if (last.state === "done") return last;
      if (last.state === "failed") throw new SnapshotWaitError("failed", `holder snapshot ${id} failed: ${last.error ?? "no reason kept"}`, last);
      await sleep(interval, signal);
    }
  } catch (err) {
    // The deadline ends a read or a sleep: either way the snapshot was not done in time.
    if (!(err instanceof SnapshotWaitError) && deadline?.aborted && signal?.reason === deadline.reason) {
      throw new SnapshotWaitError("timeout", `holder snapshot ${id} was not done within ${ms} ms (${last ? `last read: ${last.state}` : "no answer"})`, last);
    }
    throw err;
  }
}
