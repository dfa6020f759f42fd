/**
 * What the API does when the indexer commits a block (NOTIFY on BLOCKS_CHANNEL): wait for the
 * read replica to have it, compute the hot answers of the new block while the previous block's
 * are still served, switch the response cache in one step, then announce the block to /ws.
 */
import { latestBlock, type BlockAnnouncement, type Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import { loadSymbols } from "./canonical.js";
import type { LiveHub } from "./live/hub.js";
import type { Entry, PrewarmEnv, ResponseCache } from "./middleware/cache.js";

/** How many of the most served answers are computed ahead of each block switch, and how many at once. */
export const PREWARM_KEYS = 32;
const PREWARM_CONCURRENCY = 4;
/** The longest a block switch waits for answers computed ahead (the rest are computed on demand). */
export const PREWARM_BUDGET_MS = 1_000;

type FetchApp = { fetch: (req: Request, env: PrewarmEnv) => Response | Promise<Response> };

/**
 * Computes the answers of `keys` (cache keys: path and canonical query) through the app, in
 * process, each in its own read snapshot, with an env no socket request has (see PrewarmEnv):
 * no rate limit, auth or request log, and the answer goes to the returned map, not the cache.
 * A failed or non-200 answer is left out (the next request computes it). Bounded in time as a
 * whole: a computation still running after `budgetMs` (a slow statement) does not hold the block
 * switch; what it stages after that is not used.
 */
export async function prewarm(app: FetchApp, keys: string[], logger: Logger, budgetMs = PREWARM_BUDGET_MS): Promise<Map<string, Entry>> {
  const staged = new Map<string, Entry>();
  const deadline = performance.now() + budgetMs;
  let next = 0;
  const worker = async () => {
    while (next < keys.length && performance.now() < deadline) {
      const key = keys[next++]!;
      try {
        await app.fetch(new Request(`http://prewarm${key}`), { prewarm: staged });
      } catch (err) {
        logger.warn({ err }, "api: computing an answer ahead of a block failed");
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(Array.from({ length: PREWARM_CONCURRENCY }, worker)), new Promise((r) => (timer = setTimeout(r, budgetMs)))]);
  clearTimeout(timer);
  return new Map(staged);
}

export interface BlockSwitchDeps {
  app: FetchApp;
  cache: ResponseCache | undefined;
  hub: LiveHub;
  /** The read replica, when reads go to one: a block is switched to only once it has it. */
  replica: Database | undefined;
  /** Where reads go (the replica or the primary): the head after a lost notification connection. */
  reads: Database;
  logger: Logger;
}

export function blockSwitch(deps: BlockSwitchDeps): { announced(block: BlockAnnouncement): void; resubscribed(): void } {
  const { app, cache, hub, replica, logger } = deps;
  // With a replica, a block is announced (cache switched, pushes computed) only once the replica
  // has it: NOTIFY comes from the primary at commit, the replica applies it later, and an answer
  // computed in between would be the older block's, cached or pushed as the new one.
  // Blocks that arrive while one switch is under way are announced together after it (one wait
  // for the newest of them), so a lagging replica never queues one wait per block.
  const pending: BlockAnnouncement[] = [];
  let switching = false;
  const run = async () => {
    switching = true;
    try {
      while (pending.length > 0) {
        // Only the blocks a wait covered are announced: those arriving during the last wait may be
        // newer than what the replica has (announced too, they labelled older values as theirs).
        let covered = pending.length;
        if (replica) {
          // Blocks that arrive during a wait join it: the wait is made again for the newest (at
          // most 3 times, so a replica lagging more than a block time still announces).
          for (let turn = 0; turn < 3; turn++) {
            covered = pending.length;
            await replicaReaches(replica, pending[covered - 1]!.number, logger);
            if (pending.length === covered) break;
          }
        }
        // The hot answers of the new block are computed before it is announced (the previous
        // block's are served meanwhile), so a block does not turn every hot read into a miss.
        // The symbol table that keys pairs (api/canonical.ts) switches with them; unread, pairs
        // are keyed as spelled until the next block.
        if (cache) {
          const [staged, symbols] = await Promise.all([prewarm(app, cache.hotKeys(PREWARM_KEYS), logger), loadSymbols(deps.reads).catch(() => undefined)]);
          cache.renew(staged, symbols);
        }
        for (const block of pending.splice(0, covered)) hub.onBlock(block);
      }
    } catch (err) {
      logger.error({ err }, "api: block announcement failed");
    } finally {
      switching = false;
    }
  };
  return {
    announced(block) {
      pending.push(block);
      if (!switching) void run();
    },
    resubscribed() {
      // The notification connection came back: blocks committed meanwhile were never announced,
      // so what is cached may be older than the store (it was served until the next block).
      cache?.clear();
      if (cache) void loadSymbols(deps.reads).then((s) => cache.useSymbols(s), () => cache.useSymbols(undefined));
      void latestBlock(deps.reads)
        .then((head) => hub.refresh(head?.number))
        .catch(() => hub.refresh(undefined));
      logger.warn("api: block notifications re-subscribed after a lost connection; cache cleared, topics recomputed");
    },
  };
}

/** Waits (polling every 50 ms) until the replica has block `number`; gives up after 60 s, saying so. */
async function replicaReaches(db: Database, number: number, logger: Logger): Promise<void> {
  const started = Date.now();
  let warned = false;
  for (;;) {
    const newest = await latestBlock(db).catch(() => undefined);
    if (newest && newest.number >= number) return;
    const waited = Date.now() - started;
    if (waited > 5_000 && !warned) {
      warned = true;
      logger.warn({ block: number, replica: newest?.number ?? null }, "api: the read replica lags; block announcements wait for it");
    }
    if (waited > 60_000) {
      logger.error({ block: number, replica: newest?.number ?? null }, "api: the read replica is over 60 s behind; announcing without it");
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
