/**
 * Token ids ↔ XCM v3 locations, as pallet-asset-conversion names its assets: the native token
 * is `{parents:1, interior:Here}`, an Assets-pallet asset `{parents:0, interior:{X2:[{PalletInstance:50},{GeneralIndex:id}]}}`.
 * Anything else (foreign assets, other pallets) is not a token we index: undefined.
 */
export const ASSETS_PALLET_INSTANCE = 50;
const U32_MAX = 4_294_967_295;

export type Location = { parents: number; interior: unknown };

/** Enum variants arrive as {Here: null}, {here: null} or "Here" depending on the codec call. */
function variant(value: unknown): [string, unknown] | undefined {
  if (typeof value === "string") return [value.toLowerCase(), null];
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const [key, inner] = entries[0] as [string, unknown];
      return [key.toLowerCase(), inner];
    }
  }
  return undefined;
}

function integer(value: unknown): number | undefined {
  const text = typeof value === "number" || typeof value === "bigint" ? String(value) : typeof value === "string" ? value.replace(/,/g, "") : "";
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n <= U32_MAX ? n : undefined;
}

export function locationToTokenId(location: unknown, nativeTokenId: number): number | undefined {
  if (!location || typeof location !== "object") return undefined;
  const { parents, interior } = location as Location;
  const kind = variant(interior);
  if (!kind) return undefined;
  if (Number(parents) === 1 && kind[0] === "here") return nativeTokenId;
  if (Number(parents) !== 0 || kind[0] !== "x2" || !Array.isArray(kind[1]) || kind[1].length !== 2) return undefined;
  const [pallet, index] = (kind[1] as unknown[]).map(variant);
  if (pallet?.[0] !== "palletinstance" || integer(pallet[1]) !== ASSETS_PALLET_INSTANCE) return undefined;
  if (index?.[0] !== "generalindex") return undefined;
  return integer(index[1]);
}

export function tokenIdToLocation(id: number, nativeTokenId: number): Location {
  if (id === nativeTokenId) return { parents: 1, interior: { Here: null } };
  return { parents: 0, interior: { X2: [{ PalletInstance: ASSETS_PALLET_INSTANCE }, { GeneralIndex: id }] } };
}

/** Pools are keyed by their two token ids in the chain's order (native first). */
export function poolKey(token0Id: number, token1Id: number): string {
  return `${token0Id}/${token1Id}`;
}
