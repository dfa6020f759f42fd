/**
 * A second runtime end to end: Polkadot Asset Hub (statemint 1,001,002, fellows runtimes, early
 * 2024; SS58 prefix 0, DOT with 10 decimals, Assets and ForeignAssets, no asset conversion yet),
 * from the raw genesis shipped in ./fixtures (gzip). Assets made by signed calls, foreign assets
 * written into storage (their creation needs an XCM origin), then followed and bootstrapped:
 * tokens and holders equal chain storage, addresses are in prefix 0, and pool answers say there
 * are none.
 */
import "@polkadot/api-augment/assetHubKusama";
import { fileURLToPath } from "node:url";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { decodeAddress, encodeAddress } from "@polkadot/util-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, type DbHandle } from "../../db/index.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import type { ForeignAssetSpec, ForeignHolding } from "../../indexer/devnet/plan.js";
import { writeForeignAssets } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp, expectError } from "../support/app.js";
import { chainSnapshot, dbSnapshot, foreignId } from "../support/chain.js";
import { until } from "../support/wait.js";
import { memoryStore } from "../support/db.js";

const GENESIS = fileURLToPath(new URL("./fixtures/asset-hub-polkadot-local.json.gz", import.meta.url));
const LONG = 180_000;
const config = loadConfig({ INDEXER_BATCH_BLOCKS: "3" });
const logger = createLogger("silent");

/** KSM bridged from Kusama, and WETH through Snowbridge: foreign assets Polkadot AH has. */
const FOREIGN: ForeignAssetSpec[] = [
  { location: { parents: 2, interior: { X1: { GlobalConsensus: "Kusama" } } }, name: "Kusama", symbol: "KSM", decimals: 12 },
  {
    location: { parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2" } }] } },
    name: "Wrapped Ether (Snowbridge)",
    symbol: "WETH",
    decimals: 18,
  },
];

describe("Polkadot Asset Hub (statemint 1,001,002)", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let followed: { handle: DbHandle; follower: Follower };
  let lastBlock = 0;

  beforeAll(async () => {
    devnet = await startDevnet({ genesis: GENESIS, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    const keys = await devKeyring(0, 0);
    const { Alice, Bob, Charlie } = keys.dev;
    const holdings: ForeignHolding[] = [
      { asset: 0, address: Bob.address, amount: 5_000_000_000_000n },
      { asset: 0, address: Charlie.address, amount: 1_234_567_890_123n },
      { asset: 1, address: Bob.address, amount: 2n * 10n ** 18n },
    ];
    await writeForeignAssets(api, FOREIGN, holdings, Alice.address);
    const handle = await memoryStore();
    followed = { handle, follower: startIndexer(config, logger, handle, devnet.wsUrl) };
    await until("the follower to bootstrap", () => followed.follower.status.block !== null);
    // Assets by signed calls (there is no sudo), then transfers of an asset and a foreign asset.
    const alice = createSubmitter(api, Alice);
    const tx = api.tx;
    await alice.send(
      tx.utility.batchAll([
        tx.assets.create(1984, Alice.address, 1),
        tx.assets.setMetadata(1984, "Tether USD", "USDt", 6),
        tx.assets.mint(1984, Alice.address, 1_000_000_000_000n),
        tx.assets.mint(1984, Bob.address, 250_000_000n),
        tx.assets.create(7, Alice.address, 1),
        tx.assets.setMetadata(7, "Whole", "WHL", 0),
        tx.assets.mint(7, Charlie.address, 12n),
      ]),
      "create assets",
    );
    await alice.send(tx.assets.transfer(1984, Charlie.address, 1_000_000n), "transfer USDt");
    const moved = await createSubmitter(api, Bob).send(tx.foreignAssets.transfer(FOREIGN[0]!.location as never, Charlie.address, 1_000_000_000_000n), "transfer KSM (foreign)");
    lastBlock = (await api.rpc.chain.getHeader(moved.blockHash)).number.toNumber();
    await until(`the follower to reach block ${lastBlock}`, () => (followed.follower.status.block ?? 0) >= lastBlock);
    await followed.follower.stop();
  }, LONG);

  afterAll(async () => {
    await followed?.follower.stop();
    await followed?.handle.close();
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("is the runtime we think: statemint, prefix 0, DOT, no asset conversion", () => {
    expect(api.runtimeVersion.specName.toString()).toBe("statemint");
    expect(api.runtimeVersion.specVersion.toNumber()).toBe(1_001_002);
    expect(api.registry.chainSS58).toBe(0);
    expect(devnet.assetConversionAvailable).toBe(false);
  });

  it("a follower's tokens (native, assets, foreign) and holders equal chain storage, in prefix 0", async () => {
    const cp = (await getCheckpoint(followed.handle.db))!;
    expect(cp.blockNumber).toBeGreaterThanOrEqual(lastBlock);
    const [chain, db] = await Promise.all([chainSnapshot(api, cp.blockHash), dbSnapshot(followed.handle.db)]);
    expect(db).toEqual(chain);
    expect(db.tokens[0]).toMatchObject({ symbol: "DOT", decimals: 10, kind: "native" });
    expect(db.tokens[1984]).toMatchObject({ symbol: "USDt", kind: "asset", assetId: 1984 });
    const ksm = foreignId(api.createType("StagingXcmV3MultiLocation", FOREIGN[0]!.location));
    expect(db.tokens[ksm]).toMatchObject({ symbol: "KSM", decimals: 12, kind: "foreign", supply: "6234567890123" });
    const [charlie] = [(await devKeyring(0, 0)).dev.Charlie.address];
    expect(db.holders[`${ksm}|${charlie}`]).toBe("2234567890123"); // 1.234… + the 1 KSM Bob sent
    const accounts = Object.keys(db.holders).map((k) => k.split("|")[1]!);
    expect(accounts.length).toBeGreaterThan(5);
    for (const a of accounts) expect(encodeAddress(decodeAddress(a), 0), a).toBe(a); // SS58 prefix 0: "1…"
    expect(Object.keys(db.pools)).toEqual([]);
  }, LONG);

  it("a new deployment bootstraps the same state", async () => {
    const handle = await memoryStore();
    const follower = startIndexer(config, logger, handle, devnet.wsUrl);
    try {
      await until("the bootstrap", () => (follower.status.block ?? 0) >= lastBlock);
      await follower.stop();
      const cp = (await getCheckpoint(handle.db))!;
      expect(await dbSnapshot(handle.db)).toEqual(await chainSnapshot(api, cp.blockHash));
    } finally {
      await follower.stop();
      await handle.close();
    }
  }, LONG);

  it("the API serves the foreign assets and says there are no pools", async () => {
    const t = buildApp(followed.handle.db);
    const auth = await authHeader(t);
    const ksm = foreignId(api.createType("StagingXcmV3MultiLocation", FOREIGN[0]!.location));
    const weth = foreignId(api.createType("StagingXcmV3MultiLocation", FOREIGN[1]!.location));
    const meta: any = await (await t.get(`/assets/metadata/${ksm}`, auth)).json();
    expect(meta).toMatchObject({ tokenId: ksm, symbol: "KSM", kind: "foreign", assetId: null, location: { parents: 2, interior: { x1: [{ globalConsensus: { kusama: null } }] } } });
    expect(((await (await t.get(`/assets/metadata/${weth}`, auth)).json()) as any).location.interior.x2[0]).toEqual({ globalConsensus: { ethereum: { chainId: 1 } } });
    const holders: any = await (await t.get(`/assets/holders/${ksm}`, auth)).json();
    expect(holders.holders.every((h: { address: string }) => h.address.startsWith("1"))).toBe(true);
    expect(await (await t.get("/pool/stats")).json()).toMatchObject({ totalPools: 0, totalValueLocked: "0", volume24h: "0", swaps24h: 0 });
    await expectError(await t.get("/pool/stats/DOT/USDt"), 404, "POOL_NOT_FOUND");
    await expectError(await t.get(`/pool/stats/DOT/${ksm}`), 404, "POOL_NOT_FOUND");
    await expectError(await t.get("/oracle/value/0"), 404, "PRICE_UNAVAILABLE"); // no pool, no USD value
    expect(await (await t.get("/oracle/value/1984")).json()).toMatchObject({ valueUsd: "1" }); // the anchor itself
    expect(((await (await t.get("/pools")).json()) as { pools: unknown[] }).pools).toEqual([]);
  }, LONG);
});
