/**
 * A block's System.Events without a polkadot-js codec per value: the events' layout (EventRecord,
 * Phase, each pallet's event enum) comes from the runtime's own metadata, and an event whose
 * fields all have plain decoders (scale.ts) is read straight from the bytes — a fee, a transfer,
 * a swap. Any other event (an enum in a field, bytes, a call) is cut out of the block and decoded
 * by polkadot-js alone (events.ts chainEvent), so what the indexer sees is what it saw before.
 *
 * The first VERIFY times a runtime meets an event of a kind, both ways decode it: a kind whose
 * values differ in the least is left to polkadot-js from then on, and said so once.
 */
import { isDeepStrictEqual } from "node:util";
import type { Event } from "@polkadot/types/interfaces";
import type { StorageEntry } from "@polkadot/types/primitive/types";
import { hexToU8a, stringCamelCase } from "@polkadot/util";
import { chainEvent, collectAccounts, plain, type ChainEvent } from "./events.js";
import type { Runtime } from "./runtimes.js";
import { Reader, ScaleError, TypeCodecs, type Accounts, type Plain } from "./scale.js";

const VERIFY = 2;

interface Kind {
  section: string;
  method: string;
  skip: ((r: Reader) => void)[];
  /** Field decoders, when every field has one; null: polkadot-js decodes it. */
  plains: Plain[] | null;
  names: string[] | null;
  verified: number;
}

export interface EventCodec {
  decode(hex: string | null, ss58: number): ChainEvent[];
}

const codecs = new WeakMap<Runtime, EventCodec>();

/** The runtime's codec of System.Events, built the first time one of its blocks is decoded. */
export function eventCodec(runtime: Runtime, onMismatch?: (kind: string) => void): EventCodec {
  let codec = codecs.get(runtime);
  if (!codec) codecs.set(runtime, (codec = build(runtime, onMismatch)));
  return codec;
}

function build(runtime: Runtime, onMismatch: (kind: string) => void = () => {}): EventCodec {
  const { registry, metadata } = runtime;
  const lookup = registry.lookup;
  const types = new TypeCodecs(lookup, (id, bytes, acc, depth) => {
    const codec = registry.createTypeUnsafe(registry.createLookupType(id), [bytes]);
    if (codec.encodedLength !== bytes.length) throw new ScaleError(`type ${id}: ${bytes.length} bytes, ${codec.encodedLength} decoded`);
    collectAccounts(codec, acc.ss58, acc.set, depth);
    return plain(codec, acc.ss58);
  }, registry.chainSS58 ?? 42);
  const entry = (runtime.decorated.query as unknown as Record<string, Record<string, StorageEntry>>).system!.events!;
  const vecType = lookup.getSiType(entry.meta.type.asPlain).def;
  if (!vecType.isSequence) throw new ScaleError(`${runtime.specName}/${runtime.specVersion}: System.Events is not a vector`);
  const recordType = lookup.getSiType(vecType.asSequence.type).def.asComposite.fields;
  const field = (name: string) => {
    const f = recordType.find((x) => x.name.isSome && x.name.unwrap().toString() === name);
    if (!f) throw new ScaleError(`${runtime.specName}/${runtime.specVersion}: EventRecord has no ${name}`);
    return f.type.toNumber();
  };
  const phaseType = lookup.getSiType(field("phase")).def.asVariant.variants;
  const applyExtrinsic = phaseType.find((v) => v.name.toString() === "ApplyExtrinsic")!;
  const phases = new Map(phaseType.map((v) => [v.index.toNumber(), { apply: v === applyExtrinsic, skip: v.fields.map((f) => types.skip(f.type.toNumber())) }]));
  const skipTopics = types.skip(field("topics"));
  // Pallet index → its event kinds by variant index.
  const pallets = new Map<number, Map<number, Kind>>();
  for (const p of metadata.asLatest.pallets) {
    if (p.events.isNone) continue;
    const section = stringCamelCase(p.name.toString());
    const kinds = new Map<number, Kind>();
    for (const v of lookup.getSiType(p.events.unwrap().type).def.asVariant.variants) {
      const names = v.fields.map((f) => lookup.sanitizeField(f.name)[0]);
      const plains = v.fields.map((f) => types.value(f.type.toNumber()));
      kinds.set(v.index.toNumber(), {
        section,
        method: v.name.toString(),
        skip: v.fields.map((f) => types.skip(f.type.toNumber())),
        plains: plains.every((x) => x !== null) ? (plains as Plain[]) : null,
        names: names.every((n) => n !== null) ? (names as string[]) : null,
        verified: 0,
      });
    }
    pallets.set(p.index.toNumber(), kinds);
  }
  const slow = (bytes: Uint8Array, index: number, extrinsic: number | null, ss58: number): ChainEvent => {
    const event = registry.createTypeUnsafe<Event>("Event", [bytes]);
    if (event.encodedLength !== bytes.length) throw new ScaleError(`event ${index}: ${bytes.length} bytes, ${event.encodedLength} decoded`);
    return chainEvent(event, index, extrinsic, ss58);
  };

  // One set for every event of a block, emptied before each: the accounts are copied out.
  const acc: Accounts = { set: new Set(), ss58: 0 };
  const one = (r: Reader, index: number, ss58: number): ChainEvent => {
    const tag = r.byte();
    const phase = phases.get(tag);
    if (!phase) throw new ScaleError(`event ${index}: phase ${tag} does not exist`);
    const extrinsic = phase.apply ? Number(r.uint(4)) : null;
    if (!phase.apply) phase.skip.forEach((s) => s(r));
    const start = r.pos;
    const pallet = r.byte();
    const variant = r.byte();
    const kind = pallets.get(pallet)?.get(variant);
    if (!kind) throw new ScaleError(`event ${index}: pallet ${pallet} has no event ${variant}`);
    let event: ChainEvent;
    if (kind.plains) {
      acc.set.clear();
      acc.ss58 = ss58;
      const data: Record<string, unknown> = {};
      for (let i = 0; i < kind.plains.length; i++) data[kind.names?.[i] ?? String(i)] = kind.plains[i]!(r, acc, 0);
      event = { index, section: kind.section, method: kind.method, extrinsic, data, accounts: [...acc.set] };
      if (kind.verified < VERIFY) {
        kind.verified++;
        const reference = slow(r.u8a.subarray(start, r.pos), index, extrinsic, ss58);
        if (!isDeepStrictEqual(reference, event)) {
          kind.plains = null;
          onMismatch(`${kind.section}.${kind.method}`);
          event = reference;
        }
      }
    } else {
      kind.skip.forEach((s) => s(r));
      event = slow(r.u8a.subarray(start, r.pos), index, extrinsic, ss58);
    }
    skipTopics(r);
    return event;
  };

  return {
    decode(hex, ss58) {
      if (hex === null) return [];
      const r = new Reader(hexToU8a(hex));
      try {
        const n = r.length();
        const out = new Array<ChainEvent>(n);
        for (let i = 0; i < n; i++) out[i] = one(r, i, ss58);
        if (r.pos !== r.u8a.length) throw new ScaleError(`${r.u8a.length} bytes, ${r.pos} decoded`);
        return out;
      } catch (err) {
        throw new Error(`Unable to decode storage system.events with ${runtime.specName}/${runtime.specVersion}: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}
