/**
 * The oracle's USD anchors per chain: tokens valued at exactly 1 USD. Chosen from the chain's
 * identity — its genesis hash, or its runtime's spec name where the genesis is a devnet's (a
 * chopsticks devnet reports the placeholder 0x4545…) — unless USD_STABLECOINS names them.
 */
import { assetTokenId, locationJsonToken } from "./chain/locations.js";
import type { ChainIdentity } from "./chain/reader.js";

export const POLKADOT_ASSET_HUB_GENESIS = "0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f";
export const KUSAMA_ASSET_HUB_GENESIS = "0x48239ef607d7928874027a43a67689209727dfb3d3dc5e5b03a39bdc2eda771a";

/** An ERC-20 on Ethereum mainnet as Snowbridge registers it in ForeignAssets. */
const ethereum = (key: string) => ({ parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key } }] } });
/** A Polkadot Asset Hub asset as the Kusama-Polkadot bridge registers it on Kusama AH. */
const fromPolkadotHub = (assetId: number) => ({
  parents: 2,
  interior: { X4: [{ GlobalConsensus: "Polkadot" }, { Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: assetId }] },
});

const SNOWBRIDGE_USDC = ethereum("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48");
const SNOWBRIDGE_USDT = ethereum("0xdac17f958d2ee523a2206206994597c13d831ec7");

export interface AnchorSet {
  chain: string;
  /** Token ids (assets by their id, foreign assets by their derived id). */
  ids: number[];
  /** What each is, for the log and the README. */
  names: string[];
}

interface Anchor {
  name: string;
  assetId?: number;
  location?: unknown;
}

const CHAINS: { chain: string; genesis: string; specName: string; anchors: Anchor[] }[] = [
  {
    chain: "Polkadot Asset Hub",
    genesis: POLKADOT_ASSET_HUB_GENESIS,
    specName: "statemint",
    anchors: [
      { name: "USDt (asset 1984)", assetId: 1984 },
      { name: "USDC (asset 1337)", assetId: 1337 },
      { name: "USDC (Snowbridge)", location: SNOWBRIDGE_USDC },
      { name: "USDT (Snowbridge)", location: SNOWBRIDGE_USDT },
    ],
  },
  {
    // Kusama AH's own USDt 1984 is discontinued: the live stablecoins are bridged.
    chain: "Kusama Asset Hub",
    genesis: KUSAMA_ASSET_HUB_GENESIS,
    specName: "statemine",
    anchors: [
      { name: "USDt (asset 1984)", assetId: 1984 },
      { name: "USDt (Polkadot Asset Hub)", location: fromPolkadotHub(1984) },
      { name: "USDC (Polkadot Asset Hub)", location: fromPolkadotHub(1337) },
      { name: "USDC (Snowbridge)", location: SNOWBRIDGE_USDC },
      { name: "USDT (Snowbridge)", location: SNOWBRIDGE_USDT },
    ],
  },
];

/** The default anchors of a chain; an unknown chain gets asset 1984, the common USDt id. */
export function chainAnchors(identity: ChainIdentity, nativeTokenId: number): AnchorSet {
  const known = CHAINS.find((c) => c.genesis === identity.genesisHash) ?? CHAINS.find((c) => c.specName === identity.specName);
  const anchors = known?.anchors ?? [{ name: "asset 1984", assetId: 1984 }];
  return {
    chain: known?.chain ?? `unknown chain (${identity.specName}, genesis ${identity.genesisHash})`,
    ids: anchors.map((a) => (a.location === undefined ? assetTokenId(a.assetId!, nativeTokenId) : locationJsonToken(a.location, nativeTokenId).id)),
    names: anchors.map((a) => a.name),
  };
}
