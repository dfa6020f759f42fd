/**
 * The pieces of the metadata-generated decoders (scale.ts): a byte reader that fails loudly past
 * the end, the accounts an event names, SS58 encodings kept per account.
 */
import { u8aToHex } from "@polkadot/util";
import { encodeAddress } from "@polkadot/util-crypto";

export class ScaleError extends Error {
  override name = "ScaleError";
}

export class Reader {
  pos = 0;
  constructor(readonly u8a: Uint8Array) {}

  take(n: number): number {
    const at = this.pos;
    if (at + n > this.u8a.length) throw new ScaleError(`${this.u8a.length} bytes, read past the end at ${at + n}`);
    this.pos = at + n;
    return at;
  }

  byte(): number {
    return this.u8a[this.take(1)]!;
  }

  /** Unsigned little-endian integer of `n` bytes. */
  uint(n: number): bigint {
    const at = this.take(n);
    if (n <= 4) {
      let v = 0;
      for (let i = n - 1; i >= 0; i--) v = v * 256 + this.u8a[at + i]!;
      return BigInt(v);
    }
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(this.u8a[at + i]!);
    return v;
  }

  compact(): bigint {
    const b = this.u8a[this.pos];
    if (b === undefined) throw new ScaleError("compact past the end");
    switch (b & 3) {
      case 0:
        this.pos += 1;
        return BigInt(b >> 2);
      case 1:
        return this.uint(2) >> 2n;
      case 2:
        return this.uint(4) >> 2n;
      default:
        this.pos += 1;
        return this.uint((b >> 2) + 4);
    }
  }

  length(): number {
    const n = this.compact();
    if (n > BigInt(this.u8a.length - this.pos) * 8n + 64n) throw new ScaleError(`a length of ${n} with ${this.u8a.length - this.pos} bytes left`);
    return Number(n);
  }
}

/** Accounts an event names, as events.ts collects them: at most MAX_ACCOUNTS, none nested deeper than MAX_DEPTH. */
export interface Accounts {
  set: Set<string>;
  ss58: number;
}
export const MAX_ACCOUNTS = 64;
export const MAX_DEPTH = 6;

export type Skip = (r: Reader) => void;
export type Plain = (r: Reader, acc: Accounts, depth: number) => unknown;

export const PRIMITIVE_BYTES: Record<string, number> = { Bool: 1, Char: 4, U8: 1, U16: 2, U32: 4, U64: 8, U128: 16, U256: 32, I8: 1, I16: 2, I32: 4, I64: 8, I128: 16, I256: 32 };
/** Paths polkadot-js maps to classes of their own (PortableRegistry's PATHS_ALIAS and wrappers): never `plain`. */
export const SPECIAL = /^(sp_runtime::generic::era::Era|sp_runtime::multiaddress::MultiAddress|.*AccountId20|.*EthereumAddress|.*::vote::Vote|.*_identity::types::Data|.*_identity::types::BitFlags|sp_core::Opaque.*|sp_core::offchain::OpaqueMultiaddr|primitive_types::.*|sp_arithmetic::per_things::.*|.*_runtime::Runtime(Call|Event)|ink.*|(.*::)?(BTreeMap|BTreeSet|BoundedBTreeMap|BoundedBTreeSet|Range|RangeInclusive|WrapperOpaque|WrapperKeepOpaque|Cow|Result))$/;

/** One SS58 encoding per account seen lately (each is named by several events of a block). */
const addresses = new Map<string, string>();
export function address(bytes: Uint8Array, ss58: number): string {
  const key = `${ss58}:${u8aToHex(bytes)}`;
  let a = addresses.get(key);
  if (a === undefined) {
    if (addresses.size >= 100_000) addresses.clear();
    addresses.set(key, (a = encodeAddress(bytes, ss58)));
  }
  return a;
}
