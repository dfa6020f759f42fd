/**
 * A verification page that fails (a read the node refuses) is tried again after a pause; stop()
 * during that pause returns at once, not when the pause ends (a shutdown, or a reconnect after a
 * failure, waited for it).
 */
import { expect, it } from "vitest";
import { describeDb, oneStore } from "../support/db.js";
import { fakeFollowers } from "../support/fake-follower.js";
import { until } from "../support/wait.js";

const HEAD = 5;
const open = fakeFollowers();

describeDb("stopping while a failed verification page waits to be tried again", (ctx) => {
  it("stop() returns well before the retry pause (5 s) ends", async () => {
    const { chain, relay, log, follower } = await open(ctx.db, { blocks: HEAD, finalized: HEAD });
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
