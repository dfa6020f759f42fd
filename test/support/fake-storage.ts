/**
 * Storage keys and values of a runtime, SCALE-encoded with that runtime's own types (its
 * metadata's storage entries), and the answers a node derives from a runtime's code:
 * `state_getRuntimeVersion`, `state_getMetadata` and the `Core_version` / `Metadata_*` calls.
 * No wasm: the fake node (fake-node.ts) looks these up by which runtime's code is in a block's state.
 */
import { expandMetadata } from "@polkadot/types";
import type { EventRecord } from "@polkadot/types/interfaces";
import { compactAddLength, compactStripLength, compactToU8a, hexToU8a, stringToHex, u8aConcat, u8aToHex } from "@polkadot/util";
import type { Runtime } from "./runtimes.js";

/** The well-known key of the runtime's code (`:code`). */
export const CODE_KEY = stringToHex(":code");

type StorageFn = ((...args: unknown[]) => Uint8Array) & {
  meta: { type: { isMap: boolean; asMap: { value: { toNumber(): number } }; asPlain: { toNumber(): number } } };
};

/** The answer of state_getRuntimeVersion (and the fields Core_version encodes). */
export interface VersionJson {
  specName: string;
  implName: string;
  authoringVersion: number;
  specVersion: number;
  implVersion: number;
  apis: [string, number][];
  transactionVersion: number;
  stateVersion: number;
}

export class RuntimeCodec {
  private readonly query: Record<string, Record<string, StorageFn>>;
  private metadataHexCache: string | undefined;

  /** `code`: the bytes this runtime's `:code` holds (a stand-in: nothing executes it). */
  constructor(
    readonly runtime: Runtime,
    readonly version: VersionJson,
    readonly code: string,
  ) {
    this.query = expandMetadata(runtime.registry, runtime.metadata).query as unknown as Record<string, Record<string, StorageFn>>;
  }

  private entry(section: string, method: string): StorageFn {
    const fn = this.query[section]?.[method];
    if (!fn) throw new Error(`${this.version.specVersion}: no storage ${section}.${method}`);
    return fn;
  }

  /** The storage key of `section.method` at `args` (a double map takes two). */
  key(section: string, method: string, ...args: unknown[]): string {
    const fn = this.entry(section, method);
    return u8aToHex(compactStripLength(args.length === 0 ? fn() : fn(...args))[1]);
  }

  /** `value` encoded as the entry's value type. */
  value(section: string, method: string, value: unknown): string {
    const { type } = this.entry(section, method).meta;
    const id = type.isMap ? type.asMap.value.toNumber() : type.asPlain.toNumber();
    const registry = this.runtime.registry;
    // toU8a, not toHex: an integer's toHex is its big-endian number, not its SCALE bytes.
    return u8aToHex(registry.createType(registry.createLookupType(id), value).toU8a());
  }

  /** System.Events: Vec<EventRecord>, each phase, event and (no) topics. */
  events(records: EventRecord[]): string {
    const parts = records.map((r) => u8aConcat(r.phase.toU8a(), r.event.toU8a(), compactToU8a(0)));
    return u8aToHex(u8aConcat(compactToU8a(records.length), ...parts));
  }

  /** The metadata (magic number and version included), as state_getMetadata answers it. */
  metadataHex(): string {
    return (this.metadataHexCache ??= this.runtime.metadata.toHex());
  }

  /** A runtime call executed by this runtime's code, or undefined for one it does not fake. */
  call(method: string, data: string): string | undefined {
    const registry = this.runtime.registry;
    switch (method) {
      case "Core_version":
        return u8aToHex(registry.createType("RuntimeVersion", this.version).toU8a());
      case "Metadata_metadata_versions":
        return u8aToHex(registry.createType("Vec<u32>", [14, 15]).toU8a());
      case "Metadata_metadata_at_version": {
        const wanted = registry.createType("u32", hexToU8a(data)).toNumber();
        if (wanted !== 15) return "0x00";
        return u8aToHex(u8aConcat(new Uint8Array([1]), compactAddLength(this.runtime.metadata.toU8a())));
      }
      case "Metadata_metadata":
        return u8aToHex(compactAddLength(this.runtime.metadata.toU8a()));
      default:
        return undefined;
    }
  }
}
