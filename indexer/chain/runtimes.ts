/**
 * The runtime that produced a block, confirmed from that block's own state, and its types.
 *
 * Block N is executed by the code in the state of its parent, and frame-executive writes
 * `System.LastRuntimeUpgrade` (spec name and version) in the first block a new code executes,
 * so the value in N's own state names the runtime that emitted N's events and wrote N's storage.
 * It is raw bytes fetched with the block (no guess from the blocks before it), decoded here by
 * hand: its layout (Compact<u32>, Text) has not changed since it was added in 2020.
 *
 * Each runtime's registry is built once from the metadata of a state that has its code (the
 * parent's, the block's own when a node answers the parent late, or the finalized head's when it
 * still runs that code and the node answers both late) and checked against the
 * version the block's state names — both the node's version there and the metadata's own
 * System.Version constant; nothing is cached by block hash, so a block can only be
 * decoded with the runtime its state confirms (polkadot-js memoizes a registry per block hash
 * for the life of a connection, which is why the indexer does not decode through api.at).
 */
import { expandMetadata, Metadata, TypeRegistry } from "@polkadot/types";
import type { ChainProperties } from "@polkadot/types/interfaces";
import { compactFromU8a, hexToU8a, u8aToString } from "@polkadot/util";
import { xxhashAsHex } from "@polkadot/util-crypto";
import { rawValues, type ChainRpc } from "./rpc.js";

export interface SpecId {
  specName: string;
  specVersion: number;
}

export interface Runtime extends SpecId {
  registry: TypeRegistry;
  metadata: Metadata;
  /** Storage entries, constants and events decorated from this runtime's metadata. */
  decorated: ReturnType<typeof expandMetadata>;
}

/** The key of System.LastRuntimeUpgrade (twox128 of the pallet and item names). */
export const LAST_UPGRADE_KEY = `${xxhashAsHex("System", 128)}${xxhashAsHex("LastRuntimeUpgrade", 128).slice(2)}`;

/** The node answered a runtime that is not the one the block's own state names: nothing is decoded. */
export class RuntimeMismatchError extends Error {
  override name = "RuntimeMismatchError";
}

const specKey = (s: SpecId) => `${s.specName}/${s.specVersion}`;

/** LastRuntimeUpgradeInfo { spec_version: Compact<u32>, spec_name: Text } from its SCALE bytes. */
export function decodeLastUpgrade(hex: string | null | undefined): SpecId | undefined {
  if (!hex || hex === "0x") return undefined;
  const bytes = hexToU8a(hex);
  const [at, version] = compactFromU8a(bytes);
  const [offset, length] = compactFromU8a(bytes.subarray(at));
  const start = at + offset;
  const end = start + length.toNumber();
  if (end !== bytes.length) throw new Error(`System.LastRuntimeUpgrade of ${bytes.length} bytes does not decode as (Compact<u32>, Text)`);
  return { specVersion: version.toNumber(), specName: u8aToString(bytes.subarray(start, end)) };
}

/** The version a runtime's metadata carries of itself (the System.Version constant), when it has one. */
function ownVersion(decorated: ReturnType<typeof expandMetadata>): SpecId | undefined {
  const version = (decorated.consts as unknown as Record<string, Record<string, { specName: { toString(): string }; specVersion: { toNumber(): number } } | undefined> | undefined>).system?.version;
  return version && { specName: version.specName.toString(), specVersion: version.specVersion.toNumber() };
}

/** How many runtimes' registries are kept (a backfill across many upgrades builds one per runtime). */
const KEEP = 4;

export class Runtimes {
  private readonly built = new Map<string, Promise<Runtime>>();

  constructor(
    private readonly rpc: ChainRpc,
    private readonly properties: ChainProperties | undefined,
  ) {}

  /**
   * The runtime that executed block `hash`, whose state names it `named` (its
   * System.LastRuntimeUpgrade; undefined on a state without one, e.g. a genesis state, when
   * the node's version of the parent state decides).
   */
  async ofBlock(hash: string, named: SpecId | undefined): Promise<Runtime> {
    // Named by the state (every block but a genesis): one build per runtime, whichever of the
    // blocks fetched ahead asks first; the parent is looked up by that build only.
    const spec = named ?? (await this.version(await this.parentOf(hash)));
    const key = specKey(spec);
    let runtime = this.built.get(key);
    if (!runtime) {
      runtime = this.parentOf(hash).then((parent) => this.build(spec, hash, parent));
      this.built.set(key, runtime);
      // A failed build (a node that answered late) is tried again by the next block that needs it.
      runtime.catch(() => this.built.get(key) === runtime && this.built.delete(key));
      while (this.built.size > KEEP) this.built.delete(this.built.keys().next().value!);
    }
    return this.touch(key, runtime);
  }

  /** The runtime whose types a state's storage has: the one that executed that block. */
  async ofState(hash: string): Promise<Runtime> {
    const [value] = await rawValues(this.rpc, [LAST_UPGRADE_KEY], hash);
    return this.ofBlock(hash, decodeLastUpgrade(value));
  }

  private touch(key: string, runtime: Promise<Runtime>): Promise<Runtime> {
    this.built.delete(key);
    this.built.set(key, runtime);
    return runtime;
  }

  private async parentOf(hash: string): Promise<string> {
    const header = await this.rpc.send<{ parentHash: string; number: string }>("chain_getHeader", [hash]);
    if (!header) throw new Error(`the node has no header for block ${hash}`);
    // The genesis block has no parent: its own state holds its code.
    return Number(header.number) === 0 ? hash : header.parentHash;
  }

  private async version(hash: string): Promise<SpecId> {
    const v = await this.rpc.send<{ specName: string; specVersion: number }>("state_getRuntimeVersion", [hash]);
    return { specName: v.specName, specVersion: Number(v.specVersion) };
  }

  /**
   * The registry of `spec` from the metadata of a state that has its code: the parent's (the
   * code that executed the block), or the block's own when the node still answers the parent
   * with the version before (its code is the same unless the block itself applied another), or
   * the finalized head's when its state still names `spec` and the node answers both late.
   */
  private async build(spec: SpecId, hash: string, parent: string): Promise<Runtime> {
    const answers: string[] = [];
    for (const source of parent === hash ? [hash] : [parent, hash]) {
      const runtime = await this.buildAt(spec, source, answers);
      if (runtime) return runtime;
    }
    // A node that answers both late for good (a cache, a backend that lags at those blocks):
    // a newer state whose own System.LastRuntimeUpgrade still names this runtime has its code
    // (or the node's version there says otherwise); the finalized head is asked once.
    const head = await this.headNaming(spec).catch(() => undefined);
    if (head && head !== hash && head !== parent) {
      const runtime = await this.buildAt(spec, head, answers);
      if (runtime) return runtime;
    }
    throw new RuntimeMismatchError(`block ${hash} was executed by ${specKey(spec)} (its System.LastRuntimeUpgrade), but the node reports ${answers.join(" and ")}: not decoding it with another runtime's types`);
  }

  /** The finalized head, when its state names `spec` as its runtime. */
  private async headNaming(spec: SpecId): Promise<string | undefined> {
    const head = await this.rpc.send<string>("chain_getFinalizedHead", []);
    const [value] = await rawValues(this.rpc, [LAST_UPGRADE_KEY], head);
    const named = decodeLastUpgrade(value);
    return named && specKey(named) === specKey(spec) ? head : undefined;
  }

  /** `spec`'s runtime from the metadata at `source`, if the node's version there and the metadata's own name it (else why not, in `answers`). */
  private async buildAt(spec: SpecId, source: string, answers: string[]): Promise<Runtime | undefined> {
    const v = await this.version(source);
    answers.push(`${specKey(v)} at ${source}`);
    if (specKey(v) !== specKey(spec)) return undefined;
    const hex = await this.rpc.send<`0x${string}`>("state_getMetadata", [source]);
    const registry = new TypeRegistry();
    const metadata = new Metadata(registry, hex);
    if (this.properties) registry.setChainProperties(this.properties);
    registry.setMetadata(metadata);
    const decorated = expandMetadata(registry, metadata);
    // A node whose metadata lags its version would give the old types the new name; where
    // they have the same sizes (AccountData's frozen/flags for miscFrozen/feeFrozen) every
    // value would still decode, wrongly. The metadata names its own runtime: it must be this.
    const own = ownVersion(decorated);
    if (own && specKey(own) !== specKey(spec)) {
      answers[answers.length - 1] += ` with the metadata of ${specKey(own)}`;
      return undefined;
    }
    return { ...spec, registry, metadata, decorated };
  }
}
