/**
 * A migration that changes every balance of the chain (a layout change, holds moved) makes every
 * verification page differ in full. Each difference is repaired, but the log is bounded per page:
 * the first few with both values, then one line counting the rest by kind (1.5M accounts would
 * otherwise be 1.5M warning lines, hundreds of MB).
 */
import { expect, it } from "vitest";
import { setCheckpoint, setTask } from "../../db/index.js";
import type { ChainReader } from "../../indexer/chain/reader.js";
import { TokenDirectory } from "../../indexer/chain/directory.js";
import { RepairQueue } from "../../indexer/repair.js";
import { DRIFT_LOG_LINES, SWEEP_TASK, Sweeper, type SweepState } from "../../indexer/sweep.js";
import { captureLog } from "../support/log.js";
import { describeDb, oneStore } from "../support/db.js";

const HASH = `0x${"11".repeat(32)}`;
const PAGE = 200;

describeDb("the sweep's log when a page differs in full", (ctx) => {
  it(`a page of ${PAGE} differences: ${DRIFT_LOG_LINES} lines with both values and one with the rest counted; all ${PAGE} repaired`, async () => {
    await setCheckpoint(ctx.db, { blockNumber: 10, blockHash: HASH, chainFinalized: 10 });
    await setTask(ctx.db, SWEEP_TASK, {
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
    } satisfies SweepState);
    const rows = Array.from({ length: PAGE }, (_, i) => ({ tokenId: 0, account: `5Account${i}`, balance: "7", free: "7", reserved: "0", frozen: "0", transferable: "7" }));
    const abort = new AbortController();
    let pages = 0;
    // One page that differs in full; the sweep is stopped at the next.
    const balancePage = async () => (++pages === 1 ? { rows, entries: PAGE, undecodable: [], next: { map: 0, lastKey: "0x01" } } : (abort.abort(), { rows: [], entries: 0, undecodable: [], next: null }));
    const reader = { directory: new TokenDirectory(0), blockByHash: async () => ({ at: {} }), balancePage };
    const queue = new RepairQueue();
    const repaired: number[] = [];
    queue.onPost = () => {
      const taken = queue.take();
      if (taken) repaired.push(taken.repairs.pairs.length), taken.settle();
    };
    const log = captureLog();
    const sweeper = new Sweeper({ db: ctx.db, reader: reader as unknown as ChainReader, queue, logger: log.logger, signal: abort.signal, readsPerSecond: 1_000_000, pageSize: PAGE });
    await sweeper.run();
    expect(repaired[0]).toBe(PAGE);
    const lines = log.text().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
    const firstPage = lines.filter((l) => l.block === 10 && String(l.msg).startsWith("indexer: the store differed from chain storage"));
    const each = firstPage.filter((l) => l.msg === "indexer: the store differed from chain storage; repairing");
    expect(each.length).toBe(DRIFT_LOG_LINES);
    const rest = lines.find((l) => l.msg === "indexer: the store differed from chain storage in more rows of this page; repairing them too");
    expect(rest).toMatchObject({ more: PAGE - DRIFT_LOG_LINES, byKind: { "holders.missing": PAGE - DRIFT_LOG_LINES } });
  });
}, oneStore("pglite"));
