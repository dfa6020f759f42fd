/**
 * Holds on today's hubs announce nothing in `balances` (statemint 2,000,000 has no Held or
 * Released event): staking's bond places one and says only `staking.Bonded { stash, amount }`; a
 * reward to another account names it only inside `dest: RewardDestination::Account(..)`. On the
 * fake Polkadot Asset Hub node (today's metadata), with the verification sweep off so that only
 * the events can tell, the follower reads both accounts again at their block: free, reserved and
 * the rest equal the chain's state there.
 */
import { afterEach, beforeAll, expect, it } from "vitest";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { assetHubRuntimes, type RuntimeId } from "../support/fake-chain.js";
import { ACTORS, marketChain } from "../support/fake-market.js";
import { startFakeNode, type FakeNode } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { captureLog } from "../support/log.js";
import { describeDb, oneStore } from "../support/db.js";
import { expectStoreEqualsChain } from "../support/upgrade-store.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const HEAD = 12;
const DOT = 10_000_000_000n;

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

describeDb("holds named only by staking events, on today's metadata", (ctx) => {
  it("a bond (staking.Bonded) and a reward held for a payee named inside `dest`: both accounts read again at their block", async () => {
    const chain = marketChain(runtimes, {
      blocks: HEAD,
      upgradeAt: HEAD + 100,
      extra: (n, b) => {
        if (n === 8) b.bond(ACTORS.charlie, 20n * DOT);
        if (n === 10) b.reward(ACTORS.charlie, ACTORS.issuer, 3n * DOT);
      },
    });
    expect(chain.blocks[8]!.events.map((e) => `${e.section}.${e.method}`)).toContain("staking.Bonded");
    const node = await startFakeNode(chain, { finalized: 5 });
    const log = captureLog();
    const follower = new Follower(ctx.db, { oracle: oracleSettings(config), batchBlocks: 2, logger: log.logger, nativeTokenId: 0, wsUrl: node.url, historyHours: 0, retryMs: 50, heartbeatMs: 1_000, sweepReadsPerSecond: 0 });
    open.push({ node, follower });
    follower.start();
    await until("the bootstrap at block 5", () => follower.status.block === 5, 20_000);
    node.finalize(HEAD);
    await until(`the follower at block ${HEAD}`, () => follower.status.block === HEAD, 20_000);
    // Every holder's free, reserved and frozen against the chain's state at the checkpoint.
    expect(await expectStoreEqualsChain(ctx.db, chain)).toBe(HEAD);
    // Neither account is named by a `balances` event of these blocks (which would have read it anyway).
    const named = (who: string) => chain.blocks.slice(6).flatMap((b) => b.events.filter((e) => e.section === "balances" && Object.values(e.fields).includes(who)));
    expect([named(ACTORS.charlie), named(ACTORS.issuer)]).toEqual([[], []]);
    expect(chain.blocks[HEAD]!.state.nativeOf(ACTORS.charlie).reserved).toBe(20n * DOT);
    expect(chain.blocks[HEAD]!.state.nativeOf(ACTORS.issuer).reserved).toBe(3n * DOT);
  });
}, oneStore("pglite"));
