/**
 * `tokenpool start` / `npm start`: the whole service in one process tree. With WS_URL: migrations, the indexer
 * following that chain, and the API. Without it: a local chopsticks devnet, seeded with a live
 * market scenario as soon as the indexer follows, so a fresh machine shows tokens, pools and
 * prices moving.
 */
import { startApiServer } from "../api/server.js";
import { backfillMetricSource, createDb, type DbHandle } from "../db/index.js";
import { startDevnet } from "../indexer/devnet/chopsticks.js";
import { fundMarketAccounts, seedMarket, startLiveSwaps, warnOnTradeFailure, type LiveSwaps } from "../indexer/devnet/scenario.js";
import { exitOnFatal, startSingleWriter } from "../indexer/service.js";
import { IndexerMetrics, startMetricsServer } from "../shared/metrics.js";
import { ApiPromise, WsProvider } from "@polkadot/api";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/logger.js";
import { localUrl, type Say } from "./start-lines.js";

export type Stop = () => Promise<void>;

/**
 * The local devnet; returns its ws URL and a function that starts seeding the market and then
 * keeps it trading (called once the indexer follows, so the scenario's own swaps are indexed
 * too). Seeding takes ≈ 20 s; it runs in the background so that the service is up, and a
 * SIGTERM stops it, meanwhile. Stops are added first-to-run.
 */
async function startLocalChain(config: Config, logger: Logger, stops: Stop[], say: Say): Promise<{ wsUrl: string; startMarket: () => void }> {
  say("starting the local devnet (chopsticks, the Asset Hub Kusama runtime)…");
  const devnet = await startDevnet({ genesis: config.devnetGenesis, port: config.devnetPort, logger, progress: logger.isLevelEnabled("debug") });
  stops.unshift(() => devnet.close());
  say(`devnet at ${devnet.wsUrl}`);
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  stops.unshift(() => api.disconnect());
  let stopping = false;
  let trading: LiveSwaps | undefined;
  stops.unshift(async () => {
    stopping = true; // a seed step in flight fails when the API disconnects: expected, not logged
    await trading?.stop();
  });
  // dev_setStorage funding emits no event, so it must precede the indexer's bootstrap.
  await fundMarketAccounts(api);
  const seed = async () => {
    // Without asset conversion (the Rococo fallback) the scenario seeds assets and holders, and the trickle transfers.
    logger.info({ wsUrl: devnet.wsUrl, pools: devnet.assetConversionAvailable }, "devnet: seeding the market scenario");
    say(`seeding the devnet's market (assets, holders${devnet.assetConversionAvailable ? ", pools, swaps" : ""}) while it is indexed…`);
    const market = await seedMarket(api);
    if (stopping) return;
    logger.info({ wsUrl: devnet.wsUrl, block: market.block, assets: market.assetIds.length, pools: market.pools.length, holders: market.holders.length }, "devnet: seeded; trading live");
    say(`market seeded at block ${market.block}: ${market.assetIds.length} assets, ${market.pools.length} pools, ${market.holders.length} holders; trading goes on`);
    trading = startLiveSwaps(api, { intervalMs: config.devnetSwapIntervalMs, onError: warnOnTradeFailure(logger) });
  };
  const startMarket = () => {
    seed().catch((err) => {
      if (!stopping) logger.error({ err }, "devnet: seeding the market failed; the chain runs on without it");
    });
  };
  return { wsUrl: devnet.wsUrl, startMarket };
}

/** Opens the configured store and applies the migrations; closes it again if they fail. */
async function openStore(config: Config): Promise<DbHandle> {
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
  try {
    await handle.migrate();
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
  return handle;
}

/** Starts everything; resolves to the function that stops it all, in order. `say` tells a person each phase. */
export async function startAll(config: Config, logger: Logger, say: Say = () => {}): Promise<Stop> {
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops) await stop();
  };
  try {
    // The store (on PGlite ≈ 6 s of WASM start and migrations) opens while chopsticks starts.
    say(`opening the store (${config.databaseUrl ? "PostgreSQL at DATABASE_URL" : `PGlite in ${config.dataDir}`})…`);
    const [store, chain] = await Promise.allSettled([openStore(config), config.wsUrl ? undefined : startLocalChain(config, logger, stops, say)]);
    if (store.status === "fulfilled") stops.push(() => store.value.close());
    if (store.status === "rejected") throw store.reason;
    if (chain.status === "rejected") throw chain.reason;
    const handle = store.value;
    const local = chain.value;
    const wsUrl = config.wsUrl ?? local!.wsUrl;
    // The devnet starts from genesis on every run: a store left by an earlier run holds a chain
    // that no longer exists, and is emptied. Any other chain must be the store's own.
    const indexerMetrics = new IndexerMetrics(undefined, undefined, () => backfillMetricSource(handle.db));
    say(`indexing ${config.wsUrl ? "the chain at WS_URL" : "the devnet"}: following its finalized blocks (a new store reads their state first)`);
    const follower = startSingleWriter(config, logger, handle, wsUrl, { onOtherChain: config.wsUrl ? "refuse" : "reset", onFatal: exitOnFatal }, indexerMetrics);
    stops.unshift(() => follower.stop());
    const server = await startApiServer(config, logger, { shared: handle, noMetricsServer: true });
    const url = localUrl(config.host, server.port);
    say(`serving at ${url} (the dashboard; the API reference at ${url}docs; /health says how far the indexer is)`);
    // One process, one /metrics: the API's and the indexer's together.
    if (config.metricsPort !== undefined) {
      const metricsServer = await startMetricsServer([server.metrics.registry, indexerMetrics.registry], config.metricsPort, config.metricsHost);
      stops.unshift(() => metricsServer.close());
      logger.info({ port: metricsServer.port, host: config.metricsHost }, "metrics at GET /metrics");
    }
    stops.unshift(() => server.close());
    local?.startMarket();
  } catch (err) {
    await stopAll().catch(() => {});
    throw err;
  }
  return stopAll;
}
