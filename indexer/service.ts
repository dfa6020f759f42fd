import type { DbHandle } from "../db/index.js";
import type { Config } from "../shared/config.js";
import { parseFixed, USD_SCALE } from "../shared/decimal.js";
import type { Logger } from "../shared/logger.js";
import { Follower } from "./follower.js";
import type { OracleSettings } from "./market.js";

export function oracleSettings(config: Config): OracleSettings {
  return {
    nativeTokenId: config.nativeTokenId,
    stablecoins: new Set(config.usdStablecoins),
    minLiquidityUsd: parseFixed(config.oracleMinLiquidityUsd, USD_SCALE),
  };
}

/** Starts following `wsUrl` into the store of `handle` (migrated by the caller). */
export function startIndexer(config: Config, logger: Logger, handle: DbHandle, wsUrl: string): Follower {
  const follower = new Follower(handle.db, {
    wsUrl,
    nativeTokenId: config.nativeTokenId,
    batchBlocks: config.indexerBatchBlocks,
    oracle: oracleSettings(config),
    logger,
  });
  follower.start();
  return follower;
}

const STANDBY_POLL_MS = 2_000;

/**
 * The indexer as one writer among replicas: waits (standby) until it holds the writer lock,
 * then follows. Returns at once; stop() works in either state.
 */
export function startSingleWriter(config: Config, logger: Logger, handle: DbHandle, wsUrl: string): { stop(): Promise<void> } {
  let stopped = false;
  let follower: Follower | undefined;
  let release: (() => Promise<void>) | undefined;
  let wake: (() => void) | undefined;
  const running = (async () => {
    let announced = false;
    while (!stopped && !(release = await handle.tryWriterLock())) {
      if (!announced) logger.info("indexer: standby — another indexer holds the writer lock; taking over when it goes");
      announced = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STANDBY_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (!stopped) {
      if (announced) logger.info("indexer: writer lock acquired; taking over");
      follower = startIndexer(config, logger, handle, wsUrl);
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await follower?.stop();
      await release?.();
    },
  };
}
