/**
 * `tokenpool devnet` / `npm run devnet`: a local Asset Hub with a seeded, moving market, for running the indexer
 * against (WS_URL=<the printed URL>) or just poking at with polkadot.js. Ctrl-C stops it.
 *
 * Settings: DEVNET_GENESIS (raw chain spec path or https URL, or "rococo"; unset = the Kusama
 * Asset Hub genesis shipped in indexer/devnet/genesis), DEVNET_PORT (default 9944),
 * DEVNET_SWAP_INTERVAL_MS (default 3000).
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import type { Config } from "../../shared/config.js";
import type { Logger } from "../../shared/logger.js";
import { startDevnet } from "./chopsticks.js";
import { seedMarket, startLiveSwaps, warnOnTradeFailure } from "./scenario.js";

/** Starts the devnet, seeds it, prints its URL and keeps the market moving; resolves to its stop. */
export async function runDevnet(config: Config, logger: Logger): Promise<() => Promise<void>> {
  let started = Date.now();
  const devnet = await startDevnet({ genesis: config.devnetGenesis, port: config.devnetPort, logger, progress: logger.isLevelEnabled("debug") });
  logger.info({ ms: Date.now() - started, port: devnet.port }, "chopsticks started");
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  started = Date.now();
  const market = await seedMarket(api);
  logger.info({ ms: Date.now() - started, block: market.block, holders: market.holders.length }, "market seeded");
  const chain = api.runtimeChain.toString();
  process.stdout.write(`devnet: ${devnet.wsUrl} (${chain}, ${market.assetIds.length} assets, ${market.pools.length} pools)\n`);
  const swaps = startLiveSwaps(api, { intervalMs: config.devnetSwapIntervalMs, onError: warnOnTradeFailure(logger) });
  return async () => {
    await swaps.stop();
    await api.disconnect();
    await devnet.close();
  };
}
