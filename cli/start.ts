/**
 * `tokenpool start` / `npm start`: the whole service in one process tree. With WS_URL: migrations, the indexer
 * following that chain, and the API. Without it: a local chopsticks devnet seeded with a live
 * market scenario first, so a fresh machine shows tokens, pools and prices moving.
 */
import { startApiServer } from "../api/server.js";
import { createDb } from "../db/index.js";
import { startDevnet } from "../indexer/devnet/chopsticks.js";
import { fundMarketAccounts, seedMarket, startLiveSwaps } from "../indexer/devnet/scenario.js";
import { startSingleWriter } from "../indexer/service.js";
import { ApiPromise, WsProvider } from "@polkadot/api";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/logger.js";

export type Stop = () => Promise<void>;

/**
 * The local devnet; returns its ws URL and a function that seeds the market and keeps it
 * trading (called once the indexer follows, so the scenario's own swaps are indexed too).
 * Stops are added first-to-run.
 */
async function startLocalChain(config: Config, logger: Logger, stops: Stop[]): Promise<{ wsUrl: string; startMarket: () => Promise<void> }> {
  const devnet = await startDevnet({ genesis: config.devnetGenesis, port: config.devnetPort, logger });
  stops.unshift(() => devnet.close());
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  stops.unshift(() => api.disconnect());
  // dev_setStorage funding emits no event, so it must precede the indexer's bootstrap.
  await fundMarketAccounts(api);
  const startMarket = async () => {
    if (!devnet.assetConversionAvailable) return;
    logger.info({ wsUrl: devnet.wsUrl }, "devnet: seeding the market scenario");
    const market = await seedMarket(api);
    logger.info({ wsUrl: devnet.wsUrl, block: market.block, assets: market.assetIds.length, pools: market.pools.length, holders: market.holders.length }, "devnet: seeded; swapping live");
    const swaps = startLiveSwaps(api, { intervalMs: config.devnetSwapIntervalMs });
    stops.unshift(() => swaps.stop());
  };
  return { wsUrl: devnet.wsUrl, startMarket };
}

/** Starts everything; resolves to the function that stops it all, in order. */
export async function startAll(config: Config, logger: Logger): Promise<Stop> {
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops) await stop();
  };
  try {
    const local = config.wsUrl ? undefined : await startLocalChain(config, logger, stops);
    const wsUrl = config.wsUrl ?? local!.wsUrl;
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await handle.migrate();
    stops.push(() => handle.close());
    const follower = startSingleWriter(config, logger, handle, wsUrl);
    stops.unshift(() => follower.stop());
    const server = await startApiServer(config, logger, { shared: handle });
    stops.unshift(() => server.close());
    await local?.startMarket();
  } catch (err) {
    await stopAll().catch(() => {});
    throw err;
  }
  return stopAll;
}
