/**
 * Decoders of polkadot-js' toPrimitive() shapes, generated from a runtime's metadata: the value
 * events.ts `plain` gives a field that is an enum with data (Staking.Rewarded's payee, an XCM
 * message's origin, a hold's reason) is that enum's toPrimitive(), and so are the values inside it.
 */
import type { PortableRegistry } from "@polkadot/types";
import type { SiType } from "@polkadot/types/interfaces";
import { stringCamelCase } from "@polkadot/util";
import { address, MAX_ACCOUNTS, MAX_DEPTH, PRIMITIVE_BYTES, ScaleError, SPECIAL, type Plain } from "./scale-reader.js";

export class PrimitiveCodecs {
  private readonly prims = new Map<number, Plain | null>();

  /** `registrySs58`: the prefix polkadot-js' own toPrimitive writes accounts in (its registry's). */
  constructor(
    protected readonly lookup: PortableRegistry,
    private readonly registrySs58: number,
  ) {}

  protected type(id: number): SiType {
    return this.lookup.getSiType(id);
  }

  protected isU8(id: number): boolean {
    const def = this.type(id).def;
    return def.isPrimitive && def.asPrimitive.type.toString() === "U8";
  }

  protected enumValue(t: SiType, inner: (id: number) => Plain | null): Plain | null {
    const variants = t.def.asVariant.variants;
    if (variants.length === 0) return null;
    const basic = variants.every((v) => v.fields.length === 0);
    const byTag = new Map<number, Plain>();
    for (const v of variants) {
      const name = v.name.toString();
      const key = stringCamelCase(name);
      const fields = v.fields;
      if (basic) {
        byTag.set(v.index.toNumber(), () => name);
        continue;
      }
      if (fields.length === 0) {
        byTag.set(v.index.toNumber(), () => ({ [key]: null }));
        continue;
      }
      const values = fields.map((f) => inner(f.type.toNumber()));
      if (values.some((x) => !x)) return null;
      const named = fields.every((f) => f.name.isSome);
      if (!named && fields.some((f) => f.name.isSome)) return null;
      if (fields.length === 1 && !named) {
        const only = values[0]!;
        byTag.set(v.index.toNumber(), (r, acc, depth) => ({ [key]: only(r, acc, depth + 1) }));
      } else if (!named) {
        byTag.set(v.index.toNumber(), (r, acc, depth) => ({ [key]: values.map((x) => x!(r, acc, depth + 2)) }));
      } else {
        const keys = fields.map((f) => this.lookup.sanitizeField(f.name)[0]!);
        byTag.set(v.index.toNumber(), (r, acc, depth) => {
          const out: Record<string, unknown> = {};
          for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i]!(r, acc, depth + 2);
          return { [key]: out };
        });
      }
    }
    return (r, acc, depth) => {
      const tag = r.byte();
      const decode = byTag.get(tag);
      if (!decode) throw new ScaleError(`variant ${tag} does not exist`);
      return decode(r, acc, depth);
    };
  }

  /** The decoder of a type's toPrimitive() value (inside an enum), or null where it is not simple. */
  prim(id: number): Plain | null {
    if (this.prims.has(id)) return this.prims.get(id)!;
    this.prims.set(id, null);
    let built: Plain | null = null;
    try {
      built = this.buildPrim(id);
    } finally {
      this.prims.set(id, built);
    }
    return built;
  }

  private buildPrim(id: number): Plain | null {
    const t = this.type(id);
    const path = t.path.map((p) => p.toString()).join("::");
    const def = t.def;
    if (path === "sp_core::crypto::AccountId32") {
      const ss58 = this.registrySs58;
      return (r, acc, depth) => {
        const at = r.take(32);
        const bytes = r.u8a.subarray(at, at + 32);
        if (acc.set.size < MAX_ACCOUNTS && depth <= MAX_DEPTH) acc.set.add(address(bytes, acc.ss58));
        return address(bytes, ss58);
      };
    }
    if (SPECIAL.test(path)) return null;
    // An integer's toPrimitive: a number up to 52 bits, its decimal string above.
    const int = (v: bigint) => ((v < 0n ? -v : v) >= 1n << 52n ? v.toString() : Number(v));
    if (def.isPrimitive) {
      const p = def.asPrimitive.type.toString();
      if (p === "Bool") return (r) => r.byte() === 1;
      const bytes = PRIMITIVE_BYTES[p];
      if (bytes === undefined || p === "Char") return null;
      return p.startsWith("U") ? (r) => int(r.uint(bytes)) : (r) => int(BigInt.asIntN(bytes * 8, r.uint(bytes)));
    }
    if (def.isCompact) {
      const inner = this.type(def.asCompact.type.toNumber()).def;
      return inner.isPrimitive && /^U\d+$/.test(inner.asPrimitive.type.toString()) ? (r) => int(r.compact()) : null;
    }
    if (def.isComposite) {
      const fields = def.asComposite.fields;
      if (fields.length === 0) return null;
      const named = fields.every((f) => f.name.isSome);
      if (!named && fields.some((f) => f.name.isSome)) return null;
      if (named && fields.length === 2 && fields[0]!.name.unwrap().toString() === "parents") return null; // a location: JSON of its own
      if (!named && fields.length === 1) return this.prim(fields[0]!.type.toNumber());
      const values = fields.map((f) => this.prim(f.type.toNumber()));
      if (values.some((x) => !x)) return null;
      if (!named) return (r, acc, depth) => values.map((x) => x!(r, acc, depth + 1));
      const keys = fields.map((f) => this.lookup.sanitizeField(f.name)[0]!);
      return (r, acc, depth) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i]!(r, acc, depth + 1);
        return out;
      };
    }
    if (def.isTuple || def.isSequence || def.isArray) {
      const items = def.isTuple ? def.asTuple.map((x) => x.toNumber()) : [(def.isSequence ? def.asSequence.type : def.asArray.type).toNumber()];
      if (items.length === 0 || (!def.isTuple && this.isU8(items[0]!))) return null;
      const values = items.map((x) => this.prim(x));
      if (values.some((x) => !x)) return null;
      if (def.isTuple) return (r, acc, depth) => values.map((x) => x!(r, acc, depth + 1));
      const len = def.isArray ? def.asArray.len.toNumber() : undefined;
      return (r, acc, depth) => {
        const n = len ?? r.length();
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = values[0]!(r, acc, depth + 1);
        return out;
      };
    }
    if (def.isVariant) {
      if (t.path.length === 1 && t.path[0]!.toString() === "Option") {
        const some = def.asVariant.variants.find((v) => v.name.toString() === "Some")?.fields[0];
        const inner = some && !this.fixedBool(some.type.toNumber()) ? this.prim(some.type.toNumber()) : null;
        return inner && ((r, acc, depth) => (r.byte() === 0 ? null : inner(r, acc, depth + 1)));
      }
      return this.enumValue(t, (x) => this.prim(x));
    }
    return null;
  }

  private fixedBool(id: number): boolean {
    const def = this.type(id).def;
    return def.isPrimitive && def.asPrimitive.type.toString() === "Bool";
  }
}
