/**
 * The devnet on an older runtime: DEVNET_GENESIS=rococo runs Rococo Asset Hub from
 * @substrate/connect-known-chains (statemine 900, metadata v14, older than asset conversion and
 * foreign assets). It must say so, seed the assets of the scenario without pools, and the
 * indexer must follow that runtime to a state equal to chain storage.
 */
import "@polkadot/api-augment/assetHubKusama";
import { Writable } from "node:stream";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { u8aToString } from "@polkadot/util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, type DbHandle } from "../../db/index.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { ASSETS } from "../../indexer/devnet/plan.js";
import { seedMarket, startLiveSwaps, type MarketSummary } from "../../indexer/devnet/scenario.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp } from "../support/app.js";
import { chainSnapshot, dbSnapshot } from "../support/chain.js";
import { until } from "../support/wait.js";
import { memoryStore } from "../support/db.js";

const LONG = 180_000;

describe("devnet on Rococo Asset Hub (DEVNET_GENESIS=rococo): an older runtime without pools", () => {
  const warnings: string[] = [];
  let devnet: Devnet;
  let api: ApiPromise;
  let handle: DbHandle;
  let follower: Follower;
  let market: MarketSummary;
  /** Steps of the live trickle (transfers here, there is nothing to swap) that failed. */
  const failures: unknown[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        warnings.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
        done();
      },
    });
    devnet = await startDevnet({ genesis: "rococo", port: 0, logger: pino({ level: "warn" }, sink) });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    handle = await memoryStore();
    market = await seedMarket(api, { holders: 12 });
    // Started after the seed: it bootstraps from storage, then follows the transfers below.
    follower = startIndexer(loadConfig({}), createLogger("silent"), handle, devnet.wsUrl);
    const trading = startLiveSwaps(api, { intervalMs: 0, onError: (err) => failures.push(err) });
    const head = market.block + 3;
    await until(`the chain to reach block ${head}`, async () => (await api.rpc.chain.getHeader()).number.toNumber() >= head);
    await trading.stop();
    const final = (await api.rpc.chain.getHeader()).number.toNumber();
    await until(`the indexer to reach block ${final}`, () => (follower.status.block ?? 0) >= final);
    await follower.stop();
  }, LONG);

  afterAll(async () => {
    await follower?.stop();
    await handle?.close();
    await api?.disconnect();
    await devnet?.close();
  }, 60_000);

  it("says it runs Rococo Asset Hub, without pools", () => {
    expect(warnings).toContain("running Rococo Asset Hub from @substrate/connect-known-chains — assets only, no asset-conversion pools");
    expect(devnet.assetConversionAvailable).toBe(false);
    expect(api.runtimeChain.toString()).toMatch(/rococo/i);
    expect(api.tx.assetConversion).toBeUndefined();
  });

  it("seeds every asset with its metadata and decimals, and mints to the holders; no pools", async () => {
    expect(market.pools).toEqual([]);
    for (const spec of ASSETS) {
      const meta = await api.query.assets.metadata(spec.id);
      expect({ name: u8aToString(meta.name.toU8a(true)), symbol: u8aToString(meta.symbol.toU8a(true)), decimals: meta.decimals.toNumber() }).toEqual({ name: spec.name, symbol: spec.symbol, decimals: spec.decimals });
    }
    for (const mint of market.mints) {
      expect((await api.query.assets.account(mint.assetId, mint.address)).unwrap().balance.toBigInt()).toBe(mint.amount);
    }
  });

  it("the indexer follows it: every token and holder balance equals chain storage, and the API serves them", async () => {
    expect(failures).toEqual([]);
    const cp = (await getCheckpoint(handle.db))!;
    const [chain, db] = await Promise.all([chainSnapshot(api, cp.blockHash), dbSnapshot(handle.db)]);
    expect(Object.keys(chain.tokens)).toHaveLength(ASSETS.length + 1);
    expect(Object.keys(chain.holders).length).toBeGreaterThan(market.mints.length);
    expect(db).toEqual(chain);

    const t = buildApp(handle.db);
    const auth = await authHeader(t);
    expect(await (await t.get("/assets/metadata/7", auth)).json()).toMatchObject({ symbol: "WHL", decimals: 0, totalSupply: chain.tokens[7]!.supply });
    expect(await (await t.get("/oracle/value/1984")).json()).toMatchObject({ valueUsd: "1", blockNumber: cp.blockNumber });
    expect(await (await t.get("/pool/stats")).json()).toMatchObject({ totalPools: 0, totalValueLocked: "0", swaps24h: 0, blockNumber: cp.blockNumber });
  });
});
