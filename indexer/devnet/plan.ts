/**
 * What the devnet market holds, as plain data: the assets, the pools and their opening prices,
 * and who holds how much. Kept apart from the code that submits it so a test can compare the
 * chain's storage with the plan instead of with what the seeder says it did.
 */

/** XCM v3 location of the native token, as pallet-asset-conversion names it. */
export const NATIVE_LOCATION = { parents: 1, interior: "Here" } as const;

/** XCM v3 location of an Assets-pallet (index 50) asset. */
export function assetLocation(id: number) {
  return { parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: id }] } } as const;
}

export interface AssetSpec {
  id: number;
  name: string;
  symbol: string;
  decimals: number;
}

/**
 * Decimals 0, 6, 10, 12 and 18 so every amount path (no fraction, > 2^53, > 2^64) is exercised;
 * 1984 is the USD anchor of the price oracle, MEME and DOG have no pool and therefore no price.
 * DOG is asset 0, as on Kusama Asset Hub: the native token's id, so it is served as 2^32.
 */
export const ASSETS: readonly AssetSpec[] = [
  { id: 1984, name: "Tether USD", symbol: "USDt", decimals: 6 },
  { id: 1337, name: "USD Coin", symbol: "USDC", decimals: 6 },
  { id: 7, name: "Whole", symbol: "WHL", decimals: 0 },
  { id: 10, name: "Ten", symbol: "TEN", decimals: 10 },
  { id: 18, name: "Wrapped Ether", symbol: "WETH", decimals: 18 },
  { id: 42, name: "Meme Coin", symbol: "MEME", decimals: 12 },
  { id: 0, name: "Dog", symbol: "DOG", decimals: 10 },
];

export interface ForeignAssetSpec {
  /** XCM v3 location, as the 2023 runtime keys ForeignAssets. */
  location: { parents: number; interior: unknown };
  name: string;
  symbol: string;
  decimals: number;
}

/**
 * ForeignAssets (keyed by XCM location) as Kusama Asset Hub has them: a stablecoin bridged from
 * Polkadot Asset Hub (its asset 1337, through GlobalConsensus — one of this chain's USD anchors),
 * and a sibling parachain's token named by a GeneralKey (Karura's KAR).
 */
export const FOREIGN_ASSETS: readonly ForeignAssetSpec[] = [
  {
    location: { parents: 2, interior: { X4: [{ GlobalConsensus: "Polkadot" }, { Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1337 }] } },
    name: "USD Coin (Polkadot)",
    symbol: "pUSDC",
    decimals: 6,
  },
  {
    location: { parents: 1, interior: { X2: [{ Parachain: 2000 }, { GeneralKey: { length: 2, data: `0x0080${"00".repeat(30)}` } }] } },
    name: "Karura",
    symbol: "KAR",
    decimals: 12,
  },
];

export const NATIVE_DECIMALS = 12;

/** `amount` whole tokens in the smallest unit of a token with `decimals` decimals. */
export function units(amount: number | bigint, decimals: number): bigint {
  return BigInt(amount) * 10n ** BigInt(decimals);
}

function asset(id: number): AssetSpec {
  const spec = ASSETS.find((a) => a.id === id);
  if (!spec) throw new Error(`devnet plan: unknown asset ${id}`);
  return spec;
}

export function assetUnits(id: number, amount: number | bigint): bigint {
  return units(amount, asset(id).decimals);
}

export interface PoolSpec {
  assetId: number;
  /** Opening liquidity; the ratio is the opening price. */
  nativeAmount: bigint;
  assetAmount: bigint;
}

/** Native/asset pools at KSM ≈ 25 USD: USDt and USDC 25, TEN 0.5 USD, WETH 2,500 USD, WHL 5 USD. */
export const POOLS: readonly PoolSpec[] = [
  { assetId: 1984, nativeAmount: units(10_000, NATIVE_DECIMALS), assetAmount: assetUnits(1984, 250_000) },
  { assetId: 1337, nativeAmount: units(4_000, NATIVE_DECIMALS), assetAmount: assetUnits(1337, 100_000) },
  { assetId: 10, nativeAmount: units(2_000, NATIVE_DECIMALS), assetAmount: assetUnits(10, 100_000) },
  { assetId: 18, nativeAmount: units(5_000, NATIVE_DECIMALS), assetAmount: assetUnits(18, 50) },
  { assetId: 7, nativeAmount: units(1_000, NATIVE_DECIMALS), assetAmount: assetUnits(7, 5_000) },
];

export interface ForeignPoolSpec {
  /** Index into FOREIGN_ASSETS. */
  asset: number;
  nativeAmount: bigint;
  assetAmount: bigint;
}

/** Native/foreign pools, filled by Charlie (Alice holds as many asset and LP accounts as she may): pUSDC 25 per KSM, KAR 0.05 USD. */
export const FOREIGN_POOLS: readonly ForeignPoolSpec[] = [
  { asset: 0, nativeAmount: units(2_000, NATIVE_DECIMALS), assetAmount: units(50_000, 6) },
  { asset: 1, nativeAmount: units(1_000, NATIVE_DECIMALS), assetAmount: units(500_000, 12) },
];

/** Whole tokens of each foreign asset held by the trader (Bob) and the liquidity provider (Charlie). */
export const FOREIGN_TRADER_TOKENS = 1_000_000n;
export const FOREIGN_PROVIDER_TOKENS = 1_000_000n;
/** Derived holders //holder/0 … of each foreign asset (the same accounts for both). */
export const FOREIGN_HOLDERS = 12;

export interface ForeignHolding {
  asset: number;
  address: string;
  amount: bigint;
}

/** Who holds each foreign asset at genesis: Bob, Charlie and the first FOREIGN_HOLDERS holders. */
export function foreignHoldings(bob: string, charlie: string, holders: readonly string[]): ForeignHolding[] {
  return FOREIGN_ASSETS.flatMap((spec, asset) => [
    { asset, address: bob, amount: units(FOREIGN_TRADER_TOKENS, spec.decimals) },
    { asset, address: charlie, amount: units(FOREIGN_PROVIDER_TOKENS, spec.decimals) },
    ...holders.slice(0, FOREIGN_HOLDERS).map((address, i) => ({ asset, address, amount: units(1_000 * (i + 1), spec.decimals) + BigInt(i) })),
  ]);
}

/** Native balance of each dev account: enough for every pool and years of live swaps. */
export const DEV_FUNDS = units(1_000_000, NATIVE_DECIMALS);
/** Native balance of each holder: a provider reference, so it may receive non-sufficient assets. */
export const HOLDER_FUNDS = units(1, NATIVE_DECIMALS);
/** Whole tokens of every asset minted to Alice (the treasury, which supplies the pools). */
export const TREASURY_TOKENS = 10_000_000n;
/** Whole tokens of every asset minted to Bob, the trader of the scripted and live swaps. */
export const TRADER_TOKENS = 100_000_000n;

export interface HolderMint {
  address: string;
  assetId: number;
  amount: bigint;
}

/**
 * Zipf-like balances — a few whales and a long tail — so holder rankings are meaningful; adding
 * the holder's index in the smallest unit keeps every balance distinct, so rankings are stable.
 */
function holderAmount(spec: AssetSpec, index: number): bigint {
  return units(Math.max(1, Math.floor(100_000 / (index + 1))), spec.decimals) + BigInt(index);
}

/** Holder i gets asset i mod 6; every third holder also gets a second asset. Deterministic. */
export function holderMints(holders: readonly string[]): HolderMint[] {
  return holders.flatMap((address, i) => {
    const picks = i % 3 === 0 ? [i, i + 2] : [i];
    return picks.map((pick) => {
      const spec = ASSETS[pick % ASSETS.length]!;
      return { address, assetId: spec.id, amount: holderAmount(spec, i) };
    });
  });
}
