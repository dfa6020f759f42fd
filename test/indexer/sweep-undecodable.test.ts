/**
 * One balance entry of a layout no runtime had (BalanceLayoutError: a new AccountData coming with
 * an upgrade) must not stop the verification: the page is read entry by entry, the entry is an
 * error line with its key, counted as "holders.undecodable", and the pass goes on past it.
 * Before, the whole page failed on every try (every 5 s, only a warning), and the pass never ended.
 */
import { expect, it } from "vitest";
import type { ApiPromise } from "@polkadot/api";
import { ChainReader } from "../../indexer/chain/reader.js";

/** A storage key of System.Account as polkadot-js hands it over: its args and its hex. */
const key = (i: number) => ({ args: [new Uint8Array(32).fill(i)], toHex: () => `0x26aa${String(i).padStart(4, "0")}` });

it("a balance page decodes entry by entry: an undecodable one is reported with its key and the rest is read", async () => {
  const api = { registry: { getChainProperties: () => undefined, chainSS58: 2 }, genesisHash: { toHex: () => "0x00" }, runtimeVersion: { specName: "statemine" } } as unknown as ApiPromise;
  const reader = new ChainReader(api, 0);
  const good = { data: { free: 5n, reserved: 0n, frozen: 0n, flags: 0n } };
  const bad = { data: { total: 5n } }; // no free: a layout Asset Hub never had
  const entries = [
    [key(1), good],
    [key(2), bad],
    [key(3), good],
  ];
  const at = { query: { system: { account: { entriesPaged: async () => entries } }, assets: { account: undefined }, foreignAssets: undefined } };
  const page = await reader.balancePage(at as never, { map: 0, lastKey: null }, 10);
  expect(page.entries).toBe(3);
  expect(page.rows.map((r) => r.balance)).toEqual(["5", "5"]);
  expect(page.undecodable).toEqual([{ key: key(2).toHex(), reason: expect.stringMatching(/AccountData has no free/) }]);
  // The map's last page (fewer entries than asked): the next map is next.
  expect(page.next).toEqual({ map: 1, lastKey: null });
});
