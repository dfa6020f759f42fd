/**
 * The indexer on the real runtime under chopsticks: followers start before the market is
 * seeded, follow it block by block (one is stopped and restarted, one is a separate process
 * killed with SIGKILL), and must end equal to chain storage at their checkpoint, with the
 * HTTP answers agreeing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { decodeAddress, encodeAddress } from "@polkadot/util-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createDb, eventCoverage, extrinsicHashes, getCheckpoint, schema, type DbHandle } from "../../db/index.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { FOREIGN_ASSETS } from "../../indexer/devnet/plan.js";
import { fundMarketAccounts, seedMarket, type MarketSummary } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import { ChainReader } from "../../indexer/chain/reader.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp } from "../support/app.js";
import { chainSnapshot, dbSnapshot, foreignId, tokenIdOfLocation } from "../support/chain.js";
import { checkAssetResponse, checkEventsResponse, checkLatestBlockResponse, checkPairResponse } from "../support/dexscreener-spec.js";
import { startRelay, type Relay } from "../support/proxy.js";
import { runnableTargets, memoryStore } from "../support/db.js";
import { until } from "../support/wait.js";
import { chainSwaps, namedTransfers } from "../support/chain-history.js";

/** The stores it runs on here: each one it cannot is a listed skip. */
const targets = runnableTargets("following the devnet");

const genesis = loadConfig().devnetGenesis;
const config = loadConfig({ INDEXER_BATCH_BLOCKS: "4", ORACLE_MIN_LIQUIDITY_USD: "1", INDEXER_HISTORY_HOURS: "0" });
const logger = createLogger("silent");
const LONG = 240_000;


/**
 * Changes that the scenario does not make, each with its own event pattern: new metadata, a
 * frozen asset, an asset destroyed with its holders (AccountsDestroyed names no account), and
 * native tokens sent straight to a pool account (reserves move without a pool event).
 * Returns the block after them.
 */
async function lifecycle(api: ApiPromise): Promise<number> {
  const keys = await devKeyring(0, api.registry.chainSS58 ?? 42);
  const alice = createSubmitter(api, keys.dev.Alice);
  const head = (await api.rpc.chain.getFinalizedHead()).toHex();
  const reader = new ChainReader(api, 0);
  const { pools } = await reader.allPools((await reader.blockByHash(head)).at);
  const usdtPool = pools.find((p) => p.token1Id === 1984)!;
  const tx = api.tx;
  await alice.send(tx.utility.batchAll([tx.assets.setMetadata(10, "Ten v2", "TEN2", 10), tx.assets.freezeAsset(18), tx.assets.startDestroy(42)]), "metadata, freeze, start destroy");
  // destroyAccounts is weighed for 1000 accounts: alone it fills a block, so no batch.
  await alice.send(tx.assets.destroyAccounts(42), "destroy MEME accounts");
  await alice.send(tx.utility.batchAll([tx.assets.destroyApprovals(42), tx.assets.finishDestroy(42)]), "finish destroying MEME");
  const included = await alice.send(tx.balances.transferKeepAlive(usdtPool.account, 5_000_000_000_000n), "donate 5 KSM to the KSM/USDt pool");
  return (await api.rpc.chain.getHeader(included.blockHash)).number.toNumber();
}

describe(`indexer on the devnet`, () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let market: MarketSummary;
  const stores: { name: string; handle: DbHandle & { drop?: () => Promise<void> }; follower: Follower }[] = [];
  let restarted: { handle: DbHandle; follower: Follower; restarts: number };
  let killDir: string;
  let relay: Relay;
  let child: ChildProcess | undefined;
  /** Highest block the child process reported committed (from its JSON log lines). */
  let childBlock = 0;
  let kills = 0;

  const spawnIndexer = (wsUrl: string) => {
    const env = { ...process.env, WS_URL: wsUrl, DATA_DIR: killDir, DATABASE_URL: "", LOG_LEVEL: "debug", INDEXER_BATCH_BLOCKS: "3", ORACLE_MIN_LIQUIDITY_USD: "1", INDEXER_HISTORY_HOURS: "0" };
    // node itself (bin/tokenpool.mjs imports the build in-process), not the tsx wrapper: SIGKILL must hit the indexer.
    const p = spawn(process.execPath, ["bin/tokenpool.mjs", "indexer"], { env, stdio: ["ignore", "pipe", "ignore"] });
    let buffered = "";
    p.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const entry = JSON.parse(line) as { msg?: string; to?: number; block?: number };
        if (entry.msg === "indexer: batch committed") childBlock = Math.max(childBlock, entry.to ?? 0);
        if (entry.msg === "indexer: following finalized heads") childBlock = Math.max(childBlock, entry.block ?? 0);
      }
    });
    return p;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    // dev_setStorage funding emits no event: it must be in place before any indexer starts.
    await fundMarketAccounts(api, { holders: 30 });
    for (const target of targets) {
      const handle = await target.open();
      stores.push({ name: target.name, handle, follower: startIndexer(config, logger, handle, devnet.wsUrl) });
    }
    const handle = await memoryStore();
    relay = await startRelay({ host: "127.0.0.1", port: devnet.port });
    restarted = { handle, follower: startIndexer({ ...config }, logger, handle, relay.url), restarts: 0 };
    killDir = await mkdtemp(path.join(tmpdir(), "tokenpool-kill-"));
    child = spawnIndexer(devnet.wsUrl);
    // Interrupt both while the market is being seeded.
    const interrupt = (async () => {
      await until("a first commit of the restarted follower", () => (restarted.follower.status.block ?? 0) >= 3);
      await restarted.follower.stop();
      restarted.follower = startIndexer(config, logger, handle, relay.url);
      restarted.restarts++;
      // Then drop its WebSocket under it: it must reconnect and resume from its checkpoint.
      await until("the restarted follower to connect", () => restarted.follower.status.connected);
      relay.cut();
      const before = childBlock;
      await until("the child indexer to commit a batch", () => childBlock > before && childBlock >= 3);
      const killed = child!;
      const gone = new Promise<NodeJS.Signals | null>((resolve) => killed.once("exit", (_code, signal) => resolve(signal)));
      killed.kill("SIGKILL");
      if ((await gone) === "SIGKILL") kills++;
      child = spawnIndexer(devnet.wsUrl);
    })();
    market = await seedMarket(api, { holders: 30 });
    market.block = await lifecycle(api);
    await interrupt;
    for (const s of stores) await until(`${s.name} to reach block ${market.block}`, () => (s.follower.status.block ?? 0) >= market.block);
    await until(`the restarted follower to reach block ${market.block}`, () => (restarted.follower.status.block ?? 0) >= market.block);
  }, LONG);

  afterAll(async () => {
    child?.kill("SIGKILL");
    for (const s of stores) {
      await s.follower.stop();
      await s.handle.drop?.();
    }
    await restarted?.follower.stop();
    await restarted?.handle.close();
    await relay?.close();
    await api?.disconnect();
    await devnet?.close();
    if (killDir) await rm(killDir, { recursive: true, force: true });
  }, 60_000);

  it("every token, holder balance, pool reserve and LP supply equals chain storage at the checkpoint", async () => {
    expect(stores.length).toBeGreaterThan(0);
    for (const s of stores) {
      await s.follower.stop();
      const cp = (await getCheckpoint(s.handle.db))!;
      expect(cp.blockNumber).toBeGreaterThanOrEqual(market.block);
      const [chain, db] = await Promise.all([chainSnapshot(api, cp.blockHash), dbSnapshot(s.handle.db)]);
      expect(Object.keys(chain.pools).length).toBe(market.pools.length);
      expect(Object.keys(chain.holders).length).toBeGreaterThan(30);
      expect(db, s.name).toEqual(chain);
      expect(db.tokens[42]).toBeUndefined(); // destroyed, with its holders
      expect(Object.keys(db.holders).some((k) => k.startsWith("42|"))).toBe(false);
      expect(db.tokens[10]).toMatchObject({ name: "Ten v2", symbol: "TEN2" });
      expect(db.tokens[18]?.status).toBe("frozen");
      // Asset 0 (DOG) is its own token under 2^32, not mixed into the native token.
      expect(db.tokens[2 ** 32]).toMatchObject({ symbol: "DOG", kind: "asset", assetId: 0 });
      expect(Object.values(db.tokens).filter((t) => t.kind === "foreign").map((t) => t.symbol).sort()).toEqual(["KAR", "pUSDC"]);
    }
  }, LONG);

  it("the HTTP answers of all seven endpoints agree with chain storage", async () => {
    const store = stores[0]!;
    await store.follower.stop();
    const cp = (await getCheckpoint(store.handle.db))!;
    const chain = await chainSnapshot(api, cp.blockHash);
    const t = buildApp(store.handle.db);
    const auth = await authHeader(t); // register; login is covered below
    const login = await t.post("/auth/login", { email: "reader@example.com", password: "correct horse battery" });
    expect(login.status).toBe(200);

    // The oracle: USDt is the anchor; KSM's value is the USDt/KSM ratio of their pool's reserves.
    expect(await (await t.get("/oracle/value/1984")).json()).toMatchObject({ valueUsd: "1", blockNumber: cp.blockNumber });
    const ksmUsdt = chain.pools["0/1984"]!;
    const ksmPrice = (BigInt(ksmUsdt.reserve1) * 10n ** 12n * 10n ** 18n) / (BigInt(ksmUsdt.reserve0) * 10n ** 6n);
    const oracle: any = await (await t.get("/oracle/value/0")).json();
    expect(parseFixed(oracle.valueUsd, USD_SCALE)).toBe(ksmPrice);

    for (const [id, token] of Object.entries(chain.tokens)) {
      const meta: any = await (await t.get(`/assets/metadata/${id}`, auth)).json();
      expect(meta).toMatchObject({ tokenId: Number(id), name: token.name, symbol: token.symbol, decimals: token.decimals, totalSupply: token.supply, owner: token.owner });
      const holders = Object.entries(chain.holders)
        .filter(([key]) => key.startsWith(`${id}|`))
        .map(([key, balance]) => ({ address: key.slice(id.length + 1), balance }))
        .sort((a, b) => (BigInt(b.balance) > BigInt(a.balance) ? 1 : BigInt(b.balance) < BigInt(a.balance) ? -1 : Buffer.compare(Buffer.from(a.address), Buffer.from(b.address))));
      const page: any = await (await t.get(`/assets/holders/${id}?limit=1000`, auth)).json();
      expect(page.totalHolders).toBe(holders.length);
      expect(page.holders.map((h: any) => ({ address: h.address, balance: h.balance }))).toEqual(holders.slice(0, 1000));
    }

    const stats: any = await (await t.get("/pool/stats")).json();
    expect(stats).toMatchObject({ totalPools: Object.keys(chain.pools).length, blockNumber: cp.blockNumber });
    expect(stats.swaps24h).toBeGreaterThan(0);
    expect(parseFixed(stats.volume24h, USD_SCALE)).toBeGreaterThan(0n);
    for (const [key, pool] of Object.entries(chain.pools)) {
      const [a, b] = key.split("/");
      const pair: any = await (await t.get(`/pool/stats/${b}/${a}`)).json();
      expect(pair).toMatchObject({ tokenA: { tokenId: Number(b), reserve: pool.reserve1 }, tokenB: { tokenId: Number(a), reserve: pool.reserve0 }, lpSupply: pool.lpSupply, lpTokenId: pool.lpTokenId, feeRate: "0.003" });
    }

    // Foreign assets trade like any other: their pools (by symbol too) count the scenario's swaps,
    // and the multi-hop USDt → KSM → KAR → … swaps show a row per pool crossed.
    const [pusdc, kar] = FOREIGN_ASSETS.map((f) => foreignId(api.createType("StagingXcmV3MultiLocation", f.location))) as [number, number];
    for (const [symbol, id] of [["pUSDC", pusdc], ["KAR", kar]] as const) {
      const pair: any = await (await t.get(`/pool/stats/KSM/${symbol}`)).json();
      expect(pair, symbol).toMatchObject({ tokenB: { tokenId: id, kind: "foreign", reserve: chain.pools[`0/${id}`]!.reserve1 } });
      expect(pair.swaps24h, symbol).toBeGreaterThanOrEqual(2);
      expect(parseFixed(pair.volume24h, USD_SCALE), symbol).toBeGreaterThan(0n);
      expect(pair.tokenB.priceUsd, symbol).not.toBeNull();
    }
    const hops = await store.handle.db.select().from(schema.swaps).where(and(eq(schema.swaps.hop, 1), eq(schema.swaps.token1Id, kar)));
    expect(hops.length).toBeGreaterThanOrEqual(1); // USDt → KSM → KAR: its second hop is in the KAR pool
    expect((await (await t.get(`/oracle/value/${pusdc}`)).json()) as object).toMatchObject({ valueUsd: "1", kind: "foreign" }); // a USD anchor of Kusama AH
  }, LONG);

  it("each signed extrinsic's fee is one fee row: the chain's actual fee and tip, and no Withdraw row beside it", async () => {
    const db = stores[0]!.handle.db;
    const fees: { block: number; eventIndex: number; extrinsic: number; who: string; amount: string; tip: string }[] = [];
    /** Each fee's extrinsic hash as polkadot-js computes it (block/extrinsic → 0x…). */
    const hashes = new Map<string, string>();
    for (let n = 1; n <= market.block; n++) {
      const blockHash = await api.rpc.chain.getBlockHash(n);
      const at = await api.at(blockHash);
      const extrinsics = (await api.rpc.chain.getBlock(blockHash)).block.extrinsics;
      (await at.query.system.events()).forEach(({ event, phase }, eventIndex) => {
        if (event.section !== "transactionPayment" || event.method !== "TransactionFeePaid") return;
        const [who, actualFee, tip] = event.data;
        fees.push({ block: n, eventIndex, extrinsic: phase.asApplyExtrinsic.toNumber(), who: encodeAddress(who!.toU8a(), api.registry.chainSS58), amount: actualFee!.toString(), tip: tip!.toString() });
        hashes.set(`${n}/${phase.asApplyExtrinsic.toNumber()}`, extrinsics[phase.asApplyExtrinsic.toNumber()]!.hash.toHex());
      });
    }
    expect(fees.length).toBeGreaterThan(10);
    const rows = await namedTransfers(db).where(eq(schema.transfers.kind, "fee"));
    const stored = rows.filter((r) => r.blockNumber <= market.block).map((r) => ({ block: r.blockNumber, eventIndex: r.eventIndex, extrinsic: r.extrinsicIndex, who: r.fromAccount, amount: r.amount, tip: r.tip }));
    expect(stored.sort((a, b) => a.block - b.block || a.eventIndex - b.eventIndex)).toEqual(fees);
    // Each fee row's extrinsic hash (block_extrinsics) is the one polkadot-js gives the extrinsic.
    const recorded = await extrinsicHashes(db, rows.filter((r) => r.blockNumber <= market.block));
    expect(Object.fromEntries(recorded)).toEqual(Object.fromEntries(hashes));
    // The Withdraw that paid each fee is the fee row, not a row of its own.
    const withdrawals = await namedTransfers(db).where(eq(schema.transfers.event, "balances.Withdraw"));
    const paid = new Set(fees.map((f) => `${f.block}/${f.extrinsic}/${f.who}`));
    expect(withdrawals.filter((w) => paid.has(`${w.blockNumber}/${w.extrinsicIndex}/${w.fromAccount}`))).toEqual([]);
  }, LONG);

  it("portfolios, a pool's trades and its candles agree with the chain's storage and events", async () => {
    const store = stores[0]!;
    await store.follower.stop();
    const cp = (await getCheckpoint(store.handle.db))!;
    const chain = await chainSnapshot(api, cp.blockHash);
    const t = buildApp(store.handle.db);
    const auth = await authHeader(t, "wallet@example.com");

    // Portfolios: every account with an LP position, and the first holders of each kind, asked
    // for in the generic prefix (42) and answered in Kusama's, equal chain storage.
    const lpAccounts = [...new Set(Object.keys(chain.lpHolders).map((k) => k.split("|")[1]!))];
    expect(lpAccounts.length).toBeGreaterThan(0);
    const others = Object.keys(chain.holders).map((k) => k.split("|")[1]!).filter((a) => !lpAccounts.includes(a)).slice(0, 5);
    const ids = Object.fromEntries(Object.entries(chain.pools).map(([key, p]) => [p.lpTokenId, key]));
    let sawKinds = new Set<string>();
    for (const address of [...lpAccounts, ...others]) {
      const generic = encodeAddress(decodeAddress(address), 42);
      const res = await t.get(`/accounts/${generic}`, auth);
      expect(res.status).toBe(200);
      const body: any = await res.json();
      expect(body.address).toBe(address);
      const tokens = Object.fromEntries(Object.entries(chain.holders).filter(([k]) => k.endsWith(`|${address}`)).map(([k, v]) => [k.split("|")[0], v]));
      expect(Object.fromEntries(body.tokens.map((x: any) => [String(x.tokenId), x.balance])), address).toEqual(tokens);
      for (const x of body.tokens) sawKinds.add(x.kind);
      const positions = Object.fromEntries(Object.entries(chain.lpHolders).filter(([k]) => k.endsWith(`|${address}`)).map(([k, v]) => [k.split("|")[0], v]));
      expect(Object.fromEntries(body.lpPositions.map((x: any) => [String(x.lpTokenId), x.balance])), address).toEqual(positions);
      for (const p of body.lpPositions) {
        const pool = chain.pools[ids[p.lpTokenId]!]!;
        expect(p.lpSupply).toBe(pool.lpSupply);
        expect(p.tokenA.amount).toBe(((BigInt(pool.reserve0) * BigInt(p.balance)) / BigInt(pool.lpSupply)).toString());
        expect(p.tokenB.amount).toBe(((BigInt(pool.reserve1) * BigInt(p.balance)) / BigInt(pool.lpSupply)).toString());
      }
    }
    if (lpAccounts.length > 0) sawKinds.add("lp");
    expect([...sawKinds].sort()).toEqual(["asset", "foreign", "lp", "native"]);
    sawKinds = new Set();

    // Trades of KSM/USDt: the chain's swap events through that pool, newest first, through pages of 2.
    const USDT_ID = 1984;
    const usdtLocation = JSON.stringify({ parents: 0, interior: { x2: [{ palletInstance: 50 }, { generalIndex: USDT_ID }] } });
    const native = JSON.stringify({ parents: 1, interior: { here: null } });
    const expected: { blockNumber: number; eventIndex: number; hop: number; hops: number; tokenIn: number; extrinsicIndex: number | null }[] = [];
    const blockTimes = new Map<number, number>();
    const reservesAfter = new Map<number, [bigint, bigint]>();
    let previous: string | undefined;
    for (let n = 1; n <= cp.blockNumber; n++) {
      const hash = await api.rpc.chain.getBlockHash(n);
      const at = await api.at(hash);
      blockTimes.set(n, Math.floor(Number((await at.query.timestamp.now()).toString()) / 1000));
      const r = (await at.call.assetConversionApi.getReserves(JSON.parse(native), JSON.parse(usdtLocation))) as any;
      if (r.isSome) {
        const pair = r.unwrap();
        const key = `${pair[0].toString()}/${pair[1].toString()}`;
        if (key !== previous) reservesAfter.set(n, [pair[0].toBigInt(), pair[1].toBigInt()]);
        previous = key;
      }
      const events = (await at.query.system.events()) as any;
      events.forEach((record: any, index: number) => {
        const { event, phase } = record;
        if (event.section !== "assetConversion" || (event.method !== "SwapExecuted" && event.method !== "SwapCreditExecuted")) return;
        const path = (event.data.path.toJSON() as unknown[]).map((step) => JSON.stringify(Array.isArray(step) ? step[0] : step));
        for (let hop = 0; hop + 1 < path.length; hop++) {
          const pair = [path[hop], path[hop + 1]];
          if (!(pair.includes(native) && pair.includes(usdtLocation))) continue;
          expected.push({ blockNumber: n, eventIndex: index, hop, hops: path.length - 1, tokenIn: path[hop] === native ? 0 : USDT_ID, extrinsicIndex: phase.isApplyExtrinsic ? phase.asApplyExtrinsic.toNumber() : null });
        }
      });
    }
    expected.reverse();
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(expected.some((e) => e.hops > 1)).toBe(true); // a multi-hop swap crossed this pool
    const seen: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await (await t.get(`/pools/KSM/USDt/swaps?limit=2${cursor ? `&cursor=${cursor}` : ""}`)).json();
      seen.push(...page.trades);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((x) => ({ blockNumber: x.blockNumber, eventIndex: x.eventIndex, hop: x.hop, hops: x.hops, tokenIn: x.tokenIn, extrinsicIndex: x.extrinsicIndex }))).toEqual(expected);
    expect(seen.every((x) => x.multiHop === x.hops > 1 && x.side === (x.tokenIn === 0 ? "sell" : "buy"))).toBe(true);
    // Their amounts: each hop's, as the chain states them — the path's amounts, or on the 2023
    // runtime its assetConversion.Transfer legs (chainSwaps: read apart from the indexer).
    const hops = (await chainSwaps(api, { from: 1, to: cp.blockNumber })).filter((h) => [h.tokenIn, h.tokenOut].sort((a, b) => a - b).join("/") === `0/${USDT_ID}`).reverse();
    expect(hops.length).toBe(expected.length);
    expect(seen.map((x) => ({ blockNumber: x.blockNumber, eventIndex: x.eventIndex, hop: x.hop, amountIn: x.amountIn, amountOut: x.amountOut }))).toEqual(
      hops.map((h) => ({ blockNumber: h.blockNumber, eventIndex: h.eventIndex, hop: h.hop, amountIn: h.amountIn, amountOut: h.amountOut })),
    );

    // Candles of a minute: open and close are the price after the first and last block of the
    // minute that moved the reserves; high and low bound every such price; volume is the sum.
    const price = ([r0, r1]: [bigint, bigint]) => (r1 * 10n ** 12n * 10n ** 18n) / (r0 * 10n ** 6n);
    const first = Math.min(...blockTimes.values());
    // From the first block whose events the store holds (a bootstrap's own block is a snapshot:
    // an earlier "from" is refused), no gap since.
    const held: any = await (await t.get(`/pools/KSM/USDt/ohlcv?interval=1m`)).json();
    expect(held, JSON.stringify(held)).toMatchObject({ historyGaps: [] });
    const body: any = await (await t.get(`/pools/KSM/USDt/ohlcv?interval=1m&from=${Math.max(first, held.historyFromTime)}`)).json();
    const byMinute = new Map<number, bigint[]>();
    for (const [n, r] of reservesAfter) {
      const minute = blockTimes.get(n)! - (blockTimes.get(n)! % 60);
      byMinute.set(minute, [...(byMinute.get(minute) ?? []), price(r)]);
    }
    // Volume in KSM per minute, from the chain's hops and block times (not from the API's trades).
    const volumes = new Map<number, bigint>();
    for (const h of hops) {
      const minute = blockTimes.get(h.blockNumber)! - (blockTimes.get(h.blockNumber)! % 60);
      volumes.set(minute, (volumes.get(minute) ?? 0n) + BigInt(h.tokenIn === 0 ? h.amountIn : h.amountOut));
    }
    expect(byMinute.size).toBeGreaterThan(1);
    expect(volumes.size).toBeGreaterThan(0);
    // Every minute that moved the reserves or had a swap has its candle, not empty.
    expect(body.candles.length).toBeGreaterThan(0);
    const shown = new Map<number, any>(body.candles.map((c: any) => [c.timestamp, c]));
    for (const minute of new Set([...byMinute.keys(), ...volumes.keys()])) expect(shown.get(minute), `the candle of ${minute}`).toMatchObject({ empty: false });
    for (const c of body.candles) {
      const prices = byMinute.get(c.timestamp);
      const fixed = (v: string) => parseFixed(v, USD_SCALE);
      expect(c.empty).toBe(prices === undefined);
      expect(BigInt(c.volumeA)).toBe(volumes.get(c.timestamp) ?? 0n);
      if (!prices) continue;
      expect(fixed(c.open)).toBe(prices[0]);
      expect(fixed(c.close)).toBe(prices.at(-1));
      for (const p of prices) expect(fixed(c.high) >= p && fixed(c.low) <= p).toBe(true);
      expect(prices).toContain(fixed(c.high));
      expect(prices).toContain(fixed(c.low));
    }
  }, LONG);

  it("the DEX Screener adapter agrees with the chain: reserves after each pool's last event of a block are the pool account's balances there, and every event names its extrinsic", async () => {
    const store = stores[0]!;
    await store.follower.stop();
    const cp = (await getCheckpoint(store.handle.db))!;
    const t = buildApp(store.handle.db);
    const latest: any = await (await t.get("/dexscreener/latest-block")).json();
    checkLatestBlockResponse(latest);
    expect(latest.block.blockNumber).toBe(cp.blockNumber);
    const from = (await eventCoverage(store.handle.db)).first!.number;
    const events: any[] = [];
    for (let lo = from; lo <= cp.blockNumber; lo += 1_000) {
      const res = await t.get(`/dexscreener/events?fromBlock=${lo}&toBlock=${Math.min(lo + 999, cp.blockNumber)}`);
      expect(res.status).toBe(200);
      events.push(...((await res.json()) as any).events);
    }
    checkEventsResponse({ events });
    expect(new Set(events.map((e) => e.eventType))).toEqual(new Set(["swap", "join", "exit"]));
    const pairs = new Map<string, any>();
    for (const id of new Set(events.map((e) => e.pairId))) {
      const body: any = await (await t.get(`/dexscreener/pair?id=${id}`)).json();
      checkPairResponse(body);
      const assets = await Promise.all([body.pair.asset0Id, body.pair.asset1Id].map(async (a) => ((await (await t.get(`/dexscreener/asset?id=${a}`)).json()) as any).asset));
      for (const a of assets) checkAssetResponse({ asset: a });
      pairs.set(id, { ...body.pair, decimals: assets.map((a) => Number(a.metadata.decimals)) });
    }
    const locations = new Map((await api.query.assetConversion.pools.entries()).map(([key]) => {
      const pair = key.args[0] as unknown as [any, any];
      return [pair.map((l) => tokenIdOfLocation(l, 0)).join("-"), pair] as const;
    }));
    const balanceOf = async (at: any, tokenId: number, location: any, account: string): Promise<bigint> => {
      if (tokenId === 0) return BigInt(((await at.query.system.account(account)) as any).data.free.toString());
      const l = location.toPrimitive();
      const x2 = l.interior.x2;
      const row: any = l.parents === 0 && x2?.[0]?.palletInstance === 50 ? await at.query.assets.account(x2[1].generalIndex, account) : await at.query.foreignAssets.account(location, account);
      return row.isSome ? BigInt(row.unwrap().balance.toString()) : 0n;
    };
    const lastOfBlock = new Map<string, any>();
    for (const e of events) lastOfBlock.set(`${e.pairId}@${e.block.blockNumber}`, e);
    const byBlock = new Map<number, any[]>();
    for (const e of events) byBlock.set(e.block.blockNumber, [...(byBlock.get(e.block.blockNumber) ?? []), e]);
    const methods: Record<string, string[]> = { swap: ["SwapExecuted"], join: ["LiquidityAdded"], exit: ["LiquidityRemoved"] };
    for (const [n, list] of byBlock) {
      const at = await api.at(await api.rpc.chain.getBlockHash(n));
      const records = (await at.query.system.events()) as any;
      for (const e of list) {
        // The chain event it comes from, and the extrinsic that emitted it.
        const [block, index] = e.metadata.event.split("-").map(Number);
        const { event, phase } = records[index];
        expect(block).toBe(n);
        expect(`${event.section}.${event.method}`, e.metadata.event).toBe(`assetConversion.${methods[e.eventType]![0]}`);
        expect(e.txnId).toBe(`${n}-${phase.asApplyExtrinsic.toNumber()}`);
        expect(e.txnIndex).toBe(phase.asApplyExtrinsic.toNumber());
        expect(e.maker).toBe(event.data.who.toString());
        if (lastOfBlock.get(`${e.pairId}@${n}`) !== e) continue;
        const pair = pairs.get(e.pairId)!;
        const [l0, l1] = locations.get(e.pairId)!;
        const [r0, r1] = await Promise.all([balanceOf(at, Number(pair.asset0Id), l0, pair.metadata.poolAccount), balanceOf(at, Number(pair.asset1Id), l1, pair.metadata.poolAccount)]);
        expect(e.reserves, `${e.pairId} at ${n}`).toEqual({ asset0: formatFixed(r0, pair.decimals[0]), asset1: formatFixed(r1, pair.decimals[1]) });
      }
    }
  }, LONG);

  it("a follower stopped mid-way, restarted, and cut off from the chain ends in the same state", async () => {
    expect(restarted.restarts).toBe(1);
    expect(restarted.follower.status.sessions).toBeGreaterThanOrEqual(2); // it reconnected after the cut
    await restarted.follower.stop();
    const cp = (await getCheckpoint(restarted.handle.db))!;
    expect(await dbSnapshot(restarted.handle.db)).toEqual(await chainSnapshot(api, cp.blockHash));
  }, LONG);

  it("a new deployment against an already-seeded chain bootstraps to the same state", async () => {
    const handle = await memoryStore();
    const follower = startIndexer(config, logger, handle, devnet.wsUrl);
    try {
      await until("the bootstrap", () => (follower.status.block ?? 0) >= market.block);
      await follower.stop();
      const cp = (await getCheckpoint(handle.db))!;
      const db = await dbSnapshot(handle.db);
      expect(Object.keys(db.pools)).toHaveLength(market.pools.length);
      expect(db).toEqual(await chainSnapshot(api, cp.blockHash));
    } finally {
      await follower.stop();
      await handle.close();
    }
  }, LONG);

  it("a store built from another chain is refused (fatal, nothing written), or on the devnet emptied and rebuilt", async () => {
    const handle = await memoryStore();
    let follower = startIndexer(config, logger, handle, devnet.wsUrl);
    try {
      await until("the bootstrap", () => (follower.status.block ?? 0) >= market.block);
      await follower.stop();
      // As if the store had been built from another chain: its checkpoint block is not this chain's.
      const cp = (await getCheckpoint(handle.db))!;
      const foreign = `0x${"ab".repeat(32)}`;
      await handle.db.update(schema.checkpoints).set({ blockHash: foreign }).where(eq(schema.checkpoints.name, cp.name));
      const tokensBefore = await handle.db.select().from(schema.tokens);

      const fatal: Error[] = [];
      follower = startIndexer(config, logger, handle, devnet.wsUrl, undefined, { onOtherChain: "refuse", onFatal: (err) => fatal.push(err) });
      await until("the refusal", () => fatal.length === 1);
      expect(fatal[0]!.message).toMatch(new RegExp(`block ${cp.blockNumber} of the store is ${foreign}, but that block of the chain at WS_URL is ${cp.blockHash}`));
      expect(follower.status.fatal).toBe(fatal[0]!.message);
      await follower.stop();
      expect((await getCheckpoint(handle.db))!.blockHash).toBe(foreign); // nothing written
      expect(await handle.db.select().from(schema.tokens)).toEqual(tokensBefore);

      // The devnet policy: the store is emptied and bootstrapped from this chain.
      await handle.db.insert(schema.tokens).values({ ...tokensBefore[0]!, id: 999_999, symbol: "GHOST" });
      follower = startIndexer(config, logger, handle, devnet.wsUrl, undefined, { onOtherChain: "reset" });
      await until("the rebuilt store", async () => (await getCheckpoint(handle.db))?.blockHash !== foreign && (follower.status.block ?? 0) >= cp.blockNumber);
      await follower.stop();
      const rebuilt = (await getCheckpoint(handle.db))!;
      const db = await dbSnapshot(handle.db);
      expect(db).toEqual(await chainSnapshot(api, rebuilt.blockHash));
      expect((await handle.db.select().from(schema.tokens)).some((t) => t.symbol === "GHOST")).toBe(false);
    } finally {
      await follower.stop();
      await handle.close();
    }
  }, LONG);

  it("an indexer process killed with SIGKILL and restarted ends in the same state, and SIGTERM exits 0", async () => {
    expect(kills).toBe(1);
    const target = market.block;
    // The process owns the PGlite directory: follow its progress through its log, read the store after it exits.
    await until(`the restarted process to reach block ${target}`, () => childBlock >= target);
    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child!.kill("SIGTERM");
    expect(await exited).toBe(0);
    child = undefined;
    const after = await createDb({ dataDir: killDir });
    try {
      const cp = (await getCheckpoint(after.db))!;
      expect(cp.blockNumber).toBeGreaterThanOrEqual(target);
      expect(await dbSnapshot(after.db)).toEqual(await chainSnapshot(api, cp.blockHash));
    } finally {
      await after.close();
    }
  }, LONG);
});
