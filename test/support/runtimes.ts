/**
 * Today's Asset Hub runtimes without a node: the metadata @polkadot/types-support ships
 * (Polkadot AH = statemint 2,000,000, Kusama AH = statemine 1,009,003) as a TypeRegistry, and
 * System.Events encoded exactly as those runtimes emit them, for the indexer's own decoder.
 *
 * Two things newer than that metadata can be laid over it, copied from the live runtimes'
 * metadata (statemint 2,003,001 / statemine 2,003,000, fellows 2.3): the Balances hold events
 * TransferOnHold (26) and TransferAndHold (27) that pallet-revive emits, and the LPFee constant
 * as a Permill (3000) instead of a per-mille u32 (3).
 */
import { expandMetadata, Metadata, TypeRegistry } from "@polkadot/types";
import type { EventRecord } from "@polkadot/types/interfaces";
import type { Codec } from "@polkadot/types/types";
import { compactFromU8a, hexToU8a, stringCamelCase, u8aConcat, u8aToHex } from "@polkadot/util";

export type RuntimeName = "asset-hub-polkadot" | "asset-hub-kusama";

export interface Runtime {
  registry: TypeRegistry;
  metadata: Metadata;
  specName: string;
  specVersion: number;
  ss58: number;
  consts: Record<string, Record<string, Codec>>;
}

export interface Patches {
  /** Balances.TransferOnHold / TransferAndHold, as in fellows 2.3. */
  holdEvents?: boolean;
  /** AssetConversion.LPFee as Permill 3000, as in fellows 2.3 (polkadot-sdk PR 11804). */
  permillLpFee?: boolean;
  /** System.Version's spec version (the constant a runtime's metadata carries of itself), for a runtime laid over another's metadata. */
  specVersion?: number;
}

type Json = Record<string, any>;

function patch(json: Json, patches: Patches): void {
  const v15 = json.metadata.v15;
  const types: Json[] = v15.lookup.types;
  const byPath = (path: string) => types.find((t) => t.type.path.join("::") === path || t.type.path.join("::").endsWith(`::${path}`))!;
  const pallet = (name: string) => v15.pallets.find((p: Json) => p.name === name);
  if (patches.holdEvents) {
    const variants: Json[] = types.find((t) => t.id === pallet("Balances").events.type)!.type.def.variant.variants;
    const account = types.find((t) => t.type.path.join("::") === "sp_core::crypto::AccountId32")!.id;
    const balance = variants.find((v) => v.name === "Transfer")!.fields[2].type;
    const reason = byPath("RuntimeHoldReason").id;
    const field = (name: string, type: number, typeName: string) => ({ name, type, typeName, docs: [] });
    const hold = [field("reason", reason, "T::RuntimeHoldReason"), field("source", account, "T::AccountId"), field("dest", account, "T::AccountId")];
    variants.push({ name: "TransferOnHold", fields: [...hold, field("amount", balance, "T::Balance")], index: 26, docs: [] });
    variants.push({ name: "TransferAndHold", fields: [...hold, field("transferred", balance, "T::Balance")], index: 27, docs: [] });
  }
  if (patches.permillLpFee) {
    const constant = pallet("AssetConversion").constants.find((c: Json) => c.name === "LPFee");
    constant.type = byPath("sp_arithmetic::per_things::Permill").id;
    constant.value = "0xb80b0000"; // 3000
  }
  if (patches.specVersion !== undefined) {
    const constant = pallet("System").constants.find((c: Json) => c.name === "Version");
    // RuntimeVersion { spec_name: Text, impl_name: Text, authoring_version: u32, spec_version: u32, … }
    const bytes = hexToU8a(constant.value);
    let at = 0;
    for (let text = 0; text < 2; text++) {
      const [offset, length] = compactFromU8a(bytes.subarray(at));
      at += offset + length.toNumber();
    }
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(at + 4, patches.specVersion, true);
    constant.value = u8aToHex(bytes);
  }
}

const SOURCES: Record<RuntimeName, () => Promise<[{ default: string }, { default: { specName: string; specVersion: number } }]>> = {
  "asset-hub-polkadot": () => Promise.all([import("@polkadot/types-support/metadata/v15/asset-hub-polkadot-hex"), import("@polkadot/types-support/metadata/v15/asset-hub-polkadot-ver")]),
  "asset-hub-kusama": () => Promise.all([import("@polkadot/types-support/metadata/v15/asset-hub-kusama-hex"), import("@polkadot/types-support/metadata/v15/asset-hub-kusama-ver")]),
};

const built = new Map<string, Promise<Runtime>>();

/** The runtime's registry (built once per name and patches: decoding 1 MB of metadata takes ~0.4 s). */
export function currentRuntime(name: RuntimeName, patches: Patches = {}): Promise<Runtime> {
  const key = `${name}|${!!patches.holdEvents}|${!!patches.permillLpFee}|${patches.specVersion ?? ""}`;
  let runtime = built.get(key);
  if (!runtime) built.set(key, (runtime = build(name, patches)));
  return runtime;
}

async function build(name: RuntimeName, patches: Patches): Promise<Runtime> {
  const [{ default: hex }, { default: version }] = await SOURCES[name]();
  // The file holds Metadata_metadata_at_version's answer: Option<OpaqueMetadata>.
  const scratch = new TypeRegistry();
  const raw = scratch.createType("Option<Bytes>", hexToU8a(hex)).unwrap().toU8a(true);
  let source: Uint8Array | Json = raw;
  if (patches.holdEvents || patches.permillLpFee || patches.specVersion !== undefined) {
    const json = new Metadata(scratch, raw).toJSON() as Json;
    patch(json, patches);
    source = json;
  }
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, source as Uint8Array);
  registry.setMetadata(metadata);
  const consts = expandMetadata(registry, metadata).consts as unknown as Runtime["consts"];
  return { registry, metadata, specName: version.specName, specVersion: patches.specVersion ?? version.specVersion, ss58: registry.chainSS58 ?? 42, consts };
}

/**
 * An EventRecord of `section.method` with `fields` (by camelCase name, in any form createType
 * takes: SS58 or hex accounts, XCM locations as JSON), encoded with the runtime's own types.
 */
export function eventRecord(rt: Runtime, section: string, method: string, fields: Record<string, unknown>, extrinsic = 1): EventRecord {
  const pallet = rt.metadata.asLatest.pallets.find((p) => stringCamelCase(p.name.toString()) === section);
  if (!pallet || pallet.events.isNone) throw new Error(`${rt.specName}: no events of ${section}`);
  const variant = rt.registry.lookup.getSiType(pallet.events.unwrap().type).def.asVariant.variants.find((v) => v.name.toString() === method);
  if (!variant) throw new Error(`${rt.specName}: no event ${section}.${method}`);
  const data = variant.fields.map((f) => {
    const key = stringCamelCase(f.name.unwrap().toString());
    if (!(key in fields)) throw new Error(`${section}.${method}: field ${key} missing`);
    return rt.registry.createType(rt.registry.createLookupType(f.type), fields[key]).toU8a();
  });
  const event = rt.registry.createType("Event", u8aConcat(new Uint8Array([pallet.index.toNumber(), variant.index.toNumber()]), ...data));
  const phase = rt.registry.createType("Phase", { ApplyExtrinsic: extrinsic });
  return { event, phase } as unknown as EventRecord;
}

/** XCM locations as the current runtimes spell them in JSON (v5). */
export const LOCATIONS = {
  native: { parents: 1, interior: "Here" },
  asset: (id: number) => ({ parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: id }] } }),
  /** Snowbridge USDC from Ethereum mainnet (NetworkId index 7 in every XCM version). */
  snowbridgeUsdc: { parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" } }] } },
  /** Polkadot Asset Hub's USDC 1337 as bridged to Kusama Asset Hub. */
  polkadotUsdc: { parents: 2, interior: { X4: [{ GlobalConsensus: "Polkadot" }, { Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1337 }] } },
  /** KSM on Polkadot Asset Hub. */
  ksm: { parents: 2, interior: { X1: [{ GlobalConsensus: "Kusama" }] } },
} as const;
