/**
 * The daemon loop: connect, load the checkpoint (or bootstrap), then follow finalized heads,
 * catching up in batches of blocks, one transaction per batch. Any failure — a dropped socket,
 * an RPC error — ends the connection; the loop reconnects with backoff and resumes from the
 * committed checkpoint, so nothing is lost or counted twice. stop() lets the transaction in
 * flight finish: a bootstrap ends after its page in flight, a catch-up commits the blocks it
 * has, the background history gives up its chunks at their next block. While it makes
 * progress or stands at the chain's head it keeps a heartbeat in the store (/health, status).
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
export { OtherChainError, StatePrunedError } from "./start.js";
import { CHAIN_TASK, deleteTask, getCheckpoint, getTask, resetIndexedData, setTask, WriterLockLost, type ChainInfo, type Checkpoint, type Database } from "../db/index.js";
import { Bootstrapper } from "./bootstrap.js";
import { catchUp } from "./catch-up.js";
import { connect, untilLost } from "./chain/connect.js";
import { ChainReader, StateDiscardedAt } from "./chain/reader.js";
import { Deriver } from "./derive.js";
import { Heartbeat } from "./heartbeat.js";
import { startHistory } from "./history.js";
import { OtherChainError, prunedMessage, PRUNED_ADVICE, sameChain, StatePrunedError } from "./start.js";
import { Pipeline } from "./pipeline.js";
import { createProgressLog, type ProgressLog } from "./progress-log.js";
import { applyRepairs, RepairQueue } from "./repair.js";
import { REREAD_TASK, runReread } from "./reread.js";
import { SweepStopped } from "./sweep.js";
import { sweepSession } from "./sweep-session.js";
import { SWEEP_READS_PER_SECOND } from "../shared/config.js";
import { BOOTSTRAP_TASK, HISTORY_TASK, type BootstrapTask, type HistoryTask, type TaskName } from "./tasks.js";
import type { FollowerOptions, FollowerStatus } from "./follower-options.js";

export type { FollowerOptions, FollowerStatus } from "./follower-options.js";

const MAX_RETRY_MS = 30_000;
const HEARTBEAT_MS = 5_000;
/** Failures in a row at one checkpoint after which the follower logs at error level. */
const STUCK_AFTER = 3;

/** What one connection works with: the stages and the jobs built on them. */
interface Session {
  reader: ChainReader;
  deriver: Deriver;
  bootstrapper: Bootstrapper;
}

export class Follower {
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  readonly status: FollowerStatus = { block: null, finalized: null, connected: false, sessions: 0, fatal: null, blockTime: null, blocksIndexed: 0, skippedEvents: 0, progress: {}, sweep: { passes: 0, drift: {}, lastPass: null } };
  private history: Promise<void> | undefined;
  /** Aborted by stop(): the bootstrap, the catch-up and the history end early. */
  private readonly abort = new AbortController();
  /** Resolves each time a batch is committed (tests and the CLI wait on it). */
  onCommit: ((block: number) => void) | undefined;
  private readonly heartbeat: Heartbeat;
  private readonly progress: ProgressLog;
  /** Bootstrap accounts last reported: a report that moves them is progress, a restart's first is not. */
  private bootstrapSeen: number | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: FollowerOptions,
  ) {
    this.heartbeat = new Heartbeat((write) => this.fenced(write), () => ({ finalized: this.status.finalized, block: this.status.block }), options.logger);
    this.progress = createProgressLog(options.logger);
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.wake?.();
    await this.running;
    await this.history;
    await this.heartbeat.stop();
  }

  /** Runs `write` in a transaction fenced by the writer lock (when there is one). */
  private async fenced(write: (tx: Database) => Promise<void>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await this.options.fence?.(t);
      await write(t);
    });
  }

  /** Keeps status.progress in step with a task (the metrics and the CLI's progress read it). */
  private readonly onTask = (name: TaskName, state: BootstrapTask | HistoryTask): void => {
    if (name === BOOTSTRAP_TASK) {
      const b = state as BootstrapTask;
      const total = b.finished ? b.accounts : b.fraction > 0 ? Math.round(b.accounts - b.mapEntries + b.mapEntries / b.fraction) : null;
      this.status.progress.bootstrap = { done: b.accounts, total, finished: b.finished };
      if (b.finished || (this.bootstrapSeen !== undefined && b.accounts !== this.bootstrapSeen)) this.heartbeat.progressed();
      this.bootstrapSeen = b.accounts;
    } else {
      const h = state as HistoryTask;
      this.status.progress.history = { done: h.done, total: h.to - h.from + 1, finished: h.finished };
    }
  };

  private async loop(): Promise<void> {
    this.heartbeat.start(this.options.heartbeatMs ?? HEARTBEAT_MS);
    await this.sessions();
  }

  /** Connects, runs a session, and reconnects with backoff after a failure, until stopped. */
  private async sessions(): Promise<void> {
    const log = this.options.logger;
    let retry = this.options.retryMs ?? 1_000;
    // Failures in a row at the same checkpoint: a block that fails every time is not a dropped
    // socket, and must not hide among the reconnect warnings.
    let failures = 0;
    let failedAt: number | null | undefined;
    while (!this.stopped) {
      let api: ApiPromise | undefined;
      try {
        this.heartbeat.stage = "connecting to the node";
        api = await connect(this.options.wsUrl, this.abort.signal);
        // Stopped while it connected: no new session (no "resuming" after a stop).
        if (this.stopped) break;
        await this.session(api);
        retry = this.options.retryMs ?? 1_000;
      } catch (err) {
        this.status.connected = false;
        if (this.stopped) break;
        if (err instanceof OtherChainError || err instanceof StatePrunedError) {
          log.fatal({ wsUrl: this.options.wsUrl }, err.message);
          this.status.fatal = err.message;
          this.options.onFatal?.(err);
          break;
        }
        if (err instanceof WriterLockLost) {
          // Refused by the fence: nothing was written. The writer's lock check stops this follower
          // within seconds; until then every attempt is refused the same way.
          log.warn({ err: err.message }, "indexer: the writer lock is gone; commit refused (stopping and going back to standby)");
          await this.sleep(retry);
          continue;
        }
        failures = failedAt === this.status.block ? failures + 1 : 1;
        failedAt = this.status.block;
        const fields = { err: err instanceof Error ? err.message : err, retryMs: retry, block: this.status.block, failures };
        if (failures >= STUCK_AFTER) log.error(fields, "indexer: stuck — the blocks after the checkpoint failed again; retrying");
        else log.warn(fields, "indexer: connection lost or failed; resuming from the checkpoint");
        this.heartbeat.stage = `reconnecting in ${retry} ms after: ${fields.err instanceof Error ? fields.err.message : String(fields.err)}`;
        await this.sleep(retry);
        retry = Math.min(retry * 2, MAX_RETRY_MS);
      } finally {
        await api?.disconnect().catch(() => {});
      }
    }
  }

  /** One connection's life: returns on stop, throws on any failure. */
  private async session(api: ApiPromise): Promise<void> {
    const log = this.options.logger;
    const reader = new ChainReader(api, this.options.nativeTokenId);
    const deriver = new Deriver(reader, this.options);
    deriver.announceAnchors();
    const s: Session = { reader, deriver, bootstrapper: new Bootstrapper(this.db, reader, deriver, { ...this.options, onTask: this.onTask, signal: this.abort.signal }) };
    let failure: Error | undefined;
    const queue = new RepairQueue();
    queue.onPost = () => this.wake?.();
    const sweepAbort = new AbortController();
    const stopSweep = () => sweepAbort.abort();
    let sweeping: Promise<void> | undefined;
    api.on("disconnected", () => {
      failure = new Error("WebSocket disconnected");
      this.wake?.();
    });
    this.heartbeat.stage = "subscribing to finalized heads";
    const unsubscribe = await untilLost(
      api,
      api.rpc.chain.subscribeFinalizedHeads((header) => {
        this.status.finalized = Math.max(this.status.finalized ?? 0, header.number.toNumber());
        this.wake?.();
      }),
      { what: "the first finalized head", ms: this.options.firstAnswerMs, signal: this.abort.signal, late: (unsubscribe) => unsubscribe() },
    );
    try {
      this.abort.signal.addEventListener("abort", stopSweep); // not before the subscription: a session ended there kept it for good
      this.status.connected = true;
      this.status.sessions++;
      const checkpoint = await this.open(s);
      let block = checkpoint.blockNumber;
      this.status.block = block;
      // The runtime the next block starts from: a block run by another one is an upgrade.
      this.heartbeat.stage = `reading the runtime of block ${block}`;
      deriver.startFrom(await reader.runtimes.ofState(checkpoint.blockHash));
      log.info({ block, finalized: this.status.finalized }, "indexer: following finalized heads");
      const pipeline = new Pipeline(reader, deriver, this.options.prefetchBlocks ?? 32);
      sweeping = sweepSession({
        db: this.db,
        reader,
        queue,
        logger: log,
        fence: this.options.fence,
        signal: sweepAbort.signal,
        readsPerSecond: this.options.sweepReadsPerSecond ?? SWEEP_READS_PER_SECOND,
        pageSize: this.options.sweepPageSize,
        status: this.status,
      });
      while (!this.stopped) {
        if (failure) throw failure;
        // What the sweep found different from chain storage, read again at the checkpoint.
        const taken = queue.take();
        if (taken) {
          try {
            const cp = (await getCheckpoint(this.db))!;
            await applyRepairs({ ...s, db: this.db, logger: log, fence: this.options.fence }, taken.repairs, cp);
            // Blocks fetched ahead were planned against the market before the repair.
            pipeline.clear();
            taken.settle();
          } catch (err) {
            taken.settle(err);
            throw err;
          }
          continue;
        }
        const finalized = this.status.finalized ?? block;
        if (block >= finalized) {
          // At the chain's head: alive. Without a new head within a heartbeat, ask the node for
          // it: a connection that died without a word then fails (and the heartbeat stops).
          this.heartbeat.progressed();
          this.heartbeat.stage = `the head (block ${block}), waiting for the next`;
          const woken = await this.sleep(this.options.heartbeatMs ?? HEARTBEAT_MS);
          if (!woken && !this.stopped && !failure) this.status.finalized = Math.max(this.status.finalized ?? 0, (await reader.finalizedHead()).number);
          continue;
        }
        try {
          this.heartbeat.stage = `catching up blocks ${block + 1}–${finalized}`;
          block = await this.follow(s, pipeline, block, finalized);
        } catch (err) {
          pipeline.clear();
          if (!(err instanceof StateDiscardedAt)) throw err;
          // The checkpoint may have moved (a re-read pinned at a batch's end): name the store's.
          block = (await this.pruned(s, await reader.finalizedHead(), this.status.block ?? block, "while catching up", err.block)).blockNumber;
          this.status.block = block;
          deriver.startFrom(await reader.runtimes.ofState((await getCheckpoint(this.db))!.blockHash));
        }
      }
    } finally {
      this.wake = undefined;
      unsubscribe();
      stopSweep();
      this.abort.signal.removeEventListener("abort", stopSweep);
      queue.fail(new SweepStopped("the follower's session ended"));
      await sweeping;
    }
  }

  /**
   * The checkpoint to follow from: the store's, checked to be a block of this chain whose next
   * state the node still has; or a bootstrap at the head. A re-read left unfinished (a stop, a
   * crash) is finished first.
   */
  private async open(s: Session): Promise<Checkpoint> {
    const log = this.options.logger;
    const { reader, deriver, bootstrapper } = s;
    const stage = (what: string) => (this.heartbeat.stage = `start: ${what}`);
    stage("reading the finalized head");
    const head = await reader.finalizedHead();
    this.status.finalized = Math.max(this.status.finalized ?? 0, head.number);
    stage("loading the market from the store");
    await deriver.load(this.db);
    stage("reading the checkpoint");
    let checkpoint = await getCheckpoint(this.db);
    stage("checking the checkpoint is a block of this chain");
    if (checkpoint && (await sameChain(reader, checkpoint, head, this.options.onOtherChain ?? "refuse")) === "other") {
      log.warn({ block: checkpoint.blockNumber, stored: checkpoint.blockHash }, "indexer: the devnet is a new chain (it starts from genesis each run); emptying the indexed data and bootstrapping it");
      await this.fenced((t) => resetIndexedData(t));
      await deriver.load(this.db);
      checkpoint = undefined;
    }
    let fresh = false;
    if (checkpoint && checkpoint.blockNumber < head.number) {
      stage(`checking the node has the state after block ${checkpoint.blockNumber}`);
      const next = await reader.hashAt(checkpoint.blockNumber + 1);
      if (next && !(await reader.hasState(next))) checkpoint = await this.pruned(s, head, checkpoint.blockNumber, "at start");
    }
    if (!checkpoint) {
      fresh = (await getTask(this.db, BOOTSTRAP_TASK)) === undefined;
      log.info({ block: head.number, wsUrl: this.options.wsUrl }, "indexer: no checkpoint; bootstrapping from the finalized head");
      stage(`bootstrapping at block ${head.number}`);
      await bootstrapper.bootstrap(head, head.number);
      await deriver.load(this.db);
      checkpoint = (await getCheckpoint(this.db))!;
    }
    // What the API needs of the chain to answer in its terms (addresses in its SS58 prefix).
    stage("recording the chain's identity");
    await this.fenced((t) => setTask(t, CHAIN_TASK, { ss58: reader.ss58, genesisHash: reader.identity.genesisHash, specName: reader.identity.specName } satisfies ChainInfo));
    stage("finishing a re-read of state on record");
    try {
      await this.reread(s);
    } catch (err) {
      if (!(err instanceof StateDiscardedAt)) throw err;
      checkpoint = await this.pruned(s, head, checkpoint.blockNumber, "re-reading state", err.block);
    }
    stage("reading LP holders");
    await bootstrapper.snapshotLpHolders(head);
    stage("starting the history backfill");
    if (!this.history) this.history = (await startHistory(this.db, reader, {
      hours: this.options.historyHours ?? 0,
      fresh,
      bootstrapBlock: checkpoint.blockNumber,
      wsUrl: this.options.wsUrl,
      nativeTokenId: this.options.nativeTokenId,
      oracle: this.options.oracle,
      batchBlocks: this.options.batchBlocks,
      logger: this.options.logger,
      chunkBlocks: this.options.historyChunkBlocks ?? 500,
      workers: this.options.historyWorkers ?? 2,
      prefetchBlocks: this.options.prefetchBlocks ?? 32,
      signal: this.abort.signal,
      onTask: (t) => this.onTask(HISTORY_TASK, t),
    }))?.running;
    return checkpoint;
  }

  /** Blocks after `from` up to `to` as one batch, then any re-read they called for. */
  private async follow(s: Session, pipeline: Pipeline, from: number, to: number): Promise<number> {
    const result = await catchUp(
      {
        ...s,
        db: this.db,
        pipeline,
        batchBlocks: this.options.batchBlocks,
        logger: this.options.logger,
        progress: this.progress,
        fence: this.options.fence,
        metrics: this.options.metrics,
        stopped: () => this.stopped,
        inlineRereadRows: this.options.inlineRereadRows,
        verify: (this.options.sweepReadsPerSecond ?? SWEEP_READS_PER_SECOND) > 0,
      },
      from,
      to,
      this.status.finalized ?? to,
    );
    this.heartbeat.progressed();
    this.status.blocksIndexed += result.blocks;
    this.status.skippedEvents += result.skipped;
    if (result.reread) {
      // The blocks fetched ahead were planned against the market before the re-read.
      pipeline.clear();
      await this.reread(s);
    }
    // The block is reached once the store equals chain storage there: after a re-read it called for.
    Object.assign(this.status, { block: result.last.number, blockTime: result.last.timestamp });
    this.onCommit?.(result.last.number);
    return result.last.number;
  }

  /** Runs the re-read on record (reread.ts) to its end, pages counting as progress. */
  private async reread(s: Session): Promise<void> {
    await runReread({ ...s, db: this.db, logger: this.options.logger, fence: this.options.fence, signal: this.abort.signal, onPage: () => this.heartbeat.progressed() });
  }

  /**
   * The node has no state after `block` (pruned): with INDEXER_REBOOTSTRAP=auto a new snapshot
   * at the head; otherwise a fatal error naming the block and what to do. Never a retry loop:
   * the state does not come back.
   */
  private async pruned(s: Session, head: { number: number; hash: string }, block: number, when: string, missing = block + 1): Promise<Checkpoint> {
    const log = this.options.logger;
    const what = prunedMessage(block, head.number, missing);
    if (this.options.rebootstrap !== "auto") throw new StatePrunedError(`indexer: ${what} (${when}). ${PRUNED_ADVICE(block, head.number)}`);
    log.error({ block, head: head.number, when }, `indexer: ${what}; INDEXER_REBOOTSTRAP=auto: taking a new snapshot at the head (blocks ${block + 1}–${head.number} stay out of history)`);
    // A new snapshot of everything: a re-read still on record (pinned at an older block) is done by it.
    await s.bootstrapper.bootstrap(head, head.number, undefined, (t) => deleteTask(t, REREAD_TASK));
    await s.bootstrapper.snapshotLpHolders(head);
    await s.deriver.load(this.db);
    return (await getCheckpoint(this.db))!;
  }

  /** Waits `ms`, or until woken (a new head, a failure, stop); resolves to whether it was woken. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}
