/**
 * SCALE decoders generated from a runtime's own metadata (its portable type registry), for the
 * hot path of a block's events: `skip` walks any type's bytes; `plain` turns the types whose
 * polkadot-js value is a plain one (integers, accounts, XCM locations, options, tuples, vectors,
 * structs and field-less enums of those) into what events.ts `plain` gives for them, without
 * building a codec per value. A type outside that set has no `plain`: its event is decoded by
 * polkadot-js (event-codec.ts). Built per runtime, never per version number.
 */
import type { PortableRegistry } from "@polkadot/types";
import type { SiType } from "@polkadot/types/interfaces";
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

type Skip = (r: Reader) => void;
export type Plain = (r: Reader, acc: Accounts, depth: number) => unknown;

const PRIMITIVE_BYTES: Record<string, number> = { Bool: 1, Char: 4, U8: 1, U16: 2, U32: 4, U64: 8, U128: 16, U256: 32, I8: 1, I16: 2, I32: 4, I64: 8, I128: 16, I256: 32 };
/** Paths polkadot-js maps to classes of their own (PortableRegistry's PATHS_ALIAS and wrappers): never `plain`. */
const SPECIAL = /^(sp_runtime::generic::era::Era|sp_runtime::multiaddress::MultiAddress|.*AccountId20|.*EthereumAddress|.*::vote::Vote|.*_identity::types::Data|.*_identity::types::BitFlags|sp_core::Opaque.*|sp_core::offchain::OpaqueMultiaddr|primitive_types::.*|sp_arithmetic::per_things::.*|.*_runtime::Runtime(Call|Event)|ink.*|(.*::)?(BTreeMap|BTreeSet|BoundedBTreeMap|BoundedBTreeSet|Range|RangeInclusive|WrapperOpaque|WrapperKeepOpaque|Cow|Result))$/;

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

export class TypeCodecs {
  private readonly skips: Skip[] = [];
  private readonly plains = new Map<number, Plain | null>();

  /**
   * `codec(id, bytes, acc, depth)`: a value of a type with no plain decoder of its own, by a
   * polkadot-js codec of that type alone (events.ts) — a field, not the whole event.
   */
  constructor(
    private readonly lookup: PortableRegistry,
    private readonly codec?: (id: number, bytes: Uint8Array, acc: Accounts, depth: number) => unknown,
  ) {}

  /** The decoder of a type: its own plain one, else its polkadot-js codec's value. */
  value(id: number): Plain {
    const own = this.plain(id);
    if (own || !this.codec) return own ?? (() => { throw new ScaleError(`type ${id} has no decoder`); });
    const skip = this.skip(id);
    const codec = this.codec;
    return (r, acc, depth) => {
      const from = r.pos;
      skip(r);
      return codec(id, r.u8a.subarray(from, r.pos), acc, depth);
    };
  }

  private type(id: number): SiType {
    return this.lookup.getSiType(id);
  }

  skip(id: number): Skip {
    // Lazy per id: recursive types (a location's junctions) resolve on first use.
    return (this.skips[id] ??= (r) => (this.skips[id] = this.buildSkip(id))(r));
  }

  private buildSkip(id: number): Skip {
    const def = this.type(id).def;
    if (def.isPrimitive) {
      const p = def.asPrimitive.type;
      if (p === "Str") return (r) => void r.take(r.length());
      const n = PRIMITIVE_BYTES[p]!;
      return (r) => void r.take(n);
    }
    if (def.isCompact) return (r) => void r.compact();
    if (def.isComposite) {
      const fields = def.asComposite.fields.map((f) => this.skip(f.type.toNumber()));
      return (r) => fields.forEach((s) => s(r));
    }
    if (def.isTuple) {
      const items = def.asTuple.map((t) => this.skip(t.toNumber()));
      return (r) => items.forEach((s) => s(r));
    }
    if (def.isVariant) {
      const variants = new Map(def.asVariant.variants.map((v) => [v.index.toNumber(), v.fields.map((f) => this.skip(f.type.toNumber()))]));
      return (r) => {
        const tag = r.byte();
        const fields = variants.get(tag);
        if (!fields) throw new ScaleError(`variant ${tag} of type ${id} does not exist`);
        fields.forEach((s) => s(r));
      };
    }
    if (def.isSequence) {
      const item = this.skip(def.asSequence.type.toNumber());
      const bytes = this.fixedSize(def.asSequence.type.toNumber());
      return (r) => {
        const n = r.length();
        if (bytes !== undefined) r.take(n * bytes);
        else for (let i = 0; i < n; i++) item(r);
      };
    }
    if (def.isArray) {
      const len = def.asArray.len.toNumber();
      const item = this.skip(def.asArray.type.toNumber());
      const bytes = this.fixedSize(def.asArray.type.toNumber());
      return (r) => {
        if (bytes !== undefined) r.take(len * bytes);
        else for (let i = 0; i < len; i++) item(r);
      };
    }
    if (def.isBitSequence) return (r) => void r.take(Math.ceil(r.length() / 8));
    throw new ScaleError(`type ${id} has a definition this decoder does not know`);
  }

  /** The byte size of a type every value of which has the same size (primitive numbers, arrays of them). */
  private fixedSize(id: number): number | undefined {
    const def = this.type(id).def;
    if (def.isPrimitive) return def.asPrimitive.type.toString() === "Str" ? undefined : PRIMITIVE_BYTES[def.asPrimitive.type.toString()];
    if (def.isArray) {
      const item = this.fixedSize(def.asArray.type.toNumber());
      return item === undefined ? undefined : item * def.asArray.len.toNumber();
    }
    return undefined;
  }

  /** The plain decoder of a type, or null when polkadot-js gives its values a shape of their own. */
  plain(id: number): Plain | null {
    if (this.plains.has(id)) return this.plains.get(id)!;
    this.plains.set(id, null); // a recursive type is not plain
    let built: Plain | null = null;
    try {
      built = this.buildPlain(id);
    } finally {
      this.plains.set(id, built);
    }
    return built;
  }

  private isU8(id: number): boolean {
    const def = this.type(id).def;
    return def.isPrimitive && def.asPrimitive.type.toString() === "U8";
  }

  private buildPlain(id: number): Plain | null {
    const t = this.type(id);
    const path = t.path.map((p) => p.toString()).join("::");
    const def = t.def;
    if (path === "sp_core::crypto::AccountId32") {
      return (r, acc, depth) => {
        const at = r.take(32);
        const a = address(r.u8a.subarray(at, at + 32), acc.ss58);
        if (acc.set.size < MAX_ACCOUNTS && depth <= MAX_DEPTH) acc.set.add(a);
        return a;
      };
    }
    if (SPECIAL.test(path)) return null;
    if (def.isPrimitive) return this.primitive(def.asPrimitive.type.toString());
    if (def.isCompact) {
      const inner = this.type(def.asCompact.type.toNumber()).def;
      if (!inner.isPrimitive || !/^U\d+$/.test(inner.asPrimitive.type.toString())) return null;
      return (r) => r.compact().toString();
    }
    if (def.isComposite) return this.composite(id, def.asComposite.fields);
    if (def.isTuple) return def.asTuple.length === 0 ? null : this.list(def.asTuple.map((x) => x.toNumber()));
    if (def.isSequence || def.isArray) {
      const item = (def.isSequence ? def.asSequence.type : def.asArray.type).toNumber();
      if (this.isU8(item)) return null;
      const p = this.plain(item);
      if (!p) return null;
      const len = def.isArray ? def.asArray.len.toNumber() : undefined;
      return (r, acc, depth) => {
        const n = len ?? r.length();
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = p(r, acc, depth + 1);
        return out;
      };
    }
    if (def.isVariant) return this.variant(t);
    return null;
  }

  private primitive(p: string): Plain | null {
    if (p === "Bool") return (r) => r.byte() === 1;
    const bytes = PRIMITIVE_BYTES[p];
    if (bytes === undefined || p === "Char") return null;
    if (p.startsWith("U")) return (r) => r.uint(bytes).toString();
    const bits = BigInt(bytes * 8);
    return (r) => BigInt.asIntN(Number(bits), r.uint(bytes)).toString();
  }

  private composite(id: number, fields: SiType["def"]["asComposite"]["fields"]): Plain | null {
    if (fields.length === 0) return null;
    const named = fields.every((f) => f.name.isSome);
    if (!named && fields.some((f) => f.name.isSome)) return null;
    // An XCM location of any version: the hex of its bytes (events.ts isLocation).
    if (named && fields.length === 2 && fields[0]!.name.unwrap().toString() === "parents" && fields[1]!.name.unwrap().toString() === "interior") {
      const skip = this.skip(id);
      return (r) => {
        const from = r.pos;
        skip(r);
        return u8aToHex(r.u8a.subarray(from, r.pos));
      };
    }
    // polkadot-js flattens a single unnamed field into its type (a newtype).
    if (!named && fields.length === 1) return this.plain(fields[0]!.type.toNumber());
    if (!named) return this.list(fields.map((f) => f.type.toNumber()));
    const keys = fields.map((f) => this.lookup.sanitizeField(f.name)[0]!);
    const plains = fields.map((f) => this.plain(f.type.toNumber()));
    if (plains.some((p) => !p)) return null;
    return (r, acc, depth) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) out[keys[i]!] = plains[i]!(r, acc, depth + 1);
      return out;
    };
  }

  private list(ids: number[]): Plain | null {
    const plains = ids.map((x) => this.plain(x));
    if (plains.some((p) => !p)) return null;
    return (r, acc, depth) => plains.map((p) => p!(r, acc, depth + 1));
  }

  /** Option<T> as null or T; an enum of field-less variants as its variant's name; other enums are not plain. */
  private variant(t: SiType): Plain | null {
    const variants = t.def.asVariant.variants;
    if (t.path.length === 1 && t.path[0]!.toString() === "Option") {
      const some = variants.find((v) => v.name.toString() === "Some")?.fields[0];
      if (!some || this.type(some.type.toNumber()).def.isPrimitive && this.type(some.type.toNumber()).def.asPrimitive.type.toString() === "Bool") return null;
      const p = this.plain(some.type.toNumber());
      if (!p) return null;
      return (r, acc, depth) => (r.byte() === 0 ? null : p(r, acc, depth + 1));
    }
    if (variants.length === 0 || variants.some((v) => v.fields.length > 0)) return null;
    const names = new Map(variants.map((v) => [v.index.toNumber(), v.name.toString()]));
    return (r) => {
      const tag = r.byte();
      const name = names.get(tag);
      if (name === undefined) throw new ScaleError(`variant ${tag} does not exist`);
      return name;
    };
  }
}
