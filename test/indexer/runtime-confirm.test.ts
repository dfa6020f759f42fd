/**
 * Which runtime a block is decoded with: the one its own state names (System.LastRuntimeUpgrade),
 * with that runtime's metadata taken from a state that has its code — never a guess from the
 * blocks before it, never what a node answers when that disagrees with the block's state.
 * A scripted node (no chain) answers with today's Polkadot Asset Hub metadata before and the
 * fellows-2.3 definitions after an upgrade (test/support/runtimes.ts).
 */
import { Metadata, TypeRegistry } from "@polkadot/types";
import { compactToU8a, stringToU8a, u8aConcat, u8aToHex } from "@polkadot/util";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChainRpc } from "../../indexer/chain/rpc.js";
import { decodeLastUpgrade, LAST_UPGRADE_KEY, RuntimeMismatchError, Runtimes } from "../../indexer/chain/runtimes.js";
import { decodeValue } from "../../indexer/chain/storage.js";
import { currentRuntime, eventRecord, type Runtime as TestRuntime } from "../support/runtimes.js";

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const upgradeInfo = (specName: string, specVersion: number) => u8aToHex(u8aConcat(compactToU8a(specVersion), compactToU8a(specName.length), stringToU8a(specName)));

/** A node of blocks 0…9 whose code changes in block `applied` (from spec 2,000,000 to 2,003,001). */
function node(old: TestRuntime, next: TestRuntime, applied: number, late = 0, lateMetadata = 0) {
  const calls: string[] = [];
  const codeAt = (n: number) => (n >= applied + late ? next : old);
  const metadataAt = (n: number) => (n >= applied + lateMetadata ? codeAt(n) : old);
  const spec = (rt: TestRuntime) => (rt === next ? 2_003_001 : 2_000_000);
  const rpc: ChainRpc = {
    async send<T>(method: string, params: unknown[]): Promise<T> {
      calls.push(method);
      const n = Number(BigInt(params[params.length - 1] as string));
      if (method === "chain_getHeader") return { number: `0x${n.toString(16)}`, parentHash: hash(n - 1) } as T;
      if (method === "state_getRuntimeVersion") return { specName: "statemint", specVersion: spec(codeAt(n)) } as T;
      if (method === "state_getMetadata") return metadataAt(n).metadata.toHex() as T;
      if (method === "state_queryStorageAt") {
        // The runtime that executed block n ran from the code of n - 1.
        const executed = n > applied ? next : old;
        return [{ block: hash(n), changes: [[LAST_UPGRADE_KEY, upgradeInfo("statemint", spec(executed))]] }] as T;
      }
      throw new Error(`unexpected ${method}`);
    },
  };
  return { rpc, calls };
}

describe("the runtime of a block", () => {
  let old: TestRuntime;
  let next: TestRuntime;

  beforeAll(async () => {
    old = await currentRuntime("asset-hub-polkadot");
    next = await currentRuntime("asset-hub-polkadot", { holdEvents: true, permillLpFee: true, specVersion: 2_003_001 });
  });

  it("System.LastRuntimeUpgrade decodes as (Compact<u32>, Text), like the runtime's own type", () => {
    const registry = new TypeRegistry();
    registry.setMetadata(new Metadata(registry, old.metadata.toHex()));
    const bytes = registry.createType("FrameSystemLastRuntimeUpgradeInfo", { specVersion: 2_000_000, specName: "statemint" }).toHex();
    expect(bytes).toBe(upgradeInfo("statemint", 2_000_000));
    expect(decodeLastUpgrade(bytes)).toEqual({ specName: "statemint", specVersion: 2_000_000 });
    expect(decodeLastUpgrade(null)).toBeUndefined();
    expect(() => decodeLastUpgrade(`${bytes}00`)).toThrow(/does not decode/);
  });

  it("is the one the block's state names: the applying block decodes with the old runtime, the next with the new, whatever order they are asked in", async () => {
    const { rpc, calls } = node(old, next, 5);
    const runtimes = new Runtimes(rpc, undefined);
    // Fetched ahead: block 7 (new) is asked for before block 5 (the one that applied the code).
    const seven = await runtimes.ofState(hash(7));
    const five = await runtimes.ofState(hash(5));
    const six = await runtimes.ofState(hash(6));
    expect([five.specVersion, six.specVersion, seven.specVersion]).toEqual([2_000_000, 2_003_001, 2_003_001]);
    // The metadata of each runtime is fetched once, from a state that has its code.
    expect(calls.filter((c) => c === "state_getMetadata")).toHaveLength(2);
    expect(await runtimes.ofState(hash(9))).toBe(seven);
    // Types only the new runtime has decode with it and not with the old one.
    const record = eventRecord(next, "balances", "TransferOnHold", { reason: { Preimage: "Preimage" }, source: hash(1), dest: hash(2), amount: 5n });
    const events = next.registry.createType("Vec<EventRecord>", [record]).toHex();
    const entry = (rt: typeof seven) => (rt.decorated.query as any).system.events;
    expect((decodeValue(seven, entry(seven), events) as any)[0].event.method).toBe("TransferOnHold");
    expect(() => decodeValue(five, entry(five), events)).toThrow(/Unable to decode storage system.events with statemint\/2000000/);
    // The LP fee constant of each runtime, in its own type.
    expect([(five.decorated.consts as any).assetConversion.lpFee.toRawType(), (seven.decorated.consts as any).assetConversion.lpFee.toRawType()]).toEqual(["u32", "Permill"]);
  });

  it("a node that answers the new version one block late: the block's own state decides, the metadata comes from a state that has that code", async () => {
    const { rpc } = node(old, next, 5, 1);
    const runtimes = new Runtimes(rpc, undefined);
    const six = await runtimes.ofState(hash(6));
    expect(six.specVersion).toBe(2_003_001);
    expect((six.decorated.consts as any).assetConversion.lpFee.toRawType()).toBe("Permill");
  });

  it("a node whose metadata lags its version: the metadata's own System.Version must name the block's runtime, else the next state is asked, else nothing is decoded", async () => {
    // The version at 5 (the parent) is new, its metadata still the old one; at 6 both are new.
    const behind = node(old, next, 5, 0, 1);
    const six = await new Runtimes(behind.rpc, undefined).ofState(hash(6));
    expect(six.specVersion).toBe(2_003_001);
    expect((six.decorated.consts as any).assetConversion.lpFee.toRawType()).toBe("Permill");
    expect(behind.calls.filter((c) => c === "state_getMetadata")).toHaveLength(2);
    // Old metadata at both: refused (the old types under the new name could decode, wrongly).
    const lagging = new Runtimes(node(old, next, 5, 0, 2).rpc, undefined);
    await expect(lagging.ofState(hash(6))).rejects.toThrow(/executed by statemint\/2003001 .* reports statemint\/2003001 at 0x0+5 with the metadata of statemint\/2000000 and statemint\/2003001 at 0x0+6 with the metadata of statemint\/2000000/);
  });

  it("a node whose answers never match the block's state: nothing is decoded, and the next ask tries again", async () => {
    const { rpc } = node(old, next, 5, 3);
    const runtimes = new Runtimes(rpc, undefined);
    await expect(runtimes.ofState(hash(6))).rejects.toThrow(RuntimeMismatchError);
    await expect(runtimes.ofState(hash(6))).rejects.toThrow(/block 0x0+6 was executed by statemint\/2003001 .* but the node reports statemint\/2000000 at 0x0+5 and statemint\/2000000 at 0x0+6/);
    // Once the node catches up, the same block decodes with the right runtime.
    expect((await runtimes.ofState(hash(9))).specVersion).toBe(2_003_001);
  });
});
