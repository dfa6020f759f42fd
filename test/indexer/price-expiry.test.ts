/**
 * A price that expires, on the real runtime under chopsticks: two pools are seeded in one block
 * (KSM/USDt deep, KSM/TEN above the liquidity floor), then KSM/TEN is drained below the floor in
 * the next one, with a TEN → KSM swap after the drain in the same block. The followers (PGlite,
 * and Postgres when TEST_DATABASE_URL is set) must then answer as chain storage says: TEN has no
 * current price (404 PRICE_UNAVAILABLE, null values), TVL counts the KSM side only, TEN's history
 * keeps its old point, and the swap of the drain block is valued through KSM.
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { getCheckpoint, schema, type DbHandle } from "../../db/index.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { assetLocation, assetUnits, NATIVE_LOCATION, units } from "../../indexer/devnet/plan.js";
import { fundMarketAccounts } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { formatFixed, mulDiv, parseFixed, pow10, USD_SCALE } from "../../shared/decimal.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp, expectError } from "../support/app.js";
import { chainSnapshot } from "../support/chain.js";
import { runnableTargets } from "../support/db.js";
import { until } from "../support/wait.js";

/** The stores it runs on here: each one it cannot is a listed skip. */
const targets = runnableTargets("prices expiring on the devnet");

const genesis = loadConfig().devnetGenesis;
// A floor of 1,000 USD: KSM/TEN opens 5,000 deep (100 KSM at 25 USD, doubled) and is drained to a tenth.
const config = loadConfig({ INDEXER_BATCH_BLOCKS: "4", ORACLE_MIN_LIQUIDITY_USD: "1000", INDEXER_HISTORY_HOURS: "0" });
const logger = createLogger("silent");
const LONG = 240_000;
const [USDT, TEN] = [1984, 10];

/** USD per whole `token` in a pool with `quote` priced at `quotePrice`, from chain reserves (exact floor, as the oracle). */
const priceIn = (reserve: bigint, decimals: number, quoteReserve: bigint, quoteDecimals: number, quotePrice: bigint) =>
  mulDiv(quoteReserve * pow10(decimals), quotePrice, reserve * pow10(quoteDecimals));
const usd = (v: bigint) => formatFixed(v, USD_SCALE);

describe("a price that expires on the devnet", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  const stores: { name: string; handle: DbHandle & { drop?: () => Promise<void> }; follower: Follower }[] = [];
  let seed: { number: number; hash: string };
  let drain: { number: number; hash: string };

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    await fundMarketAccounts(api, { holders: 0 }); // storage writes: before any indexer starts
    for (const target of targets) {
      const handle = await target.open();
      stores.push({ name: target.name, handle, follower: startIndexer(config, logger, handle, devnet.wsUrl) });
    }
    const head = (await api.rpc.chain.getHeader()).number.toNumber();
    for (const s of stores) await until(`${s.name} to follow the head`, () => (s.follower.status.block ?? 0) >= head);

    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const alice = createSubmitter(api, dev.Alice);
    const tx = api.tx;
    const ksm = (n: number) => units(n, 12);
    const created = await alice.send(
      tx.utility.batchAll([
        ...[[USDT, "Tether USD", "USDt", 6], [TEN, "Ten", "TEN", 10]].flatMap(([id, name, symbol, decimals]) => [
          tx.assets.create(id as number, dev.Alice.address, 1),
          tx.assets.setMetadata(id as number, name as string, symbol as string, decimals as number),
          tx.assets.mint(id as number, dev.Alice.address, assetUnits(id as number, 1_000_000)),
        ]),
        tx.assetConversion.createPool(NATIVE_LOCATION, assetLocation(USDT)),
        tx.assetConversion.addLiquidity(NATIVE_LOCATION, assetLocation(USDT), ksm(10_000), assetUnits(USDT, 250_000), 1, 1, dev.Alice.address),
        tx.assetConversion.createPool(NATIVE_LOCATION, assetLocation(TEN)),
        tx.assetConversion.addLiquidity(NATIVE_LOCATION, assetLocation(TEN), ksm(100), assetUnits(TEN, 5_000), 1, 1, dev.Alice.address),
      ]),
      "USDt and TEN, their pools with KSM",
    );
    seed = { number: (await api.rpc.chain.getHeader(created.blockHash)).number.toNumber(), hash: created.blockHash.toString() };
    const lpTokens = created.events.flatMap(({ event }) => (api.events.assetConversion.PoolCreated.is(event) ? [event.data.lpToken.toNumber()] : []));
    expect(lpTokens).toHaveLength(2);
    const lp = (await api.query.poolAssets.account(lpTokens[1]!, dev.Alice.address)).unwrap().balance.toBigInt();
    const drained = await alice.send(
      tx.utility.batchAll([
        tx.assetConversion.removeLiquidity(NATIVE_LOCATION, assetLocation(TEN), (lp * 9n) / 10n, 1, 1, dev.Alice.address),
        tx.assetConversion.swapExactTokensForTokens([assetLocation(TEN), NATIVE_LOCATION], assetUnits(TEN, 10), 1, dev.Alice.address, false),
      ]),
      "drain KSM/TEN below the floor, then swap TEN → KSM",
    );
    drain = { number: (await api.rpc.chain.getHeader(drained.blockHash)).number.toNumber(), hash: drained.blockHash.toString() };
    expect(drain.number).toBe(seed.number + 1);
    for (const s of stores) await until(`${s.name} to reach block ${drain.number}`, () => (s.follower.status.block ?? 0) >= drain.number);
    for (const s of stores) await s.follower.stop();
  }, LONG);

  afterAll(async () => {
    for (const s of stores) {
      await s.follower.stop();
      await s.handle.drop?.();
    }
    await api?.disconnect();
    await devnet?.close();
  }, 60_000);

  it("TEN has no current price after the drain: 404 PRICE_UNAVAILABLE, null values, TVL of the KSM side only; its history keeps the old point", async () => {
    const [before, after] = await Promise.all([chainSnapshot(api, seed.hash), chainSnapshot(api, drain.hash)]);
    const reserves = (snap: typeof before, token: number) => snap.pools[`0/${token}`]!;
    const ksmPrice = (snap: typeof before) => priceIn(BigInt(reserves(snap, USDT).reserve0), 12, BigInt(reserves(snap, USDT).reserve1), 6, pow10(USD_SCALE));
    const tenThen = priceIn(BigInt(reserves(before, TEN).reserve1), 10, BigInt(reserves(before, TEN).reserve0), 12, ksmPrice(before));
    const ksmNow = ksmPrice(after);
    // Independently of the indexer: TEN's pool opened above the floor and now lies below it.
    const floor = parseFixed("1000", USD_SCALE);
    expect(2n * mulDiv(BigInt(reserves(before, TEN).reserve0), ksmPrice(before), pow10(12))).toBeGreaterThan(floor);
    expect(2n * mulDiv(BigInt(reserves(after, TEN).reserve0), ksmNow, pow10(12))).toBeLessThan(floor);
    const ksmSideNow = mulDiv(BigInt(reserves(after, TEN).reserve0), ksmNow, pow10(12));
    const usdtPoolNow = mulDiv(BigInt(reserves(after, USDT).reserve0), ksmNow, pow10(12)) + mulDiv(BigInt(reserves(after, USDT).reserve1), pow10(USD_SCALE), pow10(6));

    for (const s of stores) {
      const cp = (await getCheckpoint(s.handle.db))!;
      expect(cp.blockNumber, s.name).toBe(drain.number);
      const t = buildApp(s.handle.db);
      const message = await expectError(await t.get(`/oracle/value/${TEN}`), 404, "PRICE_UNAVAILABLE");
      expect(message, s.name).toContain(`since block ${drain.number}`);
      expect(await (await t.get("/oracle/value/0")).json(), s.name).toMatchObject({ valueUsd: usd(ksmNow), blockNumber: drain.number });

      const pair: any = await (await t.get("/pool/stats/TEN/KSM")).json();
      expect(pair, s.name).toMatchObject({ tokenA: { tokenId: TEN, reserve: reserves(after, TEN).reserve1, priceUsd: null }, tokenB: { priceUsd: usd(ksmNow) }, totalValueLocked: usd(ksmSideNow) });
      expect(await (await t.get("/pool/stats")).json(), s.name).toMatchObject({ totalPools: 2, totalValueLocked: usd(usdtPoolNow + ksmSideNow) });
      const assets: any = await (await t.get("/assets?sort=id&limit=500")).json();
      expect(assets.assets.find((a: any) => a.tokenId === TEN), s.name).toMatchObject({ valueUsd: null, marketCapUsd: null });
      const auth = await authHeader(t);
      const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
      const portfolio: any = await (await t.get(`/accounts/${dev.Alice.address}`, auth)).json();
      expect(portfolio.tokens.find((r: any) => r.tokenId === TEN), s.name).toMatchObject({ valueUsd: null });

      // The history: TEN's price at the seed block, and the expiry at the drain block.
      const points = await s.handle.db.select().from(schema.tokenPrices).where(eq(schema.tokenPrices.tokenId, TEN)).orderBy(asc(schema.tokenPrices.blockNumber));
      expect(points.map((p) => [p.blockNumber, p.priceUsd === null ? null : usd(parseFixed(p.priceUsd, USD_SCALE))]), s.name).toEqual([[seed.number, usd(tenThen)], [drain.number, null]]);
      const blockRow = async (number: number) => (await s.handle.db.select().from(schema.blocks).where(eq(schema.blocks.number, number)))[0]!;
      const [seedBlock, drainBlock] = [await blockRow(seed.number), await blockRow(drain.number)];
      const history: any = await (await t.get(`/oracle/history/${TEN}?from=${seedBlock.timestamp - 12}&to=${drainBlock.timestamp}&interval=12`)).json();
      expect(history.points.length, s.name).toBeGreaterThanOrEqual(2);
      expect(history.points.find((p: any) => p.timestamp >= seedBlock.timestamp && p.timestamp < drainBlock.timestamp), s.name).toEqual({ timestamp: seedBlock.timestamp, valueUsd: usd(tenThen), blockNumber: seed.number });
      expect(history.points.at(-1), s.name).toEqual({ timestamp: drainBlock.timestamp, valueUsd: null, blockNumber: drain.number });

      // The swap after the drain, in the same block: TEN had no price there, so it is valued
      // through its other side — the KSM out at the block's KSM price.
      const swaps = await s.handle.db.select().from(schema.swaps).where(eq(schema.swaps.blockNumber, drain.number));
      expect(swaps, s.name).toHaveLength(1);
      expect(swaps[0]!.tokenIn, s.name).toBe(TEN);
      expect(usd(parseFixed(swaps[0]!.volumeUsd, USD_SCALE)), s.name).toBe(usd(mulDiv(BigInt(swaps[0]!.amountOut), ksmNow, pow10(12))));
    }
  }, LONG);
});
