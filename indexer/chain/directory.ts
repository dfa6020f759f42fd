import { ALIAS_TOKEN_ID, type TokenKey } from "./locations.js";

const U32_MAX = 4_294_967_295;

type ForeignKey = Extract<TokenKey, { kind: "foreign" }>;

/**
 * How to read each token from chain storage, by token id: the native token, an Assets-pallet id,
 * or a ForeignAssets location. Filled from the store at start (foreign_locations), from the chain
 * at a bootstrap or a backfill chunk, and from every event that names a token; the foreign
 * entries learned since the last `drainLearned()` are written to the store with the block.
 */
export class TokenDirectory {
  private readonly keys = new Map<number, TokenKey>();
  private learned = new Map<number, ForeignKey>();

  constructor(readonly nativeTokenId: number) {}

  /**
   * Records how to read token `id`; false (and nothing changes) when `id` already names another
   * foreign location: two locations whose derived ids collide must not become one token.
   */
  set(id: number, key: TokenKey, fromStore = false): boolean {
    if (id === this.nativeTokenId || key.kind !== "foreign") return true;
    const known = this.keys.get(id);
    if (known && known.kind === "foreign" && known.key !== key.key) return false;
    if (!known) {
      this.keys.set(id, key);
      if (!fromStore) this.learned.set(id, key);
    }
    return true;
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

  /** A copy to plan with: what it learns stays in it. */
  fork(): TokenDirectory {
    const copy = new TokenDirectory(this.nativeTokenId);
    for (const [id, key] of this.keys) copy.keys.set(id, key);
    return copy;
  }

  /** Foreign locations learned since the last call (to be stored with the batch). */
  drainLearned(): Map<number, ForeignKey> {
    const out = this.learned;
    this.learned = new Map();
    return out;
  }
}
