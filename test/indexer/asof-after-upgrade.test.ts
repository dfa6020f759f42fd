/**
 * A runtime upgrade's migration changes a balance without an event at its first block U; the
 * verification pass it owes repairs the current row at the checkpoint R the pass reached. Its
 * balance history must hold the value read at U too: without it history kept the old value for
 * U … R−1, served as exact once the pass was done (FRANK's 5 PINK as of blocks 22–29, where the
 * chain has none; on a real chain a pass is minutes, tens of blocks at least).
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { encodeAddress } from "@polkadot/util-crypto";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { UPGRADE_SWEEP_TASK } from "../../indexer/sweep.js";
import { resolveAsOf } from "../../api/services/as-of.js";
import { loadConfig } from "../../shared/config.js";
import { balanceAt, getTask } from "../../db/index.js";
import { account, assetHubRuntimes, type RuntimeId } from "../support/fake-chain.js";
import { ACTORS, marketChain, PINK } from "../support/fake-market.js";
import { startFakeNode, type FakeNode } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { captureLog } from "../support/log.js";
import { describeDb, oneStore } from "../support/db.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const HEAD = 30;
const UPGRADE = 21;
const FIRST = UPGRADE + 1;
const DOT = 10_000_000_000n;
const FRANK = account("frank");

let runtimes: Record<RuntimeId, RuntimeCodec>;
beforeAll(async () => {
  runtimes = await assetHubRuntimes();
});

const open: { node?: FakeNode; follower?: Follower }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) {
    await o.follower?.stop();
    await o.node?.close();
  }
});

describeDb("as-of answers after an upgrade's verification pass", (ctx) => {
  it("a balance B's migration removed at its first block: as of every block from it on, 0 (the chain's), or refused", async () => {
    const c = marketChain(runtimes, {
      blocks: HEAD,
      upgradeAt: UPGRADE,
      extra: (n, b) => {
        if (n === 1) b.assetTransfer(PINK, ACTORS.alice, FRANK, 5n * DOT);
        if (n === FIRST) b.state.mustAsset(PINK).balances.delete(FRANK);
      },
    });
    const node = await startFakeNode(c, { finalized: 5 });
    open.push({ node });
    // A slow pass (a page of 2 entries, 20 a second): the follower reaches the head before it ends.
    const follower = new Follower(ctx.db, { oracle: oracleSettings(config), batchBlocks: 4, logger: captureLog().logger, nativeTokenId: 0, wsUrl: node.url, historyHours: 0, retryMs: 50, heartbeatMs: 1_000, sweepReadsPerSecond: 20, sweepPageSize: 2 });
    open.push({ follower });
    follower.start();
    await until("the bootstrap at block 5", () => follower.status.block === 5, 20_000);
    node.finalize(HEAD);
    await until("the head, and the upgrade's pass done", async () => follower.status.block === HEAD && (await getTask(ctx.db, UPGRADE_SWEEP_TASK)) === undefined && follower.status.sweep.passes > 0, 30_000);
    const frank = encodeAddress(FRANK, 0);
    for (const block of [FIRST, 25, HEAD - 1]) {
      const served = await resolveAsOf(ctx.db, { at: block }, "holders").then(
        () => true,
        () => false,
      );
      if (served) expect((await balanceAt(ctx.db, false, PINK, frank, block))?.balance ?? "0", `FRANK's PINK as of block ${block}`).toBe("0");
    }
  });
}, oneStore("pglite"));
