import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { u8aToString } from "@polkadot/util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { ASSETS, FOREIGN_ASSETS, FOREIGN_POOLS, NATIVE_LOCATION, POOLS, assetLocation, foreignHoldings, holderMints } from "../../indexer/devnet/plan.js";
import { seedMarket, startLiveSwaps, warnOnTradeFailure } from "../../indexer/devnet/scenario.js";
import { captureLog } from "../support/log.js";
import { until } from "../support/wait.js";
import { createSubmitter, ExtrinsicError } from "../../indexer/devnet/submitter.js";
import { loadConfig } from "../../shared/config.js";

const genesis = loadConfig().devnetGenesis;
const HOLDERS = 20;
const LONG = 120_000;

async function reserves(api: ApiPromise, other: number | object): Promise<[bigint, bigint]> {
  const result = await api.call.assetConversionApi.getReserves(NATIVE_LOCATION, typeof other === "number" ? assetLocation(other) : (other as never));
  const [native, asset] = result.unwrap();
  return [native.toBigInt(), asset.toBigInt()];
}

async function bestBlock(api: ApiPromise): Promise<number> {
  return (await api.rpc.chain.getHeader()).number.toNumber();
}

describe(`devnet market scenario`, () => {
  let devnet: Devnet;
  let api: ApiPromise;

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    await seedMarket(api, { holders: HOLDERS });
  }, LONG);

  afterAll(async () => {
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("runs a runtime with asset conversion", () => {
    expect(devnet.assetConversionAvailable).toBe(true);
    expect(api.runtimeVersion.specName.toString()).toBe("statemine");
  });

  it("creates every asset with its metadata and decimals, owned by Alice", async () => {
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    for (const spec of ASSETS) {
      const [details, metadata] = await Promise.all([api.query.assets.asset(spec.id), api.query.assets.metadata(spec.id)]);
      expect(details.isSome, `asset ${spec.id}`).toBe(true);
      expect(details.unwrap().owner.toString()).toBe(dev.Alice.address);
      expect(u8aToString(metadata.name)).toBe(spec.name);
      expect(u8aToString(metadata.symbol)).toBe(spec.symbol);
      expect(metadata.decimals.toNumber()).toBe(spec.decimals);
    }
  });

  it("mints the planned balances to the derived holders", async () => {
    const { holders } = await devKeyring(HOLDERS, api.registry.chainSS58 ?? 42);
    const planned = holderMints(holders.map((h) => h.address));
    expect(planned.length).toBeGreaterThan(HOLDERS);
    const accounts = await api.query.assets.account.multi(planned.map((m) => [m.assetId, m.address]));
    accounts.forEach((account, i) => {
      expect(account.unwrapOrDefault().balance.toBigInt(), `mint ${i}`).toBe(planned[i]!.amount);
    });
  });

  it("creates native/asset pools with reserves on both sides", async () => {
    for (const pool of POOLS) {
      const stored = await api.query.assetConversion.pools([NATIVE_LOCATION, assetLocation(pool.assetId)]);
      expect(stored.isSome, `pool ${pool.assetId}`).toBe(true);
      const [native, asset] = await reserves(api, pool.assetId);
      expect(native).toBeGreaterThan(0n);
      expect(asset).toBeGreaterThan(0n);
    }
  });

  it("has foreign assets with their holders, and native/foreign pools that traded", async () => {
    const { dev, holders } = await devKeyring(HOLDERS, api.registry.chainSS58 ?? 42);
    for (const [i, spec] of FOREIGN_ASSETS.entries()) {
      const [details, metadata] = await Promise.all([api.query.foreignAssets.asset(spec.location as never), api.query.foreignAssets.metadata(spec.location as never)]);
      expect(details.isSome, spec.symbol).toBe(true);
      expect(u8aToString(metadata.symbol)).toBe(spec.symbol);
      const planned = foreignHoldings(dev.Bob.address, dev.Charlie.address, holders.map((h) => h.address)).filter((h) => h.asset === i && h.address !== dev.Bob.address && h.address !== dev.Charlie.address);
      const accounts = await api.query.foreignAssets.account.multi(planned.map((h) => [spec.location, h.address]) as never);
      accounts.forEach((a, j) => expect((a as any).unwrap().balance.toBigInt(), `${spec.symbol} holder ${j}`).toBe(planned[j]!.amount));
    }
    for (const pool of FOREIGN_POOLS) {
      const [native, foreign] = await reserves(api, FOREIGN_ASSETS[pool.asset]!.location);
      // Moved away from the opening liquidity by the scenario's swaps through it.
      expect(native).not.toBe(pool.nativeAmount);
      expect(foreign).not.toBe(pool.assetAmount);
    }
  });

  it("a swap moves the pool reserves", async () => {
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const before = await reserves(api, 1984);
    const swap = api.tx.assetConversion.swapExactTokensForTokens([NATIVE_LOCATION, assetLocation(1984)], 10n ** 12n, 1, dev.Charlie.address, false);
    await createSubmitter(api, dev.Charlie).send(swap, "test swap");
    const after = await reserves(api, 1984);
    expect(after[0]).toBe(before[0] + 10n ** 12n);
    expect(after[1]).toBeLessThan(before[1]);
  }, LONG);

  it("a failed call inside a batch throws with the pallet error name", async () => {
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const batch = api.tx.utility.batchAll([api.tx.assets.create(ASSETS[0]!.id, dev.Dave.address, 1)]);
    const sent = createSubmitter(api, dev.Dave).send(batch, "create taken id");
    await expect(sent).rejects.toThrow(ExtrinsicError);
    await expect(sent).rejects.toThrow(/assets\.InUse/);
    // What npm start and tokenpool devnet log for such a refused live trade: one JSON warning
    // naming the chain's error, in the service's log (not a plain line on stderr).
    const log = captureLog();
    warnOnTradeFailure(log.logger)(await sent.catch((err: unknown) => err));
    expect(log.records().map((r) => [r.level, r.msg, r.err?.type, /assets\.InUse/.test(r.err?.message)])).toEqual([[40, "devnet: a live trade failed; skipped, trading goes on", "ExtrinsicError", true]]);
  }, LONG);

  it("live swaps keep producing blocks until stopped", async () => {
    const start = await bestBlock(api);
    const errors: unknown[] = [];
    const intervalMs = 100;
    const live = startLiveSwaps(api, { intervalMs, onError: (err) => errors.push(err) });
    await until(`3 blocks of live swaps after block ${start} (errors: ${errors.map(String).join("; ") || "none"})`, async () => (await bestBlock(api)) >= start + 3, 30_000);
    await live.stop();
    // A step may fail under load (and is retried); most must succeed.
    expect(errors.length).toBeLessThan(3);
    // Stopped means nothing in flight: no transaction waits in the pool, the trader's next nonce
    // is the chain's, and a block made now carries no trade of the trader's. An absence is seen
    // only over a window: ten of the loop's intervals, in which a running loop trades at least once.
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const stoppedAt = await bestBlock(api);
    await new Promise((resolve) => setTimeout(resolve, 10 * intervalMs));
    expect(await bestBlock(api)).toBe(stoppedAt);
    expect((await api.rpc.author.pendingExtrinsics()).length).toBe(0);
    expect((await api.rpc.system.accountNextIndex(dev.Bob.address)).toNumber()).toBe((await api.query.system.account(dev.Bob.address)).nonce.toNumber());
    await api.rpc("dev_newBlock" as never);
    expect(await bestBlock(api)).toBe(stoppedAt + 1);
    const made = await api.rpc.chain.getBlock(await api.rpc.chain.getBlockHash(stoppedAt + 1));
    expect(made.block.extrinsics.filter((x) => x.isSigned).map((x) => x.signer.toString())).toEqual([]);
  }, LONG);
});
