/**
 * Token identity: which token an XCM location names, and the token id it is served under.
 *
 * pallet-asset-conversion names its assets by location (XCM v3 on the 2023 runtimes, v4 and v5
 * since), the same location keys ForeignAssets, and the three versions encode a location with
 * the same bytes (same junction and network indexes; X1 of one junction and X1 of an array of
 * one encode alike). So identity is decided on the SCALE bytes, whatever version decoded them:
 *
 * - native: `{parents:1, interior:Here}` → NATIVE_TOKEN_ID (0 by default);
 * - a trust-backed asset: `{parents:0, interior:X2[PalletInstance(50), GeneralIndex(n)]}` → n, or
 *   ALIAS_TOKEN_ID (2^32) when n equals the native id (asset 0 "DOG" on Kusama Asset Hub);
 * - anything else is a foreign asset: its id is derived from the canonical bytes (the v5 form:
 *   the testnet network names v5 dropped become their ByGenesis hashes) into 2^32 + 1 … 2^53 − 1,
 *   the same in every deployment and across XCM versions.
 */
import { TypeRegistry } from "@polkadot/types";
import type { Codec } from "@polkadot/types/types";
import { compactFromU8a, hexToU8a, isHex, u8aEq, u8aToBigInt, u8aToHex } from "@polkadot/util";
import { blake2AsU8a } from "@polkadot/util-crypto";

export const ASSETS_PALLET_INSTANCE = 50;
/** A trust-backed asset whose id is the native token's id is served under this id. */
export const ALIAS_TOKEN_ID = 2 ** 32;
/** Foreign asset ids: FOREIGN_MIN … Number.MAX_SAFE_INTEGER (2^53 − 1). */
export const FOREIGN_MIN = 2 ** 32 + 1;
const FOREIGN_SPAN = BigInt(Number.MAX_SAFE_INTEGER) - BigInt(FOREIGN_MIN) + 1n;
/** The largest token id: every id fits a JS number and a Postgres bigint exactly. */
export const MAX_TOKEN_ID = Number.MAX_SAFE_INTEGER;

export type TokenKind = "native" | "asset" | "foreign";

/** How to read a token from chain storage. */
export type TokenKey =
  | { kind: "native" }
  | { kind: "asset"; assetId: number }
  | {
      kind: "foreign";
      /**
       * SCALE bytes (hex) of the location as the chain encodes it: what its storage is keyed by.
       * The token id comes from the canonical form (see canonicalLocation), which differs from
       * these bytes only for the testnet networks XCM v5 retired.
       */
      key: string;
      /** The canonical location as plain JSON, for answers. */
      location: unknown;
    };

export interface TokenOfLocation {
  id: number;
  token: TokenKey;
}

/**
 * The XCM v4 location of polkadot-js' own definitions: its NetworkId list is v3's with the right
 * indexes (its v5 definition drops Westend/Rococo/Wococo without keeping Ethereum at index 7, so
 * it would misread every bridged Ethereum asset).
 */
const xcm = new TypeRegistry();
const LOCATION_TYPE = "MultiLocationV4";

/**
 * Networks XCM v5 removed (their indexes 4-6 stay unused), and the ByGenesis hash its
 * `From<OldNetworkId>` converts each to (polkadot-sdk, polkadot/xcm/src/v5/junction.rs; Wococo
 * became DUMMY_GENESIS_HASH, all zeros).
 */
const RETIRED_NETWORKS: Record<string, string> = {
  westend: "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e",
  rococo: "0x6408de7737c59c238890533af25896a2c20608d8b380bb01029acb392781063e",
  wococo: `0x${"00".repeat(32)}`,
};

const NATIVE_BYTES = new Uint8Array([1, 0]);
/** parents 0, X2, PalletInstance(50), GeneralIndex(…) */
const ASSET_PREFIX = new Uint8Array([0, 2, 4, ASSETS_PALLET_INSTANCE, 5]);

export function assetTokenId(assetId: number, nativeTokenId: number): number {
  return assetId === nativeTokenId ? ALIAS_TOKEN_ID : assetId;
}

function bytesOf(location: Uint8Array | string | Codec): Uint8Array {
  if (location instanceof Uint8Array) return location;
  if (typeof location === "string") {
    if (!isHex(location)) throw new Error(`not a hex location: ${location.slice(0, 20)}`);
    return hexToU8a(location);
  }
  return location.toU8a();
}

/** The asset id of the local-asset location, when `bytes` is exactly one. */
function localAssetId(bytes: Uint8Array): number | undefined {
  if (bytes.length <= ASSET_PREFIX.length || !u8aEq(bytes.subarray(0, ASSET_PREFIX.length), ASSET_PREFIX)) return undefined;
  const [read, value] = compactFromU8a(bytes.subarray(ASSET_PREFIX.length));
  if (ASSET_PREFIX.length + read !== bytes.length || value.bitLength() > 32) return undefined;
  return value.toNumber();
}

/** v5 form of a location's plain JSON: retired testnet networks become ByGenesis. */
function retireNetworks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retireNetworks);
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1) {
    const [name, inner] = entries[0]!;
    const hash = RETIRED_NETWORKS[name.toLowerCase()];
    if (hash && inner === null) return { byGenesis: hash };
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, retireNetworks(v)]));
}

/**
 * A foreign location: its canonical bytes (v5 form, hex) and JSON, and the chain's own bytes;
 * undefined when the bytes are no location.
 */
export function canonicalLocation(location: Uint8Array | string | Codec): Canonical | undefined {
  // A pure function of the bytes, asked for the same few locations in every block's events.
  const hex = typeof location === "string" ? location : location instanceof Uint8Array ? u8aToHex(location) : undefined;
  if (hex === undefined) return canonicalOf(location);
  if (canonicals.has(hex)) return canonicals.get(hex);
  const c = canonicalOf(location);
  if (canonicals.size >= 10_000) canonicals.clear();
  canonicals.set(hex, c);
  return c;
}

type Canonical = { canonical: string; key: string; location: unknown };
const canonicals = new Map<string, Canonical | undefined>();

function canonicalOf(location: Uint8Array | string | Codec): Canonical | undefined {
  const bytes = bytesOf(location);
  let codec: Codec;
  try {
    codec = xcm.createType(LOCATION_TYPE, bytes);
  } catch {
    return undefined;
  }
  if (codec.encodedLength !== bytes.length) return undefined;
  const json = codec.toJSON();
  const retired = retireNetworks(json);
  if (JSON.stringify(retired) !== JSON.stringify(json)) codec = xcm.createType(LOCATION_TYPE, retired);
  return { canonical: u8aToHex(codec.toU8a()), key: u8aToHex(bytes), location: codec.toPrimitive() };
}

/** The token id of a foreign location's canonical bytes: a hash, folded into the foreign range. */
export function foreignTokenId(canonical: string): number {
  const hash = blake2AsU8a(hexToU8a(canonical), 256);
  return Number(BigInt(FOREIGN_MIN) + (u8aToBigInt(hash.subarray(0, 8), { isLe: true }) % FOREIGN_SPAN));
}

/**
 * The token a location names (any XCM version: a codec, its bytes or their hex); undefined when
 * the bytes do not decode as a location.
 */
export function locationToken(location: Uint8Array | string | Codec, nativeTokenId: number): TokenOfLocation | undefined {
  let bytes: Uint8Array;
  try {
    bytes = bytesOf(location);
  } catch {
    return undefined;
  }
  if (u8aEq(bytes, NATIVE_BYTES)) return { id: nativeTokenId, token: { kind: "native" } };
  const assetId = localAssetId(bytes);
  if (assetId !== undefined) return { id: assetTokenId(assetId, nativeTokenId), token: { kind: "asset", assetId } };
  const foreign = foreignToken(bytes);
  return foreign && { id: foreign.id, token: foreign.token };
}

/** A ForeignAssets location as a token, whatever it looks like; undefined when it is no location. */
export function foreignToken(location: Uint8Array | string | Codec): TokenOfLocation | undefined {
  const c = canonicalLocation(location);
  return c && { id: foreignTokenId(c.canonical), token: { kind: "foreign", key: c.key, location: c.location } };
}

/** Pools are keyed by their two token ids in the chain's order (native first). */
export function poolKey(token0Id: number, token1Id: number): string {
  return `${token0Id}/${token1Id}`;
}

/** The token of a location written as JSON (XCM v3/v4 shape, enum names in any case). */
export function locationJsonToken(location: unknown, nativeTokenId: number): TokenOfLocation {
  const t = locationToken(xcm.createType(LOCATION_TYPE, location).toU8a(), nativeTokenId);
  if (!t) throw new Error(`not a location: ${JSON.stringify(location)}`);
  return t;
}
