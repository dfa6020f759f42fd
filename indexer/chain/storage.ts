/**
 * Chain storage at one block hash, decoded with one given runtime: the part of polkadot-js'
 * `api.at(hash)` the indexer uses (`query.x.y(...)`, `.multi`, `.entries`, `.keys`,
 * `.entriesPaged`, `.key`, `.keyPrefix`, `consts`), over raw JSON-RPC. Hand-written because
 * api.at chooses the registry itself, by block hash, and memoizes that choice for the life of
 * the connection (see runtimes.ts); here the caller passes the runtime confirmed for the block,
 * and every value is checked to use up exactly its bytes, so a wrong type fails loudly instead
 * of decoding into plausible numbers.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import type { StorageEntry } from "@polkadot/types/primitive/types";
import type { Codec } from "@polkadot/types/types";
import { compactStripLength, hexToU8a, u8aToHex } from "@polkadot/util";
import { rawValues, type ChainRpc } from "./rpc.js";
import type { Runtime } from "./runtimes.js";

/** The API decorated for one block hash, as the reader uses it. */
export type At = Awaited<ReturnType<ApiPromise["at"]>> & { readonly hash: string; readonly runtime: Runtime };

const PAGE = 1_000;

/** The value of `entry` from its raw bytes (null: absent), as polkadot-js would decode it, but exact. */
export function decodeValue(runtime: Runtime, entry: StorageEntry, hex: string | null): Codec {
  const { registry } = runtime;
  const { meta } = entry;
  const type = registry.createLookupType(meta.type.isPlain ? meta.type.asPlain : meta.type.asMap.value);
  const exact = (bytes: Uint8Array): Codec => {
    let value: Codec;
    try {
      value = registry.createTypeUnsafe(type, [bytes]);
    } catch (err) {
      throw new Error(`Unable to decode storage ${entry.section}.${entry.method} with ${runtime.specName}/${runtime.specVersion}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (value.encodedLength !== bytes.length) {
      throw new Error(`Unable to decode storage ${entry.section}.${entry.method} with ${runtime.specName}/${runtime.specVersion}: ${bytes.length} bytes, ${value.encodedLength} decoded`);
    }
    return value;
  };
  if (meta.modifier.isOptional) return registry.createTypeUnsafe(type, [hex === null ? undefined : exact(hexToU8a(hex))], { isOptional: true });
  if (hex === null) return registry.createTypeUnsafe(type, [hexToU8a(meta.fallback.toHex())], { isFallback: true });
  return exact(hexToU8a(hex));
}

const keys = new WeakMap<StorageEntry, Map<string, string>>();
const decoded = new WeakMap<StorageEntry, Map<string, Codec>>();

/**
 * The storage key of `entry` for `args` (hex, without the length prefix polkadot-js adds). Kept
 * per entry: a block's reads ask for the same tokens' and pools' keys as the block before.
 */
export function storageKey(entry: StorageEntry, args: unknown[]): string {
  let known = keys.get(entry);
  if (!known) keys.set(entry, (known = new Map()));
  let id: string | undefined;
  try {
    id = JSON.stringify(args);
  } catch {
    // a bigint argument: computed each time
  }
  const cached = id === undefined ? undefined : known.get(id);
  if (cached !== undefined) return cached;
  const key = u8aToHex(compactStripLength(entry(...args))[1]);
  if (id !== undefined) {
    if (known.size >= 20_000) known.clear();
    known.set(id, key);
  }
  return key;
}

/** One storage item bound to a block: callable like polkadot-js' query functions. */
function bind(rpc: ChainRpc, runtime: Runtime, hash: string, entry: StorageEntry) {
  const hashers = entry.meta.type.isMap ? entry.meta.type.asMap.hashers.length : 0;
  const decode = (hex: string | null) => decodeValue(runtime, entry, hex);
  // Point reads (a block's tokens and pools) meet the same bytes block after block — a token's
  // details and metadata — and a decoded value is only read: one codec per distinct value.
  let values = decoded.get(entry);
  if (!values) decoded.set(entry, (values = new Map()));
  const known = values;
  const decodeKnown = (hex: string | null) => {
    if (hex === null) return decode(hex);
    let v = known.get(hex);
    if (v === undefined) {
      if (known.size >= 2_000) known.clear();
      known.set(hex, (v = decode(hex)));
    }
    return v;
  };
  const prefix = (args: unknown[]) => u8aToHex(entry.keyPrefix(...args));
  const keyObject = (hex: string) => {
    const key = runtime.registry.createTypeUnsafe("StorageKey", [hex]) as unknown as { setMeta(m: unknown, s?: string, n?: string): Codec };
    return key.setMeta(entry.meta, entry.section, entry.method);
  };
  const keysPage = (args: unknown[], pageSize: number, startKey?: string) =>
    rpc.send<string[]>("state_getKeysPaged", [prefix(args), pageSize, startKey ?? prefix(args), hash]);
  const entriesPage = async (args: unknown[], pageSize: number, startKey?: string) => {
    const keys = await keysPage(args, pageSize, startKey);
    const values = keys.length > 0 ? await rawValues(rpc, keys, hash) : [];
    return keys.map((k, i) => [keyObject(k), decode(values[i]!)] as const);
  };
  const all = async <T>(page: (startKey?: string) => Promise<T[]>, last: (item: T) => string): Promise<T[]> => {
    const out: T[] = [];
    for (let startKey: string | undefined; ; ) {
      const items = await page(startKey);
      out.push(...items);
      if (items.length < PAGE) return out;
      startKey = last(items[items.length - 1]!);
    }
  };
  const fn = async (...args: unknown[]) => decodeKnown((await rawValues(rpc, [storageKey(entry, args)], hash))[0]!);
  return Object.assign(fn, {
    creator: entry,
    key: (...args: unknown[]) => storageKey(entry, args),
    keyPrefix: (...args: unknown[]) => prefix(args),
    // One argument per item for a single-key map (even a tuple key), an argument list otherwise.
    multi: async (items: unknown[]) => (await rawValues(rpc, items.map((a) => storageKey(entry, hashers === 1 ? [a] : (a as unknown[]))), hash)).map(decodeKnown),
    entriesPaged: (opts: { args?: unknown[]; pageSize: number; startKey?: string }) => entriesPage(opts.args ?? [], opts.pageSize, opts.startKey),
    entries: (...args: unknown[]) => all((s) => entriesPage(args, PAGE, s), ([k]) => k.toHex()),
    keys: (...args: unknown[]) => all(async (s) => (await keysPage(args, PAGE, s)).map(keyObject), (k) => k.toHex()),
  });
}

/**
 * Storage and constants at block `hash` with `runtime`'s types. Sections and items are bound
 * when first used; a pallet the runtime does not have is undefined, as with api.at.
 */
export function storageAt(rpc: ChainRpc, runtime: Runtime, hash: string): At {
  const query = runtime.decorated.query as unknown as Record<string, Record<string, StorageEntry>>;
  const sections = new Map<string, unknown>();
  const section = (name: string) => {
    const items = query[name];
    if (!items) return undefined;
    const bound = new Map<string, unknown>();
    return new Proxy(
      {},
      {
        get: (_, item: string) => {
          if (typeof item !== "string" || !items[item]) return undefined;
          if (!bound.has(item)) bound.set(item, bind(rpc, runtime, hash, items[item]!));
          return bound.get(item);
        },
      },
    );
  };
  const proxy = new Proxy({}, { get: (_, name: string) => (sections.has(name) ? sections.get(name) : (sections.set(name, section(name)), sections.get(name))) });
  return { hash, runtime, query: proxy, consts: runtime.decorated.consts, registry: runtime.registry, runtimeVersion: versionOf(runtime) } as unknown as At;
}

const versions = new WeakMap<Runtime, Codec>();

/** The runtime's version as api.at gives it: one codec per runtime, not one per block. */
function versionOf(runtime: Runtime): Codec {
  let v = versions.get(runtime);
  if (!v) versions.set(runtime, (v = runtime.registry.createType("RuntimeVersionPartial", { specName: runtime.specName, specVersion: runtime.specVersion })));
  return v;
}
