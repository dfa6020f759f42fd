import { ALIAS_TOKEN_ID, type TokenKey } from "./locations.js";

const U32_MAX = 4_294_967_295;

/**
 * How to read each token from chain storage, by token id: the native token, an Assets-pallet id,
 * or a ForeignAssets location. Filled from the store at start, from the chain at a bootstrap or
 * a backfill chunk, and from every event that names a token.
 */
export class TokenDirectory {
  private readonly keys = new Map<number, TokenKey>();

  constructor(readonly nativeTokenId: number) {}

  set(id: number, key: TokenKey): void {
    if (id !== this.nativeTokenId) this.keys.set(id, key);
  }

  /** Undefined only for a foreign id the indexer has never seen a location of. */
  key(id: number): TokenKey | undefined {
    if (id === this.nativeTokenId) return { kind: "native" };
    const known = this.keys.get(id);
    if (known) return known;
    if (id === ALIAS_TOKEN_ID) return { kind: "asset", assetId: this.nativeTokenId };
    return id <= U32_MAX ? { kind: "asset", assetId: id } : undefined;
  }

  mustKey(id: number): TokenKey {
    const key = this.key(id);
    if (!key) throw new Error(`token ${id}: no location known for this foreign token id`);
    return key;
  }
}
