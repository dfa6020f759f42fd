/**
 * The plan of `tokenpool backfill --all` on the fake Polkadot Asset Hub node (statemint A, B from
 * block 22, C from block 36): the range it picks, chunks cut at both upgrades and taken newest
 * first, found in a handful of version reads, and history that grows backward from the
 * follower's without a hole as the chunks commit.
 */
import type { ApiPromise } from "@polkadot/api";
import { TypeRegistry } from "@polkadot/types";
import { hexToU8a, u8aToHex } from "@polkadot/util";
import { beforeAll, expect, it } from "vitest";
import { historyCoverage, recordEventRanges, setCheckpoint } from "../../db/index.js";
import { checkRange, runLocal, type BackfillOptions, type BlockRange } from "../../indexer/backfill.js";
import { checkDecodable, coveredChunks, planChunks, resolveRange, runtimeSegments } from "../../indexer/backfill-plan.js";
import { connect } from "../../indexer/chain/connect.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { historyRows } from "../support/chain-history.js";
import { describeDb, oneStore } from "../support/db.js";
import { assetHubRuntimes, type FakeChain } from "../support/fake-chain.js";
import { marketChain } from "../support/fake-market.js";
import { startFakeNode } from "../support/fake-node.js";
import { startRpcRelay } from "../support/rpc-relay.js";
import { captureLog } from "../support/log.js";

const HEAD = 50;
const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });

let chain: FakeChain;
beforeAll(async () => {
  chain = marketChain(await assetHubRuntimes(), { blocks: HEAD, upgradeAt: 21, secondUpgradeAt: 35 });
});

describeDb("the plan of a whole-chain backfill", (ctx) => {
  it("--all on a store without a follower runs from block 1 to the finalized head, in chunks cut at both upgrades, newest first, in a handful of version reads", async () => {
    const node = await startFakeNode(chain, { finalized: HEAD });
    const relay = await startRpcRelay(node.url);
    const api = await connect(relay.url);
    try {
      const range = await resolveRange(ctx.db, api, { all: true });
      expect(range).toEqual({ from: 1, to: HEAD, toSource: "finalized" });
      relay.calls.clear();
      const { segments, reads } = await runtimeSegments(api, range);
      // A version read is a hash and a version, nothing more (no metadata, no header).
      expect(Object.fromEntries(relay.calls)).toEqual({ chain_getBlockHash: reads, state_getRuntimeVersion: reads });
      expect(segments.map((s) => [s.from, s.to, s.specVersion])).toEqual([
        [1, 21, 2_000_000],
        [22, 35, 2_003_001],
        [36, 50, segments[2]!.specVersion],
      ]);
      expect(segments[2]!.specVersion).toBeGreaterThan(2_003_001);
      // Two bisections over 50 blocks: about log2(50) ≈ 6 reads each, plus both ends.
      expect(reads).toBeLessThanOrEqual(16);
      await expect(checkDecodable(api, segments)).resolves.toBeUndefined();
      expect(planChunks(segments, 10)).toEqual([
        { from: 46, to: 50 },
        { from: 36, to: 45 },
        { from: 32, to: 35 },
        { from: 22, to: 31 },
        { from: 21, to: 21 },
        { from: 11, to: 20 },
        { from: 1, to: 10 },
      ]);
    } finally {
      await api.disconnect();
      await relay.close();
      await node.close();
    }
  });

  it("--all ends at the follower's checkpoint when there is one, --from alone too; past it is refused", async () => {
    const node = await startFakeNode(chain, { finalized: HEAD });
    const api = await connect(node.url);
    try {
      const hash = (await api.rpc.chain.getBlockHash(40)).toHex();
      await setCheckpoint(ctx.db, { blockNumber: 40, blockHash: hash, chainFinalized: HEAD });
      expect(await resolveRange(ctx.db, api, { all: true })).toEqual({ from: 1, to: 40, toSource: "checkpoint" });
      expect(await resolveRange(ctx.db, api, { from: 7 })).toEqual({ from: 7, to: 40, toSource: "checkpoint" });
      await expect(resolveRange(ctx.db, api, {})).rejects.toThrow(/give --from <block> \(with or without --to\), or --all/);
      await expect(resolveRange(ctx.db, api, { all: true, from: 3 })).rejects.toThrow(/--all is --from 1/);
      await expect(checkRange(ctx.db, api, await resolveRange(ctx.db, api, { from: 1, to: 45 }))).rejects.toThrow(/above the follower's checkpoint \(40\)/);
    } finally {
      await api.disconnect();
      await node.close();
    }
  });

  it("a node that no longer has the state of the range's first blocks (pruned) is refused before anything is written, saying an archive node is needed", async () => {
    const node = await startFakeNode(chain, { finalized: HEAD });
    const relay = await startRpcRelay(node.url);
    const api = await connect(relay.url);
    try {
      for (let n = 0; n < 30; n++) relay.discarded.add((await api.rpc.chain.getBlockHash(n)).toHex());
      const range = await resolveRange(ctx.db, api, { all: true });
      await expect(runtimeSegments(api, range)).rejects.toThrow(/^the node at WS_URL no longer has the state of block 0 \(.*State already discarded.*\): .*point WS_URL at an archive node$/);
      expect((await runtimeSegments(api, { from: 31, to: HEAD })).segments.map((s) => s.from)).toEqual([31, 36]);
    } finally {
      await api.disconnect();
      await relay.close();
      await node.close();
    }
  });

  it("newest first on one worker, history grows backward from the follower's without a gap: after each chunk it starts at that chunk's first block, with no gaps", async () => {
    const node = await startFakeNode(chain, { finalized: HEAD });
    const api = await connect(node.url);
    const options: BackfillOptions = { oracle: oracleSettings(config), nativeTokenId: 0, batchBlocks: 3, logger: captureLog().logger };
    try {
      // The follower's history: blocks 41–50.
      await recordEventRanges(ctx.db, [{ fromBlock: 41, toBlock: HEAD }]);
      const range: BlockRange = { from: 1, to: 40 };
      const chunks = planChunks((await runtimeSegments(api, range)).segments, 8);
      expect(await coveredChunks(ctx.db, chunks)).toEqual(new Set());
      const seen: string[] = [];
      const expected: string[] = [];
      let check = Promise.resolve();
      await runLocal({
        db: ctx.db,
        wsUrl: node.url,
        chunks,
        workers: 1,
        options,
        onBlocks: () => {},
        onChunk: (c) => {
          expected.push(`${c.from}: 0 gaps`);
          check = check.then(async () => {
            const cov = await historyCoverage(ctx.db);
            seen.push(`${cov.historyFrom}: ${cov.gaps} gaps`);
          });
        },
      });
      await check;
      expect(seen).toEqual(expected);
      expect(seen.at(-1)).toBe("1: 0 gaps");
      expect(await coveredChunks(ctx.db, chunks)).toEqual(new Set(chunks));
      // Every block of the range, in order.
      expect((await historyRows(ctx.db, range)).blocks.map((b) => b.number)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    } finally {
      await api.disconnect();
      await node.close();
    }
  }, 120_000);
}, oneStore("pglite"));

it("a range whose oldest runtime's metadata @polkadot/types cannot decode (v8) is refused, naming the first block it can start from", async () => {
  const { default: answer } = (await import("@polkadot/types-support/metadata/v15/asset-hub-kusama-hex")) as unknown as { default: string };
  // The file holds Metadata_metadata_at_version's answer (Option<OpaqueMetadata>); a node's state_getMetadata is the metadata itself.
  const current = u8aToHex(new TypeRegistry().createType("Option<Bytes>", hexToU8a(answer)).unwrap().toU8a(true));
  // A node whose block 0–9 states carry metadata v8 and later ones today's.
  const api = {
    rpc: {
      chain: { getBlockHash: async (n: number) => ({ toHex: () => `0x${n.toString(16).padStart(64, "0")}` }) },
      state: { getMetadata: { raw: async (hash: { toHex(): string }) => (parseInt(hash.toHex(), 16) < 10 ? "0x6d6574610800" : current) } },
    },
  } as unknown as ApiPromise;
  const segments = [
    { from: 1, to: 10, specName: "statemine", specVersion: 1 },
    { from: 11, to: 20, specName: "statemine", specVersion: 2 },
  ];
  await expect(checkDecodable(api, segments)).rejects.toThrow(/^blocks 1–10 were executed by statemine 1, whose metadata cannot be decoded \(.*MetadataV8.*\); backfill from block 11 \(statemine 2\) instead$/);
  await expect(checkDecodable(api, segments.slice(1))).resolves.toBeUndefined();
});

it("chunks are cut where a partition begins (every 1,000,000 blocks), so each lies in one: the bulk path stages one partition's", () => {
  const seg = (from: number, to: number, specVersion: number) => ({ from, to, specName: "statemint", specVersion });
  const chunks = planChunks([seg(999_995, 2_000_003, 1)], 8);
  expect(chunks).toHaveLength(1 + 125_000 + 1);
  expect(chunks.slice(0, 3)).toEqual([
    { from: 2_000_000, to: 2_000_003 },
    { from: 1_999_992, to: 1_999_999 },
    { from: 1_999_984, to: 1_999_991 },
  ]);
  expect(chunks.slice(-2)).toEqual([
    { from: 1_000_000, to: 1_000_007 },
    { from: 999_995, to: 999_999 },
  ]);
  expect(chunks.every((c) => Math.floor(c.from / 1_000_000) === Math.floor(c.to / 1_000_000))).toBe(true);
  // A runtime upgrade and a partition's first block both cut.
  expect(planChunks([seg(999_998, 1_000_001, 1), seg(1_000_002, 1_000_004, 2)], 10)).toEqual([
    { from: 1_000_002, to: 1_000_004 },
    { from: 1_000_000, to: 1_000_001 },
    { from: 999_998, to: 999_999 },
  ]);
});
