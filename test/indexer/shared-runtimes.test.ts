/**
 * A backfill's chunks on one connection share its runtimes (ChainNode `shareRuntimes`): each
 * chunk used to build its runtime's registry and decoders again from the metadata. Other
 * readers keep their own.
 */
import type { ApiPromise } from "@polkadot/api";
import { TypeRegistry } from "@polkadot/types";
import { describe, expect, it } from "vitest";
import { ChainReader } from "../../indexer/chain/reader.js";

const connection = () =>
  ({ registry: new TypeRegistry(), genesisHash: { toHex: () => "0x00" }, runtimeVersion: { specName: { toString: () => "test" } }, _rpcCore: { provider: { send: async () => null } } }) as unknown as ApiPromise;

describe("a connection's runtimes", () => {
  it("are one for the readers that share them, per connection; a reader that does not share has its own", () => {
    const [a, b] = [connection(), connection()];
    const shared = new ChainReader(a, 0, undefined, true).runtimes;
    expect(new ChainReader(a, 0, undefined, true).runtimes).toBe(shared);
    expect(new ChainReader(b, 0, undefined, true).runtimes).not.toBe(shared);
    expect(new ChainReader(a, 0).runtimes).not.toBe(shared);
  });
});
