/**
 * Reads of one block made in the same turn go to the node as one state_queryStorageAt
 * (indexer/chain/rpc.ts rawValues): fewer round trips and messages per block, each caller
 * still getting its own keys' values, in its order.
 */
import { describe, expect, it } from "vitest";
import { rawValues, type ChainRpc } from "../../indexer/chain/rpc.js";

function node(fail = false) {
  const calls: { keys: string[]; hash: string }[] = [];
  const rpc: ChainRpc = {
    async send<T>(method: string, params: unknown[]): Promise<T> {
      expect(method).toBe("state_queryStorageAt");
      const [keys, hash] = params as [string[], string];
      calls.push({ keys, hash });
      if (fail) throw new Error("socket dropped");
      // A node answers the keys it has; absent ones may be left out.
      return [{ block: hash, changes: keys.filter((k) => k !== "0xabsent").map((k) => [k, `${k}${hash.slice(2)}`]) }] as T;
    },
  };
  return { rpc, calls };
}

describe("a block's storage reads", () => {
  it("made in one turn are one call per block hash, each caller getting its own values in order", async () => {
    const { rpc, calls } = node();
    const [a, b, c, d] = await Promise.all([rawValues(rpc, ["0x01", "0x02"], "0xaa"), rawValues(rpc, ["0x03", "0xabsent", "0x01"], "0xaa"), rawValues(rpc, ["0x04"], "0xbb"), rawValues(rpc, [], "0xaa")]);
    expect(a).toEqual(["0x01aa", "0x02aa"]);
    expect(b).toEqual(["0x03aa", null, "0x01aa"]);
    expect(c).toEqual(["0x04bb"]);
    expect(d).toEqual([]);
    expect(calls).toEqual([
      { keys: ["0x01", "0x02", "0x03", "0xabsent", "0x01"], hash: "0xaa" },
      { keys: ["0x04"], hash: "0xbb" },
    ]);
  });

  it("made after an answer are a call of their own", async () => {
    const { rpc, calls } = node();
    await rawValues(rpc, ["0x01"], "0xaa");
    await rawValues(rpc, ["0x02"], "0xaa");
    expect(calls).toHaveLength(2);
  });

  it("fail together when their call fails", async () => {
    const { rpc } = node(true);
    const reads = [rawValues(rpc, ["0x01"], "0xaa"), rawValues(rpc, ["0x02"], "0xaa")];
    for (const r of reads) await expect(r).rejects.toThrow("socket dropped");
  });
});
