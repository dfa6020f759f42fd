/**
 * Waits for `work` at most `ms`; past it, calls `onTimeout` (which should cut what it waits on)
 * and resolves false, leaving `work` behind (its rejection is swallowed). Shutdown uses it so that
 * a close waiting on a peer that stopped answering (Redis accepting and never replying) cannot hold
 * the process forever.
 */
export async function within(work: Promise<unknown>, ms: number, onTimeout: () => void): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  if (!done) onTimeout();
  return done;
}

/** How long each of shutdown's closes that waits on Redis may take. */
export const REDIS_CLOSE_TIMEOUT_MS = 5_000;
