/**
 * Turns a fresh devnet into a small live market: funded accounts, assets with metadata and
 * holders, native/asset pools with liquidity, some liquidity removed, swaps (one multi-hop), and
 * then a trickle of swaps that keeps blocks coming. Everything the indexer must understand
 * happens at least once, in real blocks with real events.
 *
 * Calls are grouped with utility.batchAll (a block costs ~1 s, a call inside a batch ~20 ms) and
 * every extrinsic is checked, so a seed either fully happens or throws.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import type { Logger } from "../../shared/logger.js";
import type { SubmittableExtrinsic } from "@polkadot/api-base/types";
import { DEV_NAMES, devKeyring, fund, type DevKeyring } from "./accounts.js";
import {
  ASSETS,
  DEV_FUNDS,
  FOREIGN_ASSETS,
  FOREIGN_POOLS,
  foreignHoldings,
  HOLDER_FUNDS,
  NATIVE_LOCATION,
  POOLS,
  TRADER_TOKENS,
  TREASURY_TOKENS,
  assetLocation,
  assetUnits,
  holderMints,
  units,
  NATIVE_DECIMALS,
  type ForeignAssetSpec,
  type ForeignHolding,
  type HolderMint,
} from "./plan.js";
import { createSubmitter, type Submitter } from "./submitter.js";

type Tx = SubmittableExtrinsic<"promise">;

export interface SeedOptions {
  /** Derived holder accounts (//holder/<i>) that receive assets; default 200. */
  holders?: number;
}

export interface PoolSummary {
  /** Every pool on this runtime pairs the native token with this asset (a local asset's id)… */
  assetId?: number;
  /** …or with this foreign asset (an index into FOREIGN_ASSETS). */
  foreign?: number;
  lpToken: number;
}

export interface MarketSummary {
  assetIds: number[];
  /** Empty on a runtime without pallet-asset-conversion. */
  pools: PoolSummary[];
  holders: string[];
  mints: HolderMint[];
  /** Best block once seeding is done. */
  block: number;
}

const MINTS_PER_BATCH = 100;

function hasAssetConversion(api: ApiPromise): boolean {
  return api.tx.assetConversion !== undefined;
}

async function createAssets(api: ApiPromise, treasury: Submitter, trader: string): Promise<void> {
  const calls = ASSETS.flatMap((a) => [
    api.tx.assets.create(a.id, treasury.address, 1),
    api.tx.assets.setMetadata(a.id, a.name, a.symbol, a.decimals),
    api.tx.assets.mint(a.id, treasury.address, assetUnits(a.id, TREASURY_TOKENS)),
    api.tx.assets.mint(a.id, trader, assetUnits(a.id, TRADER_TOKENS)),
  ]);
  await treasury.send(api.tx.utility.batchAll(calls), "create assets");
}

async function mintToHolders(api: ApiPromise, treasury: Submitter, mints: readonly HolderMint[]): Promise<void> {
  for (let start = 0; start < mints.length; start += MINTS_PER_BATCH) {
    const calls = mints.slice(start, start + MINTS_PER_BATCH).map((m) => api.tx.assets.mint(m.assetId, m.address, m.amount));
    await treasury.send(api.tx.utility.batchAll(calls), `mint to holders ${start}..${start + calls.length - 1}`);
  }
}

/** Creates and fills planned pools in one batch of `provider`'s; lp token ids come from PoolCreated. */
async function createPools(api: ApiPromise, provider: Submitter, pools: { location: object; nativeAmount: bigint; assetAmount: bigint }[], label: string): Promise<number[]> {
  const calls = pools.flatMap((p) => [
    api.tx.assetConversion.createPool(NATIVE_LOCATION, p.location),
    api.tx.assetConversion.addLiquidity(NATIVE_LOCATION, p.location, p.nativeAmount, p.assetAmount, 1, 1, provider.address),
  ]);
  const { events } = await provider.send(api.tx.utility.batchAll(calls), label);
  const lpTokens = events.flatMap(({ event }) => (api.events.assetConversion.PoolCreated.is(event) ? [event.data.lpToken.toNumber()] : []));
  if (lpTokens.length !== pools.length) throw new Error(`devnet: expected ${pools.length} PoolCreated events, got ${lpTokens.length}`);
  return lpTokens;
}

/**
 * Native/asset pools by the treasury (Alice), native/foreign ones by Charlie: Alice already
 * holds an account of every asset and LP token, and an account may hold 16 consumer references.
 */
async function createAllPools(api: ApiPromise, treasury: Submitter, charlie: Submitter): Promise<PoolSummary[]> {
  const local = await createPools(api, treasury, POOLS.map((p) => ({ ...p, location: assetLocation(p.assetId) })), "create pools");
  const foreign = await createPools(api, charlie, FOREIGN_POOLS.map((p) => ({ ...p, location: FOREIGN_ASSETS[p.asset]!.location })), "create foreign-asset pools");
  return [...POOLS.map((p, i) => ({ assetId: p.assetId, lpToken: local[i]! })), ...FOREIGN_POOLS.map((p, i) => ({ foreign: p.asset, lpToken: foreign[i]! }))];
}

/** Burns a tenth of the treasury's LP tokens of one pool, so LiquidityRemoved happens too. */
async function removeSomeLiquidity(api: ApiPromise, treasury: Submitter, pool: PoolSummary): Promise<void> {
  const account = await api.query.poolAssets.account(pool.lpToken, treasury.address);
  const lpBalance = account.unwrapOrDefault().balance.toBigInt();
  const location = assetLocation(pool.assetId!);
  await treasury.send(api.tx.assetConversion.removeLiquidity(NATIVE_LOCATION, location, lpBalance / 10n, 1, 1, treasury.address), "remove liquidity");
}

/**
 * Both swap kinds, both directions, two-hop routes asset → native → asset, then through foreign
 * assets: a batch each (two blocks instead of seven), which also puts several swaps, with their
 * Transfer legs, in one extrinsic.
 */
async function tradeAFew(api: ApiPromise, trader: Submitter, foreignPools: boolean): Promise<void> {
  const ksm = (amount: number) => units(amount, NATIVE_DECIMALS);
  const swap = api.tx.assetConversion;
  const local: Tx[] = [
    swap.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION], assetUnits(1984, 1_000), 1, trader.address, false),
    swap.swapExactTokensForTokens([NATIVE_LOCATION, assetLocation(18)], ksm(10), 1, trader.address, false),
    swap.swapExactTokensForTokens([assetLocation(10), NATIVE_LOCATION, assetLocation(1984)], assetUnits(10, 500), 1, trader.address, false),
    swap.swapTokensForExactTokens([NATIVE_LOCATION, assetLocation(7)], assetUnits(7, 20), ksm(10), trader.address, false),
  ];
  await trader.send(api.tx.utility.batchAll(local), "swaps USDt→KSM, KSM→WETH, TEN→KSM→USDt, KSM→20 WHL");
  if (!foreignPools) return;
  const [pusdc, kar] = FOREIGN_ASSETS.map((f) => f.location) as [object, object];
  const foreign: Tx[] = [
    swap.swapExactTokensForTokens([pusdc, NATIVE_LOCATION], units(500, 6), 1, trader.address, false),
    swap.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION, kar], assetUnits(1984, 200), 1, trader.address, false),
    swap.swapExactTokensForTokens([kar, NATIVE_LOCATION, pusdc], units(1_000, 12), 1, trader.address, false),
  ];
  await trader.send(api.tx.utility.batchAll(foreign), "swaps pUSDC→KSM, USDt→KSM→KAR, KAR→KSM→pUSDC");
}

/**
 * Foreign assets, written into storage: ForeignAssets.create needs an XCM origin, which a devnet
 * has no one to send. Like the funding, this changes state without a block or an event, so it
 * runs before any indexer starts. Every holder's consumer count goes up by one per foreign asset
 * it holds, as pallet-assets would have done (mismatched counts underflow when an account
 * empties). Holders need native balance (a provider) already.
 */
export async function writeForeignAssets(api: ApiPromise, assets: readonly ForeignAssetSpec[], holdings: readonly ForeignHolding[], owner: string): Promise<void> {
  const addresses = [...new Set(holdings.map((h) => h.address))];
  const infos = await api.query.system.account.multi(addresses);
  const accounts = addresses.map((address, i) => {
    const info = infos[i]!.toPrimitive() as { consumers: number };
    return [[address], { ...info, consumers: info.consumers + holdings.filter((h) => h.address === address).length }] as const;
  });
  await api.rpc("dev_setStorage", {
    System: { Account: accounts },
    ForeignAssets: {
      Asset: assets.map((spec, asset) => {
        const mine = holdings.filter((h) => h.asset === asset);
        const supply = mine.reduce((sum, h) => sum + h.amount, 0n).toString();
        const details = { owner, issuer: owner, admin: owner, freezer: owner, supply, deposit: 0, minBalance: 1, isSufficient: false, accounts: mine.length, sufficients: 0, approvals: 0, status: "Live" };
        return [[spec.location], details];
      }),
      Metadata: assets.map((spec) => [[spec.location], { deposit: 0, name: spec.name, symbol: spec.symbol, decimals: spec.decimals, isFrozen: false }]),
      Account: holdings.map((h) => [[assets[h.asset]!.location, h.address], { balance: h.amount.toString(), status: "Liquid", reason: "Consumer", extra: null }]),
    },
  });
}

/** The scenario's foreign assets; nothing when they are there already, or without ForeignAssets. */
async function seedForeignAssets(api: ApiPromise, keys: DevKeyring): Promise<void> {
  if (!api.query.foreignAssets || (await api.query.foreignAssets.asset(FOREIGN_ASSETS[0]!.location as never)).isSome) return;
  const holdings = foreignHoldings(keys.dev.Bob.address, keys.dev.Charlie.address, keys.holders.map((h) => h.address));
  await writeForeignAssets(api, FOREIGN_ASSETS, holdings, keys.dev.Alice.address);
}

/**
 * Funds the dev and holder accounts through dev_setStorage. That writes state without a block
 * or an event — no real chain can — so an indexer already following would never see it: call
 * this before starting one (seedMarket calls it too; funding twice with the same amounts
 * changes nothing).
 */
export async function fundMarketAccounts(api: ApiPromise, opts: SeedOptions = {}): Promise<void> {
  const keys = await devKeyring(opts.holders ?? 200, api.registry.chainSS58 ?? 42);
  await fund(api, DEV_NAMES.map((name) => keys.dev[name].address), DEV_FUNDS);
  await fund(api, keys.holders.map((h) => h.address), HOLDER_FUNDS);
  await seedForeignAssets(api, keys);
}

/**
 * Seeds a fresh devnet (run it once per chain: assets that exist already make it throw). On a
 * runtime without asset conversion (the Rococo fallback) it seeds accounts and assets only.
 */
export async function seedMarket(api: ApiPromise, opts: SeedOptions = {}): Promise<MarketSummary> {
  const keys = await devKeyring(opts.holders ?? 200, api.registry.chainSS58 ?? 42);
  const holders = keys.holders.map((h) => h.address);
  await fundMarketAccounts(api, opts);
  const treasury = createSubmitter(api, keys.dev.Alice);
  const trader = createSubmitter(api, keys.dev.Bob);
  await createAssets(api, treasury, trader.address);
  const mints = holderMints(holders);
  await mintToHolders(api, treasury, mints);
  let pools: PoolSummary[] = [];
  if (hasAssetConversion(api)) {
    const charlie = createSubmitter(api, keys.dev.Charlie);
    pools = api.query.foreignAssets ? await createAllPools(api, treasury, charlie) : (await createPools(api, treasury, POOLS.map((p) => ({ ...p, location: assetLocation(p.assetId) })), "create pools")).map((lpToken, i) => ({ assetId: POOLS[i]!.assetId, lpToken }));
    await removeSomeLiquidity(api, treasury, pools.find((p) => p.assetId === 18)!);
    await tradeAFew(api, trader, api.query.foreignAssets !== undefined);
  }
  const block = (await api.rpc.chain.getHeader()).number.toNumber();
  return { assetIds: ASSETS.map((a) => a.id), pools, holders, mints, block };
}

export interface LiveSwapsOptions {
  /** Pause between two extrinsics. */
  intervalMs: number;
  /** Called for each failed step (the trickle goes on; it stops after 5 in a row). Default: one line on stderr. */
  onError?: (err: unknown) => void;
}

export interface LiveSwaps {
  /** Stops the trickle; resolves after the extrinsic in flight (if any) is final. */
  stop(): Promise<void>;
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** A small random amount: 0.005 %–0.1 % of `depth`, never 0. */
function smallShare(depth: bigint): bigint {
  const share = (depth * BigInt(1 + Math.floor(Math.random() * 20))) / 20_000n;
  return share > 0n ? share : 1n;
}

/** Every fifth step a transfer to another dev account, otherwise a swap in a random direction. */
function nextStep(api: ApiPromise, keys: DevKeyring, step: number): [string, Tx] {
  const trader = keys.dev.Bob.address;
  if (step % 5 === 4 || !hasAssetConversion(api)) {
    const asset = pick(ASSETS);
    const to = keys.dev[pick(["Charlie", "Dave", "Eve", "Ferdie"] as const)].address;
    return [`transfer ${asset.symbol}`, api.tx.assets.transferKeepAlive(asset.id, to, smallShare(assetUnits(asset.id, 10_000)))];
  }
  const local = POOLS.map((p) => ({ ...p, location: assetLocation(p.assetId) as object, name: String(p.assetId) }));
  const foreign = api.query.foreignAssets ? FOREIGN_POOLS.map((p) => ({ ...p, location: FOREIGN_ASSETS[p.asset]!.location as object, name: FOREIGN_ASSETS[p.asset]!.symbol })) : [];
  const pool = pick([...local, ...foreign]);
  const sell = Math.random() < 0.5;
  const path = sell ? [NATIVE_LOCATION, pool.location] : [pool.location, NATIVE_LOCATION];
  const amountIn = smallShare(sell ? pool.nativeAmount : pool.assetAmount);
  return [`live swap ${sell ? `KSM→${pool.name}` : `${pool.name}→KSM`}`, api.tx.assetConversion.swapExactTokensForTokens(path, amountIn, 1, trader, false)];
}

const MAX_FAILURES_IN_A_ROW = 5;

/**
 * Keeps the seeded market moving — Bob swaps small amounts, now and then he transfers — so an
 * indexer following the devnet sees new blocks, prices and balances. Needs seedMarket first.
 */
/**
 * What `npm start` and `tokenpool devnet` do with a refused live trade (a slippage bound, a stale
 * nonce): a JSON warning in the service's log — the trade is skipped and the next one goes on.
 */
export function warnOnTradeFailure(logger: Logger): (err: unknown) => void {
  return (err) => logger.warn({ err }, "devnet: a live trade failed; skipped, trading goes on");
}

export function startLiveSwaps(api: ApiPromise, opts: LiveSwapsOptions): LiveSwaps {
  const onError = opts.onError ?? ((err: unknown) => process.stderr.write(`devnet: live swap failed: ${err instanceof Error ? err.message : String(err)}\n`));
  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = () => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, opts.intervalMs);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const loop = (async () => {
    const keys = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const trader = createSubmitter(api, keys.dev.Bob);
    let failures = 0;
    for (let step = 0; !stopped; step++) {
      const [label, tx] = nextStep(api, keys, step);
      try {
        await trader.send(tx, label);
        failures = 0;
      } catch (err) {
        // One failed step (a dropped transaction, a stale nonce under load) must not freeze the
        // market: the submitter re-reads its nonce and the next step goes on. Only a run of
        // failures means the chain itself is broken.
        onError(err);
        if (++failures >= MAX_FAILURES_IN_A_ROW) return;
      }
      if (!stopped) await pause();
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
