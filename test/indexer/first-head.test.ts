/**
 * A subscription to finalized heads that the node confirms but never follows with a head — the
 * connection dropped just after the confirmation, or a node that says nothing more — ends the
 * session and the follower reconnects; it no longer waits "subscribing to finalized heads" for
 * as long as it runs (the fault campaign found one waiting 124 s and counting).
 */
import { getEventListeners } from "node:events";
import { expect, it } from "vitest";
import { describeDb, oneStore } from "../support/db.js";
import { fakeFollowers } from "../support/fake-follower.js";
import { until } from "../support/wait.js";

const HEAD = 5;
const SUBSCRIBE = "chain_subscribeFinalizedHeads";
const open = fakeFollowers();

describeDb("a subscription's first finalized head that never comes", (ctx) => {
  const start = (firstAnswerMs: number) => open(ctx.db, { blocks: HEAD + 2, finalized: HEAD, follower: { firstAnswerMs } });

  it("the connection dropped after the node confirmed the subscription: the follower reconnects at once and follows", async () => {
    // A time limit longer than the test: only the dropped connection can end the wait.
    const { node, relay, log, follower } = await start(600_000);
    relay.cutAfterAnswer.add(SUBSCRIBE);
    follower.start();
    await until("the connection cut after the subscription's confirmation", () => log.text().includes("the connection dropped while waiting for the first finalized head"), 20_000);
    relay.cutAfterAnswer.clear();
    await until(`the bootstrap at block ${HEAD}`, () => follower.status.block === HEAD, 20_000);
    node.finalize(HEAD + 2);
    await until(`block ${HEAD + 2} followed`, () => follower.status.block === HEAD + 2, 20_000);
    expect(follower.status.sessions).toBe(1);
    expect(log.text()).toContain("indexer: connection lost or failed; resuming from the checkpoint");
  });

  it("a node that confirms the subscription and sends no head: the session ends at the time limit and the follower reconnects", async () => {
    const { relay, log, follower } = await start(1_000);
    relay.silenced.add("chain_finalizedHead");
    follower.start();
    await until("the time limit", () => log.text().includes("no answer for the first finalized head within 1000 ms"), 20_000);
    expect(follower.status.block).toBeNull();
    relay.silenced.clear();
    await until(`the bootstrap at block ${HEAD}`, () => follower.status.block === HEAD, 20_000);
  });

  it("stop() while it waits for the first head returns at once", async () => {
    const { relay, follower } = await start(600_000);
    relay.silenced.add("chain_finalizedHead");
    follower.start();
    await until("the subscription asked", () => (relay.calls.get(SUBSCRIBE) ?? 0) > 0, 20_000);
    const started = Date.now();
    await follower.stop();
    // Well under the 600 s limit: only the stop can have ended the wait (a loaded machine takes its time).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("sessions that end waiting for the first head leave no listener on the follower's stop signal", async () => {
    const { relay, log, follower } = await start(200);
    relay.silenced.add("chain_finalizedHead");
    follower.start();
    const ended = () => log.text().split("no answer for the first finalized head within 200 ms").length - 1;
    await until("three sessions ended at the time limit", () => ended() >= 3, 20_000);
    // At most the session waiting now (its stop); each ended one used to leave its sweep's stop.
    const signal = (follower as unknown as { abort: AbortController }).abort.signal;
    expect(getEventListeners(signal, "abort").length).toBeLessThanOrEqual(1);
  });
}, oneStore("pglite"));
