/**
 * A bootstrap: the complete state at one block, for a fresh deployment or a store whose node no
 * longer has the state after its checkpoint; and the one-time snapshot of LP positions. Pages of
 * the chain's balance maps are read (fetch), turned into rows (derive) and written page by page
 * with the snapshot's resume point (write), so a restart continues the same snapshot.
 */
import { deleteLpHoldersBefore, deleteTask, getCheckpoint, getTask, setTask, snapshotTaken, sweepSnapshot, upsertHolders, upsertLpHolders, type Database } from "../db/index.js";
import { BALANCE_MAPS, type ChainReader } from "./chain/reader.js";
import { Deriver } from "./derive.js";
import { BOOTSTRAP_TASK, BootstrapStopped, LP_TASK, type BootstrapTask, type IndexerOptions } from "./tasks.js";
import { Batch } from "./writer.js";

export class Bootstrapper {
  constructor(
    readonly db: Database,
    readonly reader: ChainReader,
    readonly deriver: Deriver,
    readonly options: IndexerOptions,
  ) {}

  /** A bootstrapper with a market of its own, loaded from the store (tests, benchmarks). */
  static async create(db: Database, reader: ChainReader, options: IndexerOptions): Promise<Bootstrapper> {
    const deriver = new Deriver(reader, options);
    await deriver.load(db);
    return new Bootstrapper(db, reader, deriver, options);
  }

  /**
   * Writes the complete state at one block: a fresh deployment, or a store whose checkpoint the
   * node no longer has the state after (re-bootstrap). Resumable: the pinned block and the last
   * storage key read are stored with each page of holders, so a restart continues the same
   * snapshot while the node still has that block's state, and otherwise starts a new one at
   * `head` and says why. At the end, in the transaction that writes the checkpoint, rows of
   * current state the snapshot did not see (from an aborted attempt, or from before a
   * re-bootstrap) are removed and the holder counts are recounted, so they are exact. `why`
   * notes a new snapshot's reason; `after` runs last in that transaction.
   */
  async bootstrap(head: { number: number; hash: string }, chainFinalized: number, why?: string, after?: (tx: Database) => Promise<void>): Promise<void> {
    const log = this.options.logger;
    if (this.options.signal?.aborted) throw new BootstrapStopped("bootstrap not started: stopping");
    const task = await this.bootstrapTask(head, why);
    const block = await this.reader.blockByHash(task.hash, task.number);
    const batch = new Batch();
    const ids = await this.reader.allTokenIds(block.at);
    this.deriver.lpFee(block.at);
    this.deriver.applyTokenStates(await this.reader.tokens(block.at, ids), batch, task.number);
    const run = { started: Date.now(), entries: 0, logged: 0 };
    this.report(task);
    for await (const page of this.reader.allBalances(block.at, { map: task.map, lastKey: task.lastKey }, this.options.bootstrapPageSize)) {
      if (page.map !== task.map) Object.assign(task, { map: page.map, mapEntries: 0 });
      run.entries += page.entries;
      const seconds = (Date.now() - run.started) / 1000;
      const perSecond = seconds > 0 ? Math.round(run.entries / seconds) : null;
      const mapTotal = page.last ? task.mapEntries + page.entries : page.fraction > 0 ? Math.round((task.mapEntries + page.entries) / page.fraction) : null;
      Object.assign(task, {
        lastKey: page.lastKey,
        accounts: task.accounts + page.entries,
        holders: task.holders + page.rows.length,
        mapEntries: task.mapEntries + page.entries,
        fraction: page.last ? 1 : page.fraction,
        perSecond,
        etaSeconds: mapTotal !== null && perSecond ? Math.round((mapTotal - task.mapEntries - page.entries) / perSecond) : null,
      });
      // The page's rows and where the snapshot stands, together: a crash resumes after the
      // last page whose rows are in, and no page is lost or half written. Fenced like every
      // commit: a process that lost the writer lock (a standby may be resuming this very
      // snapshot) writes no further page.
      await this.db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        await this.options.fence?.(t);
        await upsertHolders(t, page.rows.map((b) => ({ ...b, blockNumber: task.number })));
        await setTask(t, BOOTSTRAP_TASK, task);
      });
      this.report(task);
      if (Date.now() - run.logged >= 5_000 || page.last) {
        run.logged = Date.now();
        log.info({ block: task.number, map: BALANCE_MAPS[task.map], accounts: task.accounts, holders: task.holders, perSecond, etaSeconds: task.etaSeconds }, "bootstrap: reading balances");
      }
      // Stopping (SIGTERM, lock lost): after this page, not after the whole snapshot (minutes
      // on a large chain); the page and the resume point are in, so a restart continues here.
      if (this.options.signal?.aborted) {
        log.info({ block: task.number, map: BALANCE_MAPS[task.map], accounts: task.accounts, holders: task.holders }, "bootstrap: stopped; a restart resumes the snapshot here");
        throw new BootstrapStopped(`bootstrap stopped at ${task.accounts} accounts`);
      }
    }
    const { pools, unusable } = await this.reader.allPools(block.at);
    this.deriver.reportUnusable(task.number, unusable, this.reader.collisions);
    if (pools.length > 0) this.deriver.applyPoolStates(await this.reader.pools(block.at, pools), batch, task.number, block.timestamp);
    this.deriver.applyPrices(batch, task.number);
    this.deriver.storeLearned(batch, task.number);
    batch.blocks.push({ number: task.number, hash: task.hash, timestamp: block.timestamp });
    // Its state is read, not its events: event lists start after it (until a backfill reaches it).
    batch.snapshotBlock = task.number;
    const done: BootstrapTask = { ...task, map: BALANCE_MAPS.length, lastKey: null, fraction: 1, etaSeconds: 0, finished: true };
    await batch.commit(this.db, { blockNumber: task.number, blockHash: task.hash, chainFinalized: Math.max(chainFinalized, task.number) }, this.options.fence, async (t) => {
      await sweepSnapshot(t, task.number);
      await snapshotTaken(t, "holders", task.number);
      // LP positions too: a re-bootstrap across a gap leaves one in their history as well, and the
      // LP snapshot that follows at this block (snapshotLpHolders) finds the checkpoint there.
      await snapshotTaken(t, "lp", task.number);
      await setTask(t, BOOTSTRAP_TASK, done);
      // A new snapshot of tokens calls for one of LP positions too (snapshotLpHolders, next).
      await deleteTask(t, LP_TASK);
      await after?.(t);
    });
    this.report(done);
    log.info({ block: task.number, tokens: ids.length, accounts: task.accounts, holders: task.holders, pools: pools.length, resumed: task.resumed }, "bootstrap: done");
  }

  /** The snapshot to continue, or a new one at `head` (and why, when one was on record). */
  private async bootstrapTask(head: { number: number; hash: string }, why?: string): Promise<BootstrapTask> {
    const log = this.options.logger;
    const prior = await getTask<BootstrapTask>(this.db, BOOTSTRAP_TASK);
    const fresh = (note: string | null): BootstrapTask => ({
      number: head.number,
      hash: head.hash,
      map: 0,
      lastKey: null,
      accounts: 0,
      holders: 0,
      mapEntries: 0,
      fraction: 0,
      perSecond: null,
      etaSeconds: null,
      startedAt: new Date().toISOString(),
      resumed: 0,
      finished: false,
      note,
    });
    if (!prior || prior.finished) {
      log.info({ block: head.number }, prior ? "bootstrap: a new snapshot (re-bootstrap)" : "bootstrap: a new snapshot");
      if (!prior) return fresh(null);
      // Named by where the store stood (its checkpoint), not by the earlier snapshot's block.
      const cp = await getCheckpoint(this.db);
      return fresh(why ?? `re-bootstrap at block ${head.number} of a store indexed to block ${cp?.blockNumber ?? prior.number} (its previous snapshot was of block ${prior.number})`);
    }
    if (await this.reader.hasState(prior.hash)) {
      log.info({ block: prior.number, map: BALANCE_MAPS[prior.map], accounts: prior.accounts }, "bootstrap: resuming the snapshot where it stopped");
      return { ...prior, resumed: prior.resumed + 1, note: `resumed at ${prior.accounts} accounts` };
    }
    const note = `the node no longer has the state of block ${prior.number}, where the interrupted snapshot was pinned (${prior.accounts} accounts read); a new snapshot at block ${head.number}`;
    log.warn({ block: prior.number, head: head.number }, `bootstrap: ${note}`);
    return fresh(note);
  }

  /**
   * Every LP position of the chain at `head`, once per store (and again after a re-bootstrap):
   * stores indexed before positions were kept get theirs, and a new store its first ones. Rows
   * the snapshot did not see are removed in the same transaction; blocks between the checkpoint
   * and `head` then cannot move a position back (a row only moves forward in blocks).
   */
  async snapshotLpHolders(head: { number: number; hash: string }): Promise<void> {
    if (await getTask(this.db, LP_TASK)) return;
    const block = await this.reader.blockByHash(head.hash, head.number);
    const rows = await this.reader.allLpBalances(block.at);
    await this.db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await this.options.fence?.(t);
      await deleteLpHoldersBefore(t, head.number);
      await upsertLpHolders(t, rows.map((r) => ({ ...r, blockNumber: head.number })));
      await snapshotTaken(t, "lp", head.number);
      await setTask(t, LP_TASK, { block: head.number, positions: rows.length });
    });
    this.options.logger.info({ block: head.number, positions: rows.length }, "indexer: LP positions read");
  }

  private report(task: BootstrapTask): void {
    this.options.onTask?.(BOOTSTRAP_TASK, task);
  }
}
