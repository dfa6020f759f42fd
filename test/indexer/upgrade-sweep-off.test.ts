/**
 * INDEXER_SWEEP_READS_PER_SECOND=0 turns the verification sweep off. A runtime upgrade then owes a
 * pass that nothing will ever run: its marker must not stand, or every as-of answer from the
 * upgrade's first block on (and every holder snapshot at the newest block) is refused for good.
 * On the fake Polkadot Asset Hub node: statemint 2,000,000 → 2,003,001 applied by block 7.
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { UPGRADE_SWEEP_TASK } from "../../indexer/sweep.js";
import { resolveAsOf } from "../../api/services/as-of.js";
import { loadConfig } from "../../shared/config.js";
import { getTask, setTask } from "../../db/index.js";
import { assetHubRuntimes, type RuntimeId } from "../support/fake-chain.js";
import { marketChain } from "../support/fake-market.js";
import { startFakeNode, type FakeNode } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { captureLog } from "../support/log.js";
import { describeDb, oneStore } from "../support/db.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const HEAD = 12;
const UPGRADE = 7;

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

function follower(db: Parameters<typeof resolveAsOf>[0], url: string) {
  const log = captureLog();
  const f = new Follower(db, { oracle: oracleSettings(config), batchBlocks: 4, logger: log.logger, nativeTokenId: 0, wsUrl: url, historyHours: 0, retryMs: 50, heartbeatMs: 1_000, sweepReadsPerSecond: 0 });
  open.push({ follower: f });
  f.start();
  return { follower: f, log };
}

describeDb("a runtime upgrade with the verification sweep off", (ctx) => {
  it("no pass is owed that nothing would run: as-of answers after the upgrade are served, and the log says its migrations go unverified", async () => {
    const node = await startFakeNode(marketChain(runtimes, { blocks: HEAD, upgradeAt: UPGRADE }), { finalized: 5 });
    open.push({ node });
    const { follower: f, log } = follower(ctx.db, node.url);
    await until("the bootstrap at block 5", () => f.status.block === 5, 20_000);
    node.finalize(HEAD);
    await until(`the follower at block ${HEAD}`, () => f.status.block === HEAD, 20_000);
    expect(await getTask(ctx.db, UPGRADE_SWEEP_TASK)).toBeUndefined();
    expect((await resolveAsOf(ctx.db, { at: HEAD }, "holders")).number).toBe(HEAD);
    expect(log.text()).toContain("INDEXER_SWEEP_READS_PER_SECOND=0");
  });

  it("a pass owed from before the sweep was turned off: dropped at start, with a warning", async () => {
    const node = await startFakeNode(marketChain(runtimes, { blocks: HEAD, upgradeAt: HEAD + 100 }), { finalized: 5 });
    open.push({ node });
    const first = follower(ctx.db, node.url);
    await until("the bootstrap at block 5", () => first.follower.status.block === 5, 20_000);
    await first.follower.stop();
    await setTask(ctx.db, UPGRADE_SWEEP_TASK, { block: 5, specName: "statemint", specVersion: 2_003_001 });
    const second = follower(ctx.db, node.url);
    await until("the owed pass dropped", async () => (await getTask(ctx.db, UPGRADE_SWEEP_TASK)) === undefined, 20_000).catch(() => {});
    expect(await getTask(ctx.db, UPGRADE_SWEEP_TASK)).toBeUndefined();
    expect((await resolveAsOf(ctx.db, { at: 5 }, "holders")).number).toBe(5);
    expect(second.log.text()).toContain("INDEXER_SWEEP_READS_PER_SECOND=0");
  });
}, oneStore("pglite"));
