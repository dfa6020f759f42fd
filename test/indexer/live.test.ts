/**
 * WebSocket subscriptions end to end on the devnet: a follower indexes the chain, API servers
 * push what changed. A swap on chain must reach subscribers of its oracle value and its pair
 * within two blocks, equal to chain storage; with Postgres and Redis, two API replicas each push
 * the same block to their own subscriber.
 */
import { randomBytes } from "node:crypto";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import type { DbHandle } from "../../db/index.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { assetLocation, assetUnits, NATIVE_LOCATION } from "../../indexer/devnet/plan.js";
import { fundMarketAccounts, seedMarket } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { oneStore, services } from "../support/db.js";
import { until } from "../support/wait.js";
import { connect, notificationsFor, type Client } from "../support/ws.js";

const genesis = loadConfig().devnetGenesis;
const target = oneStore("postgres");
const replicas = target.name === "postgres" && services.redisUrl ? 2 : 1;
const logger = createLogger("silent");
const LONG = 180_000;

describe(`live subscriptions on the devnet (${target.name}, ${replicas} API process${replicas > 1 ? "es" : ""})`, () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let handle: DbHandle & { drop(): Promise<void>; url?: string };
  let follower: Follower;
  const servers: ApiServer[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    await fundMarketAccounts(api, { holders: 5 });
    handle = await target.open();
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      JWT_SECRET: randomBytes(32).toString("base64url"),
      ORACLE_MIN_LIQUIDITY_USD: "1",
      ...(handle.url ? { DATABASE_URL: handle.url } : {}),
      ...(replicas > 1 ? { REDIS_URL: services.redisUrl!, REDIS_PREFIX: `tokenpool-test-${process.pid}-${Date.now()}` } : {}),
    });
    const market = await seedMarket(api, { holders: 5 });
    follower = startIndexer(config, logger, handle, devnet.wsUrl);
    await until("the follower to reach the seeded market", () => (follower.status.block ?? 0) >= market.block);
    for (let i = 0; i < replicas; i++) servers.push(await startApiServer(config, logger, handle.url ? {} : { shared: handle }));
  }, LONG);

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const s of servers) await s.close();
    await follower?.stop();
    await handle?.drop();
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("a swap reaches oracle.value and pool.pair subscribers within two blocks, equal to chain storage", async () => {
    const c = await connect(`ws://127.0.0.1:${servers[0]!.port}/ws`);
    clients.push(c);
    const value = await c.call("subscribe", { topic: "oracle.value:0" });
    const pair = await c.call("subscribe", { topic: "pool.pair:KSM/USDt" });
    expect(value.result.result).toMatchObject({ tokenId: 0, symbol: "KSM" });
    const before = pair.result.result.tokenA.reserve as string;

    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const swap = api.tx.assetConversion.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION], assetUnits(1984, 5_000), 1, dev.Bob.address, false);
    const included = await createSubmitter(api, dev.Bob).send(swap, "swap USDt→KSM");
    const swapBlock = (await api.rpc.chain.getHeader(included.blockHash)).number.toNumber();

    await until("the pair notification", () => notificationsFor(c, pair.result.subscription).length > 0, 30_000);
    await until("the oracle notification", () => notificationsFor(c, value.result.subscription).length > 0, 30_000);
    const pushedPair = notificationsFor(c, pair.result.subscription).at(-1).params;
    const pushedValue = notificationsFor(c, value.result.subscription).at(-1).params;
    for (const pushed of [pushedPair, pushedValue]) expect(pushed.block).toBeLessThanOrEqual(swapBlock + 2);

    const [ksm, usdt] = (await api.call.assetConversionApi.getReserves(NATIVE_LOCATION, assetLocation(1984))).unwrap();
    expect(pushedPair.result.tokenA).toMatchObject({ tokenId: 0, reserve: ksm.toString() });
    expect(pushedPair.result.tokenB).toMatchObject({ tokenId: 1984, reserve: usdt.toString() });
    expect(pushedPair.result.tokenA.reserve).not.toBe(before);
    // USDt is the 1 USD anchor: KSM's value is the pool's USDt per KSM.
    expect(pushedValue.result.valueUsd).toBe(pushedPair.result.price);
  }, LONG);

  it.skipIf(replicas < 2)(`two API replicas each push the same block to their own subscriber${replicas < 2 ? " (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL — PGlite is one process per data directory, and without Redis the replicas share no bus)" : ""}`, async () => {
    const [a, b] = await Promise.all(servers.map((s) => connect(`ws://127.0.0.1:${s.port}/ws`)));
    clients.push(a!, b!);
    const subs = await Promise.all([a!, b!].map((c) => c.call("subscribe", { topic: "blocks" })));
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const included = await createSubmitter(api, dev.Bob).send(api.tx.system.remark("0x01"), "remark");
    const number = (await api.rpc.chain.getHeader(included.blockHash)).number.toNumber();
    const got = (c: Client, sub: string) => notificationsFor(c, sub).find((m) => m.params.result.number === number)?.params.result;
    await until("both replicas to push the block", () => got(a!, subs[0].result.subscription) !== undefined && got(b!, subs[1].result.subscription) !== undefined, 30_000);
    expect(got(a!, subs[0].result.subscription)).toEqual(got(b!, subs[1].result.subscription));
    expect(got(a!, subs[0].result.subscription)).toMatchObject({ number, hash: included.blockHash });
  }, LONG);
});
