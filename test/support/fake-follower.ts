/**
 * A follower against a fake node (test/support/fake-node.ts) behind an RPC relay whose messages a
 * test can cut, silence or fail (test/support/rpc-relay.ts), for the suites of a follower's
 * failures and stops; what a test opened is closed after it.
 */
import { afterEach, beforeAll } from "vitest";
import type { Database } from "../../db/index.js";
import type { FollowerOptions } from "../../indexer/follower-options.js";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { assetHubRuntimes, type RuntimeId } from "./fake-chain.js";
import { marketChain } from "./fake-market.js";
import { startFakeNode } from "./fake-node.js";
import type { RuntimeCodec } from "./fake-storage.js";
import { captureLog } from "./log.js";
import { startRpcRelay } from "./rpc-relay.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });

/** Registers the suite's hooks; start() opens a chain of `blocks` finalized at `finalized`, the node, the relay and a follower (not started). */
export function fakeFollowers() {
  let runtimes: Record<RuntimeId, RuntimeCodec>;
  beforeAll(async () => {
    runtimes = await assetHubRuntimes();
  });
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return async (db: Database, opts: { blocks: number; finalized: number; follower?: Partial<FollowerOptions> }) => {
    const chain = marketChain(runtimes, { blocks: opts.blocks, upgradeAt: opts.blocks + 100 });
    const node = await startFakeNode(chain, { finalized: opts.finalized });
    closers.push(() => node.close());
    const relay = await startRpcRelay(node.url);
    closers.push(() => relay.close());
    const log = captureLog();
    const follower = new Follower(db, { oracle: oracleSettings(config), batchBlocks: 4, logger: log.logger, nativeTokenId: 0, wsUrl: relay.url, historyHours: 0, retryMs: 50, heartbeatMs: 60_000, ...opts.follower });
    closers.push(() => follower.stop());
    return { chain, node, relay, log, follower };
  };
}
