/**
 * A devnet whose runtime is upgraded for real: Rococo Asset Hub (statemine 900, metadata v14,
 * Assets, no AssetConversion) is seeded, then upgraded to the runtime of the shipped Kusama Asset
 * Hub genesis (statemine 1,000,000: v15, AssetConversion, PoolAssets, new Balances and
 * DispatchInfo layouts) the way a parachain applies one — PendingValidationCode, then a block
 * whose validation data carries GoAhead (chopsticks sends it) — and then gets the activity only
 * the new runtime has: pools, liquidity, swaps, transfers with the new event layouts.
 * See docs/chains.md, "A real upgrade under chopsticks".
 */
import "@polkadot/api-augment/assetHubKusama";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { ApiPromise, WsProvider } from "@polkadot/api";
import type { SubmittableExtrinsic } from "@polkadot/api-base/types";
import { compactAddLength, hexToU8a, u8aToHex } from "@polkadot/util";
import { devKeyring, type DevKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { assetLocation, assetUnits, NATIVE_DECIMALS, NATIVE_LOCATION, units } from "../../indexer/devnet/plan.js";
import { fundMarketAccounts, seedMarket, type MarketSummary } from "../../indexer/devnet/scenario.js";
import { createSubmitter, type Submitter } from "../../indexer/devnet/submitter.js";
import { DEFAULT_GENESIS, ROCOCO_GENESIS } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { until } from "./wait.js";

type Tx = SubmittableExtrinsic<"promise">;

/** Holder accounts of the seeded market (each a native balance and an asset or two). */
export const UPGRADE_HOLDERS = 12;

/** `:code` (twox128-free well-known key) in a raw genesis. */
const CODE_KEY = "0x3a636f6465";

/** The runtime of the shipped devnet genesis (statemine 1,000,000), as its `:code` bytes. */
export async function shippedRuntimeCode(): Promise<Uint8Array> {
  const spec = JSON.parse((await promisify(gunzip)(await readFile(DEFAULT_GENESIS))).toString("utf8")) as { genesis: { raw: { top: Record<string, string> } } };
  const code = spec.genesis.raw.top[CODE_KEY];
  if (!code) throw new Error(`upgrade: no :code in ${DEFAULT_GENESIS}`);
  return hexToU8a(code);
}

export interface RococoDevnet {
  devnet: Devnet;
  /** The connection that builds the chain (seeds, upgrades, submits). */
  api: ApiPromise;
  /**
   * Another connection (closed with the devnet). Read blocks from both sides of the upgrade
   * through one opened after it. Measured: `api`, which read blocks before the upgrade, fails to
   * decode them after it (system.events of the applying block, assets.metadata of the block
   * before) — polkadot.js switches its default registry to the new metadata in place and
   * memoizes a registry per block hash for the life of a connection.
   */
  connect(): Promise<ApiPromise>;
  close(): Promise<void>;
}

/** Rococo Asset Hub under chopsticks, with a connection to it. */
export async function startRococoDevnet(): Promise<RococoDevnet> {
  const devnet = await startDevnet({ genesis: ROCOCO_GENESIS, port: 0, logger: createLogger("silent") });
  const open = () => ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  const apis = [await open()];
  return {
    devnet,
    api: apis[0]!,
    async connect() {
      const api = await open();
      apis.push(api);
      return api;
    },
    async close() {
      for (const api of apis) await api.disconnect();
      await devnet.close();
    },
  };
}

export interface BlockRef {
  number: number;
  hash: string;
}

export interface Upgrade {
  /** The block that applied the new code (built by the old runtime). */
  applied: BlockRef;
  /** The first block of the new runtime (its migrations; no extrinsic). */
  first: BlockRef;
  specBefore: number;
  specAfter: number;
}

async function newBlock(api: ApiPromise): Promise<BlockRef> {
  const hash = String(await api.rpc("dev_newBlock" as never));
  const header = await api.rpc.chain.getHeader(hash);
  return { number: header.number.toNumber(), hash };
}

/**
 * Upgrades the runtime to `wasm`: PendingValidationCode is written, the next block applies it
 * (chopsticks sends GoAhead) and the one after runs the new runtime's migrations. That block is
 * built empty (the migrations take its weight); the connection has switched to the new
 * metadata when this returns, so the caller can submit at once.
 */
export async function upgradeRuntime(api: ApiPromise, wasm: Uint8Array): Promise<Upgrade> {
  const specBefore = api.runtimeVersion.specVersion.toNumber();
  const key = api.query.parachainSystem.pendingValidationCode.key();
  await api.rpc("dev_setStorage" as never, [[key, u8aToHex(compactAddLength(wasm))]] as never);
  const applied = await newBlock(api);
  const events = await (await api.at(applied.hash)).query.system.events();
  if (!events.some(({ event }) => event.section === "parachainSystem" && event.method === "ValidationFunctionApplied")) {
    throw new Error(`upgrade: block ${applied.number} did not apply the pending code (no parachainSystem.ValidationFunctionApplied)`);
  }
  const first = await newBlock(api);
  const specAfter = (await api.rpc.state.getRuntimeVersion(applied.hash)).specVersion.toNumber();
  if (specAfter === specBefore) throw new Error(`upgrade: the runtime after block ${applied.number} is still spec ${specBefore}`);
  await until(`the connection to switch to spec ${specAfter}`, () => api.runtimeVersion.specVersion.toNumber() === specAfter && api.tx.assetConversion !== undefined, 30_000);
  return { applied, first, specBefore, specAfter };
}

export interface Actors {
  keys: DevKeyring;
  /** Alice: owns the assets, provides the liquidity. */
  treasury: Submitter;
  /** Bob: trades and transfers. */
  trader: Submitter;
}

/** One submitter per account for the whole run (each counts its own nonces). */
export async function actors(api: ApiPromise): Promise<Actors> {
  const keys = await devKeyring(UPGRADE_HOLDERS, api.registry.chainSS58 ?? 42);
  return { keys, treasury: createSubmitter(api, keys.dev.Alice), trader: createSubmitter(api, keys.dev.Bob) };
}

/** Funds the accounts through storage (no event): call before any indexer starts. */
export async function fundAccounts(api: ApiPromise): Promise<void> {
  await fundMarketAccounts(api, { holders: UPGRADE_HOLDERS });
}

/** The scenario's assets, metadata and holders on the old runtime (no pools there). */
export async function seedBeforeUpgrade(api: ApiPromise): Promise<MarketSummary> {
  return seedMarket(api, { holders: UPGRADE_HOLDERS });
}

/**
 * A block of transfers by the trader: native (balances.Transfer, whose layout the upgrade keeps
 * but whose neighbours — Withdraw, Deposit, DispatchInfo — it changes) and two assets, to
 * holders picked by `round` so each round moves different balances.
 */
export async function transferRound(api: ApiPromise, who: Actors, round: number): Promise<BlockRef> {
  const holders = who.keys.holders;
  const to = (i: number) => holders[(round * 3 + i) % holders.length]!.address;
  const calls: Tx[] = [
    api.tx.balances.transferKeepAlive(to(0), units(1, NATIVE_DECIMALS) + BigInt(round)),
    api.tx.assets.transferKeepAlive(1984, to(1), assetUnits(1984, 10) + BigInt(round)),
    api.tx.assets.transferKeepAlive(7, to(2), 1 + round),
  ];
  const { blockHash } = await who.trader.send(api.tx.utility.batchAll(calls), `transfers, round ${round}`);
  return { number: (await api.rpc.chain.getHeader(blockHash)).number.toNumber(), hash: blockHash };
}

/** Pools the new runtime gets: KSM/USDt and KSM/WHL, priced as in the devnet plan. */
const NEW_POOLS = [
  { assetId: 1984, native: units(10_000, NATIVE_DECIMALS), asset: assetUnits(1984, 250_000) },
  { assetId: 7, native: units(1_000, NATIVE_DECIMALS), asset: assetUnits(7, 5_000) },
];

/** Pallets and an activity the old runtime does not have: pools, liquidity in and out, swaps. */
export async function seedAfterUpgrade(api: ApiPromise, who: Actors): Promise<void> {
  const swap = api.tx.assetConversion;
  const me = who.treasury.address;
  await who.treasury.send(
    api.tx.utility.batchAll(NEW_POOLS.flatMap((p) => [swap.createPool(NATIVE_LOCATION, assetLocation(p.assetId)), swap.addLiquidity(NATIVE_LOCATION, assetLocation(p.assetId), p.native, p.asset, 1, 1, me)])),
    "create pools KSM/USDt, KSM/WHL",
  );
  const ksm = (n: number) => units(n, NATIVE_DECIMALS);
  await who.trader.send(
    api.tx.utility.batchAll([
      swap.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION], assetUnits(1984, 1_000), 1, who.trader.address, false),
      swap.swapExactTokensForTokens([NATIVE_LOCATION, assetLocation(7)], ksm(10), 1, who.trader.address, false),
      swap.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION, assetLocation(7)], assetUnits(1984, 500), 1, who.trader.address, false),
      swap.swapTokensForExactTokens([NATIVE_LOCATION, assetLocation(1984)], assetUnits(1984, 20), ksm(10), who.trader.address, false),
    ]),
    "swaps USDt→KSM, KSM→WHL, USDt→KSM→WHL, KSM→20 USDt",
  );
  const lp = await api.query.assetConversion.pools([NATIVE_LOCATION, assetLocation(1984)] as never);
  const lpToken = lp.unwrap().lpToken.toNumber();
  const lpBalance = (await api.query.poolAssets.account(lpToken, me)).unwrap().balance.toBigInt();
  await who.treasury.send(swap.removeLiquidity(NATIVE_LOCATION, assetLocation(1984), lpBalance / 10n, 1, 1, me), "remove a tenth of KSM/USDt liquidity");
}

/** A swap in a direction that alternates with `round`, one block. */
export async function swapRound(api: ApiPromise, who: Actors, round: number): Promise<BlockRef> {
  const swap = api.tx.assetConversion;
  const asset = round % 4 < 2 ? 1984 : 7;
  const path = round % 2 === 0 ? [NATIVE_LOCATION, assetLocation(asset)] : [assetLocation(asset), NATIVE_LOCATION];
  const amount = round % 2 === 0 ? units(1, NATIVE_DECIMALS) + BigInt(round) : assetUnits(asset, asset === 7 ? 3 : 20) + BigInt(round);
  const { blockHash } = await who.trader.send(swap.swapExactTokensForTokens(path, amount, 1, who.trader.address, false), `swap, round ${round}`);
  return { number: (await api.rpc.chain.getHeader(blockHash)).number.toNumber(), hash: blockHash };
}

/** `rounds` blocks of activity: two swaps (new runtime) or a transfer batch in every three. */
export async function activity(api: ApiPromise, who: Actors, rounds: number): Promise<number> {
  let head = 0;
  for (let round = 0; round < rounds; round++) {
    const b = api.tx.assetConversion && round % 3 !== 2 ? await swapRound(api, who, round) : await transferRound(api, who, round);
    head = b.number;
  }
  return head;
}

/**
 * Empty blocks (inherents only, each with its events) until the head is `target`: about half
 * the cost of a block with an extrinsic, and chopsticks builds them in one call.
 */
export async function emptyBlocksUntil(api: ApiPromise, target: number): Promise<number> {
  const head = (await api.rpc.chain.getHeader()).number.toNumber();
  if (head < target) await api.rpc("dev_newBlock" as never, { count: target - head } as never);
  return (await api.rpc.chain.getHeader()).number.toNumber();
}

