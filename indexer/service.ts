import type { Database, DbHandle, WriterLock } from "../db/index.js";
import type { Config } from "../shared/config.js";
import { parseFixed, USD_SCALE } from "../shared/decimal.js";
import type { Logger } from "../shared/logger.js";
import { Follower, type FollowerOptions } from "./follower.js";
import type { OracleSettings } from "./market.js";
import type { IndexerMetrics } from "../shared/metrics.js";

export function oracleSettings(config: Config): OracleSettings {
  return {
    nativeTokenId: config.nativeTokenId,
    stablecoins: config.usdStablecoins,
    minLiquidityUsd: parseFixed(config.oracleMinLiquidityUsd, USD_SCALE),
    pins: new Map(),
  };
}

/** Starts following `wsUrl` into the store of `handle` (migrated by the caller). */
/** What to do when the store holds another chain (see FollowerOptions). */
export type ChainPolicy = Pick<FollowerOptions, "onOtherChain" | "onFatal">;

/**
 * For processes: a follower that stops for good ends the process with exit code 1 (through the
 * graceful shutdown of runMain), so a supervisor sees the failure and its message.
 */
export const exitOnFatal: ChainPolicy["onFatal"] = () => {
  process.exitCode = 1;
  process.kill(process.pid, "SIGTERM");
};

export function startIndexer(config: Config, logger: Logger, handle: DbHandle, wsUrl: string, fence?: (tx: Database) => Promise<void>, policy: ChainPolicy = {}, metrics?: IndexerMetrics): Follower {
  const follower = new Follower(handle.db, {
    ...policy,
    metrics,
    wsUrl,
    nativeTokenId: config.nativeTokenId,
    batchBlocks: config.indexerBatchBlocks,
    prefetchBlocks: config.indexerPrefetchBlocks,
    rebootstrap: config.indexerRebootstrap,
    historyHours: config.indexerHistoryHours,
    sweepReadsPerSecond: config.indexerSweepReadsPerSecond,
    oracle: oracleSettings(config),
    logger,
    fence,
  });
  metrics?.attach(() => follower.status);
  follower.start();
  return follower;
}

const STANDBY_POLL_MS = 2_000;

/**
 * The indexer as one writer among replicas: waits (standby) until it holds the writer lock,
 * then follows. While following it checks the lock's connection every 2 s; if that connection
 * drops, Postgres has released the lock and a standby may take over, so this one stops and goes
 * back to standby — and until it notices, every commit is fenced (it checks the lock inside its
 * own transaction), so two writers never both commit. Returns at once; stop() works in any state.
 */
export function startSingleWriter(config: Config, logger: Logger, handle: DbHandle, wsUrl: string, policy: ChainPolicy = {}, metrics?: IndexerMetrics): { stop(): Promise<void> } {
  let stopped = false;
  let follower: Follower | undefined;
  let lock: WriterLock | undefined;
  let wake: (() => void) | undefined;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STANDBY_POLL_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const acquire = async (): Promise<WriterLock | undefined> => {
    try {
      return await handle.tryWriterLock();
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "indexer: cannot reach the database for the writer lock; retrying");
      return undefined;
    }
  };
  const running = (async () => {
    while (!stopped) {
      let announced = false;
      while (!stopped && !(lock = await acquire())) {
        if (!announced) logger.info("indexer: standby — another indexer holds the writer lock; taking over when it goes");
        announced = true;
        await pause();
      }
      if (stopped || !lock) break;
      if (announced) logger.info("indexer: writer lock acquired; taking over");
      follower = startIndexer(config, logger, handle, wsUrl, lock.fence, policy, metrics);
      while (!stopped && (await lock.alive())) await pause();
      if (stopped) break;
      logger.error("indexer: writer lock lost (its database connection dropped); stopping and going back to standby");
      await follower.stop();
      follower = undefined;
      await lock.release();
      lock = undefined;
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      // The follower stops now (after its page or batch in flight), not once a lock check in
      // flight has answered; the loop starts no other after `stopped`.
      await Promise.all([running, follower?.stop()]);
      await follower?.stop();
      await lock?.release();
    },
  };
}
