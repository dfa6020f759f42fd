/**
 * The devnet's own runtimes without a node: the wasm (`:code`) of a chain spec run once for its
 * metadata (`Metadata_metadata`, through chopsticks' executor), as a TypeRegistry. Types the
 * current metadata no longer has (Rococo Asset Hub statemine 900's `miscFrozen`/`feeFrozen`, an
 * asset account's `isFrozen`) can then be encoded exactly as that runtime stored them.
 */
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { Metadata, TypeRegistry } from "@polkadot/types";
import { compactStripLength, hexToU8a } from "@polkadot/util";
import { DEFAULT_GENESIS } from "../../shared/config.js";

export type DevnetRuntimeName = "statemine-1000000" | "rococo-900";

export interface WasmRuntime {
  registry: TypeRegistry;
  metadata: Metadata;
}

/** The part of chopsticks-core used here (imported by a non-literal name: its typings retype @polkadot/api). */
interface Executor {
  runTask(task: { wasm: string; calls: [string, string[]][]; mockSignatureHost: boolean; allowUnresolvedImports: boolean; runtimeLogLevel: number }): Promise<{ Call: { result: string } } | { Error: string }>;
  destroyWorker(): Promise<void>;
}
const EXECUTOR_MODULE = "@acala-network/chopsticks-core";

async function code(name: DevnetRuntimeName): Promise<string> {
  if (name === "rococo-900") {
    const { chainSpec } = await import("@substrate/connect-known-chains/rococo_v2_2_asset_hub");
    return JSON.parse(chainSpec).genesis.raw.top["0x3a636f6465"];
  }
  return JSON.parse(gunzipSync(await readFile(DEFAULT_GENESIS)).toString("utf8")).genesis.raw.top["0x3a636f6465"];
}

const built = new Map<DevnetRuntimeName, Promise<WasmRuntime>>();

/** The runtime's registry (built once per process: ~1.5 s to compile the wasm). */
export function devnetRuntime(name: DevnetRuntimeName): Promise<WasmRuntime> {
  let runtime = built.get(name);
  if (!runtime) built.set(name, (runtime = build(name)));
  return runtime;
}

async function build(name: DevnetRuntimeName): Promise<WasmRuntime> {
  const executor = (await import(EXECUTOR_MODULE)) as Executor;
  const answer = await executor.runTask({ wasm: await code(name), calls: [["Metadata_metadata", []]], mockSignatureHost: false, allowUnresolvedImports: true, runtimeLogLevel: 0 });
  if ("Error" in answer) throw new Error(`${name}: Metadata_metadata failed: ${answer.Error}`);
  // The answer is OpaqueMetadata: the metadata's bytes behind a compact length.
  const [, bytes] = compactStripLength(hexToU8a(answer.Call.result));
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, bytes);
  registry.setMetadata(metadata);
  return { registry, metadata };
}

/** Ends the executor's worker thread (call once the file's tests are done with every runtime). */
export async function closeDevnetRuntimes(): Promise<void> {
  if (built.size === 0) return;
  const executor = (await import(EXECUTOR_MODULE)) as Executor;
  await executor.destroyWorker();
}

/** The type name of a storage item's value (a map's or a plain item's), as the registry knows it. */
export function storageValueType(runtime: { registry: TypeRegistry; metadata: Metadata }, pallet: string, item: string): string {
  const p = runtime.metadata.asLatest.pallets.find((x) => x.name.toString() === pallet);
  const entry = p?.storage.unwrap().items.find((i) => i.name.toString() === item);
  if (!entry) throw new Error(`no storage ${pallet}.${item}`);
  const type = entry.type.isMap ? entry.type.asMap.value : entry.type.asPlain;
  return runtime.registry.createLookupType(type);
}
