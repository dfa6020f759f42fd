/**
 * SCALE decoders generated from a runtime's own metadata (its portable type registry), for the
 * hot path of a block's events: `skip` walks any type's bytes; `plain` turns a value into what
 * events.ts `plain` gives for it — integers, accounts, XCM locations, options, tuples, vectors,
 * structs and enums — without building a codec per value. A type whose polkadot-js class has a
 * shape of its own (scale-reader.ts SPECIAL: bytes, calls, per-things…) has no `plain`, and
 * `value` reads it with its polkadot-js codec alone (event-codec.ts). Built per runtime, never per
 * version number.
 *
 * Hand-written, not a library, for speed (bench/event-codecs.ts, 2026-11-27, ms a busy block):
 * polkadot-js's codecs 19–29 (and 40–47 with the walk to plain values), @polkadot-api's
 * substrate-bindings 13–17 for decoding alone, into shapes a second pass would still have to turn
 * into the indexer's values; this 1.6–3.9, values and accounts included. Correctness is held to
 * polkadot-js: each event kind's first decodes in a runtime are compared (event-codec.ts), and
 * test/indexer/event-codec.test.ts decodes Polkadot and Kusama Asset Hub events both ways.
 */
import type { PortableRegistry } from "@polkadot/types";
import type { SiType } from "@polkadot/types/interfaces";
import { u8aToHex } from "@polkadot/util";
import { PrimitiveCodecs } from "./scale-primitive.js";
import { address, MAX_ACCOUNTS, MAX_DEPTH, PRIMITIVE_BYTES, ScaleError, SPECIAL, type Accounts, type Plain, type Skip } from "./scale-reader.js";

export { address, MAX_ACCOUNTS, MAX_DEPTH, Reader, ScaleError, type Accounts, type Plain } from "./scale-reader.js";

export class TypeCodecs extends PrimitiveCodecs {
  private readonly skips: Skip[] = [];
  private readonly plains = new Map<number, Plain | null>();

  /**
   * `codec(id, bytes, acc, depth)`: a value of a type with no plain decoder of its own, by a
   * polkadot-js codec of that type alone (events.ts) — a field, not the whole event.
   */
  constructor(
    lookup: PortableRegistry,
    private readonly codec?: (id: number, bytes: Uint8Array, acc: Accounts, depth: number) => unknown,
    registrySs58 = 42,
  ) {
    super(lookup, registrySs58);
  }

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


  skip(id: number): Skip {
    const known = this.skips[id];
    if (known) return known;
    // Lazy: recursive types (a location's junctions) resolve on first use, then the table holds
    // the built one (decoders made before hold this, one call more).
    let built: Skip | undefined;
    const lazy: Skip = (r) => {
      if (!built) this.skips[id] = built = this.buildSkip(id);
      built(r);
    };
    this.skips[id] = lazy;
    return lazy;
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
    // Any other enum is its toPrimitive() in events.ts.
    return this.enumValue(t, (x) => this.prim(x));
  }

  /**
   * An enum as polkadot-js' toPrimitive gives it: a field-less one its variant's name, others
   * { variant (camelCase): its value's toPrimitive() } — `inner` decodes those values.
   */
}
