/**
 * A verification page that fails (a read the node refuses) is tried again after a pause; stop()
 * during that pause returns at once, not when the pause ends (a shutdown, or a reconnect after a
 * failure, waited for it).
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { assetHubRuntimes, type RuntimeId } from "../support/fake-chain.js";
import { marketChain } from "../support/fake-market.js";
import { startFakeNode, type FakeNode } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { captureLog } from "../support/log.js";
import { startRpcRelay, type RpcRelay } from "../support/rpc-relay.js";
import { describeDb, oneStore } from "../support/db.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const HEAD = 5;

let runtimes: Record<RuntimeId, RuntimeCodec>;
beforeAll(async () => {
  runtimes = await assetHubRuntimes();
});

const open: { node?: FakeNode; relay?: RpcRelay; follower?: Follower }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) {
    await o.follower?.stop();
    await o.relay?.close();
    await o.node?.close();
  }
});

describeDb("stopping while a failed verification page waits to be tried again", (ctx) => {
  it("stop() returns well before the retry pause (5 s) ends", async () => {
    const chain = marketChain(runtimes, { blocks: HEAD, upgradeAt: HEAD + 100 });
    const node = await startFakeNode(chain, { finalized: HEAD });
    open.push({ node });
    const relay = await startRpcRelay(node.url);
    open.push({ relay });
    const log = captureLog();
    const follower = new Follower(ctx.db, { oracle: oracleSettings(config), batchBlocks: 4, logger: log.logger, nativeTokenId: 0, wsUrl: relay.url, historyHours: 0, retryMs: 50, heartbeatMs: 60_000 });
    follower.start();
    await until(`the bootstrap at block ${HEAD}`, () => follower.status.block === HEAD, 20_000);
    // The session reads the checkpoint's runtime before it starts the sweep: a hash discarded
    // before that read fails the session itself (and every reconnect), not a verification page.
    await until("the sweep's first page", () => follower.status.progress.sweep !== undefined, 20_000);
    // The node no longer has the checkpoint's state: every verification page fails.
    relay.discarded.add(chain.blocks[HEAD]!.hash);
    await until("a verification page failed", () => log.text().includes("indexer: a verification page failed; trying it again"), 20_000);
    const started = Date.now();
    await follower.stop();
    expect(Date.now() - started).toBeLessThan(2_500);
  });
}, oneStore("pglite"));
