/**
 * The verification sweep (sweep.ts) as a follower session runs it: retried after a failed page,
 * ended with the session, its progress in the follower's status.
 */
import { deleteTask, getTask, type Database } from "../db/index.js";
import type { FollowerStatus } from "./follower-options.js";
import { pause, Sweeper, SweepStopped, UNVERIFIED_UPGRADE, UPGRADE_SWEEP_TASK, type Drift, type SweepContext, type SweepState } from "./sweep.js";

/** After a failed page (a read that failed), the sweep tries it again after this long. */
const SWEEP_RETRY_MS = 5_000;

/**
 * The verification sweep of one follower session, until the session ends: a failed page is
 * logged and tried again (its position was not stored); following never waits for it. Progress
 * goes to the follower's status (metrics, not the heartbeat: a follower stuck on a block must not
 * look alive because the sweep moves). With a budget of 0 the sweep is off, and a pass owed from
 * when it ran is dropped (nothing would run it, and its marker would refuse as-of answers for good).
 */
export async function sweepSession(ctx: Omit<SweepContext, "onProgress"> & { status: FollowerStatus }): Promise<void> {
  const { db, logger: log, signal, status } = ctx;
  if (ctx.readsPerSecond <= 0) {
    try {
      const owed = await getTask<{ block: number; specName: string; specVersion: number }>(db, UPGRADE_SWEEP_TASK);
      if (owed) {
        log.warn(owed, UNVERIFIED_UPGRADE);
        await db.transaction(async (tx) => {
          await ctx.fence?.(tx as unknown as Database);
          await deleteTask(tx as unknown as Database, UPGRADE_SWEEP_TASK);
        });
      }
    } catch (err) {
      // The next session tries again (a writer lock lost: the follower stops).
      log.warn({ err: err instanceof Error ? err.message : String(err) }, "indexer: could not drop the verification pass owed (the sweep is off)");
    }
    return;
  }
  const onProgress = (state: SweepState, drift: Drift[]) => {
    const sweep = status.sweep;
    for (const d of drift) sweep.drift[`${d.table}.${d.kind}`] = (sweep.drift[`${d.table}.${d.kind}`] ?? 0) + 1;
    if (state.lastPass && state.lastPass.pass !== sweep.lastPass?.pass) {
      sweep.passes++;
      sweep.lastPass = { pass: state.lastPass.pass, startBlock: state.lastPass.startBlock, endBlock: state.lastPass.endBlock, seconds: state.lastPass.seconds, endedAt: Date.parse(state.lastPass.endedAt) / 1000 };
    }
    status.progress.sweep = { done: state.checked, total: null, finished: false };
  };
  while (!signal.aborted) {
    try {
      await new Sweeper({ ...ctx, onProgress }).run();
      return;
    } catch (err) {
      if (signal.aborted || err instanceof SweepStopped) return;
      log.warn({ err: err instanceof Error ? err.message : String(err), retryMs: SWEEP_RETRY_MS }, "indexer: a verification page failed; trying it again");
      // Ended by the session's end (a stop, a reconnect), not only by the timer.
      await pause(SWEEP_RETRY_MS, signal);
    }
  }
}
