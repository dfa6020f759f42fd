/**
 * The end of a follower's session while a verification page is in flight (follower.ts session():
 * the sweep is aborted, the repair queue failed, then the session waits for the sweep). A page
 * whose chain read was already on its way comes back after that with a difference to repair: the
 * repairs it posts have no follower left to commit them, and the session must still end — or the
 * follower never reconnects and stop() never returns.
 */
import { expect, it } from "vitest";
import { getTask, setCheckpoint, setTask } from "../../db/index.js";
import type { ChainReader } from "../../indexer/chain/reader.js";
import { TokenDirectory } from "../../indexer/chain/directory.js";
import { RepairQueue } from "../../indexer/repair.js";
import { SWEEP_TASK, Sweeper, SweepStopped, type SweepState } from "../../indexer/sweep.js";
import { captureLog } from "../support/log.js";
import { describeDb, oneStore } from "../support/db.js";

const HASH = `0x${"11".repeat(32)}`;

describeDb("a session that ends while a verification page is in flight", (ctx) => {
  it("a page whose read returns after the session ended, with a difference in it: the sweep ends, its position not moved", async () => {
    await setCheckpoint(ctx.db, { blockNumber: 10, blockHash: HASH, chainFinalized: 10 });
    const state: SweepState = {
      pass: 1,
      passStartedAt: new Date().toISOString(),
      passStartBlock: 10,
      phase: "chain",
      chain: { map: 0, lastKey: null },
      store: null,
      block: 10,
      checked: 0,
      found: 0,
      repaired: {},
      upgrade: null,
      lastPass: null,
    };
    await setTask(ctx.db, SWEEP_TASK, state);
    const queue = new RepairQueue();
    const abort = new AbortController();
    let answer: (() => void) | undefined;
    let ask: () => void;
    const asked = new Promise<void>((resolve) => (ask = resolve));
    const reader = {
      directory: new TokenDirectory(0),
      blockByHash: async () => ({ at: {} }),
      // The chain has a balance the store lacks: a difference, posted for repair.
      balancePage: () => {
        ask();
        return new Promise((done) => (answer = () => done({ rows: [{ tokenId: 0, account: "5Ghost", balance: "7", free: "7", reserved: "0", frozen: "0", transferable: "7" }], entries: 1, undecodable: [], next: null })));
      },
    };
    const sweeper = new Sweeper({ db: ctx.db, reader: reader as unknown as ChainReader, queue, logger: captureLog().logger, signal: abort.signal, readsPerSecond: 1_000_000, pageSize: 1 });
    const running = sweeper.run().then(
      () => "ended",
      (err: unknown) => (err instanceof SweepStopped ? "ended" : `failed: ${String(err)}`),
    );
    await asked;
    // The session's end, as follower.ts does it: abort, fail what is queued, wait for the sweep.
    abort.abort();
    queue.fail(new SweepStopped("the follower's session ended"));
    answer!();
    let bound: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([running, new Promise<string>((resolve) => (bound = setTimeout(() => resolve("still waiting for a repair nobody will commit"), 5_000)))]);
    clearTimeout(bound);
    expect(outcome).toBe("ended");
    expect(queue.waiting, "nothing left queued").toBe(false);
    // Not repaired, so not passed: the next session reads the page again.
    expect(await getTask<SweepState>(ctx.db, SWEEP_TASK)).toMatchObject({ phase: "chain", chain: { map: 0, lastKey: null }, checked: 0, found: 0 });
  });
}, oneStore("pglite"));
