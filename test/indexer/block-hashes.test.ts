/**
 * A backfill asks the hashes of the blocks ahead in one chain_getBlockHash call (ChainNode
 * hashesAt): sc-rpc and chopsticks take a list. A node that does not is asked block by block.
 */
import type { ApiPromise } from "@polkadot/api";
import { TypeRegistry } from "@polkadot/types";
import { describe, expect, it } from "vitest";
import { ChainNode } from "../../indexer/chain/node.js";

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const ZERO = `0x${"0".repeat(64)}`;

/** A node of blocks 0..10; `lists`: how it answers a list of numbers. */
function nodeOver(lists: "list" | "null" | "error") {
  const calls: unknown[] = [];
  const one = (n: number) => (n <= 10 ? hash(n) : n === 11 ? ZERO : null);
  const send = async (method: string, params: unknown[]) => {
    expect(method).toBe("chain_getBlockHash");
    calls.push(params[0]);
    const [p] = params;
    if (!Array.isArray(p)) return one(p as number);
    if (lists === "error") throw new Error("Invalid params");
    return lists === "list" ? p.map(one) : null;
  };
  const api = { registry: new TypeRegistry(), genesisHash: { toHex: () => "0x00" }, runtimeVersion: { specName: { toString: () => "test" } }, _rpcCore: { provider: { send } } } as unknown as ApiPromise;
  return { node: new ChainNode(api), calls };
}

describe("the hashes of blocks ahead", () => {
  it("are one call for a node that takes a list; a block the chain does not have yet is undefined", async () => {
    const { node, calls } = nodeOver("list");
    expect(await node.hashesAt([9, 10, 11, 12])).toEqual([hash(9), hash(10), undefined, undefined]);
    expect(calls).toEqual([[9, 10, 11, 12]]);
  });

  for (const answer of ["null", "error"] as const) {
    it(`are asked block by block, from then on, of a node that answers a list with ${answer === "null" ? "something else" : "an error"}`, async () => {
      const { node, calls } = nodeOver(answer);
      expect(await node.hashesAt([3, 4])).toEqual([hash(3), hash(4)]);
      expect(await node.hashesAt([5, 6])).toEqual([hash(5), hash(6)]);
      expect(calls).toEqual([[3, 4], 3, 4, 5, 6]);
    });
  }
});
