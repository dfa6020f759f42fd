/**
 * The events decoder generated from a runtime's metadata (indexer/chain/event-codec.ts) against
 * polkadot-js (indexer/chain/events.ts decodeEvents): the same events, field for field and
 * account for account, on today's Polkadot and Kusama Asset Hub runtimes — the bench node's
 * traffic, and the events with enums, holds and locations the indexer reads.
 */
import { expandMetadata } from "@polkadot/types";
import type { EventRecord } from "@polkadot/types/interfaces";
import { compactToU8a, u8aConcat, u8aToHex } from "@polkadot/util";
import { beforeAll, describe, expect, it } from "vitest";
import { templateEvents } from "../../bench/node/blocks.js";
import { eventCodec } from "../../indexer/chain/event-codec.js";
import { decodeEvents } from "../../indexer/chain/events.js";
import type { Runtime as IndexerRuntime } from "../../indexer/chain/runtimes.js";
import { decodeValue } from "../../indexer/chain/storage.js";
import { currentRuntime, eventRecord, LOCATIONS, type Runtime } from "../support/runtimes.js";

const ALICE = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const BOB = "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48";
const CHARLIE = `0x${"03".repeat(32)}`;

/** System.Events of `records`: Vec<EventRecord>, each phase, event and no topics. */
const encode = (records: EventRecord[]) => u8aToHex(u8aConcat(compactToU8a(records.length), ...records.map((r) => u8aConcat(r.phase.toU8a(), r.event.toU8a(), compactToU8a(0)))));

/** The indexer's Runtime of a test runtime (a fresh object: the codec is built per runtime). */
const indexerRuntime = (rt: Runtime): IndexerRuntime => ({ specName: rt.specName, specVersion: rt.specVersion, registry: rt.registry, metadata: rt.metadata, decorated: expandMetadata(rt.registry, rt.metadata) });

function both(rt: IndexerRuntime, hex: string, ss58: number) {
  const mismatches: string[] = [];
  const fast = eventCodec(rt, (kind) => mismatches.push(kind)).decode(hex, ss58);
  const records = decodeValue(rt, (rt.decorated.query as any).system.events, hex) as unknown as EventRecord[];
  return { fast, reference: decodeEvents(records, ss58), mismatches };
}

describe("events decoded from the bytes with the runtime's metadata", () => {
  let pah: Runtime;
  let kah: Runtime;
  beforeAll(async () => {
    [pah, kah] = await Promise.all([currentRuntime("asset-hub-polkadot"), currentRuntime("asset-hub-kusama", { holdEvents: true })]);
  });

  it("are polkadot-js' events, field for field and account for account, over the bench's Polkadot Asset Hub blocks (fees, transfers, XCM, swaps, staking)", () => {
    const rt = indexerRuntime(pah);
    for (let t = 0; t < 12; t++) {
      const { fast, reference, mismatches } = both(rt, encode(templateEvents(pah, t)), 0);
      expect(fast).toEqual(reference);
      expect(mismatches).toEqual([]);
    }
    // What the indexer reads is there: a swap's path of (location, amount), a fee, a staking payee.
    const [events] = [both(rt, encode(templateEvents(pah, 1)), 0).fast];
    expect(events.find((e) => e.method === "SwapExecuted")!.data.path).toEqual([[expect.stringMatching(/^0x0100$/), expect.stringMatching(/^\d+$/)], [expect.stringMatching(/^0x/), expect.stringMatching(/^\d+$/)]]);
    expect(events.find((e) => e.method === "TransactionFeePaid")!.data).toEqual({ who: expect.any(String), actualFee: expect.stringMatching(/^\d+$/), tip: "0" });
    expect(events.filter((e) => e.method === "Rewarded").some((e) => e.accounts.length === 2)).toBe(true);
  });

  it("agree on Kusama Asset Hub's holds, approvals, touches and bridged locations, enums included", () => {
    const reason = { Revive: "StorageDepositReserve" };
    const records = [
      eventRecord(kah, "balances", "TransferOnHold", { reason, source: ALICE, dest: BOB, amount: 5n }),
      eventRecord(kah, "balances", "TransferAndHold", { reason, source: BOB, dest: CHARLIE, transferred: 5n }),
      eventRecord(kah, "assets", "TransferredApproved", { assetId: 1984, owner: ALICE, delegate: BOB, destination: CHARLIE, amount: 1n }),
      eventRecord(kah, "foreignAssets", "Touched", { assetId: LOCATIONS.polkadotUsdc, who: CHARLIE, depositor: BOB }),
      eventRecord(kah, "foreignAssets", "Issued", { assetId: LOCATIONS.snowbridgeUsdc, owner: ALICE, amount: 10n ** 20n }),
      eventRecord(kah, "assetConversion", "SwapCreditExecuted", { amountIn: 1_000_000n, amountOut: 3n, path: [[LOCATIONS.asset(1984), 1_000_000n], [LOCATIONS.native, 3n]] }),
    ];
    const rt = indexerRuntime(kah);
    for (let pass = 0; pass < 3; pass++) {
      // Past the first two of a kind, only the bytes decode it: still the same.
      const { fast, reference, mismatches } = both(rt, encode(records), kah.ss58);
      expect(fast).toEqual(reference);
      expect(mismatches).toEqual([]);
    }
    expect(both(rt, encode(records), kah.ss58).fast.map((e) => e.accounts.length)).toEqual([2, 2, 3, 2, 1, 0]);
  });

  it("an empty state is no events, and bytes that are not the runtime's events fail loudly", () => {
    const rt = indexerRuntime(pah);
    const codec = eventCodec(rt);
    expect(codec.decode(null, 0)).toEqual([]);
    const hex = encode(templateEvents(pah, 3));
    expect(() => codec.decode(hex.slice(0, -2), 0)).toThrow(/Unable to decode storage system.events with statemint\/2000000/);
    expect(() => codec.decode(`${hex}00`, 0)).toThrow(/Unable to decode storage system.events/);
  });
});
