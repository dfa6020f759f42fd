/**
 * The daemon loop: connect, load the checkpoint (or bootstrap), then follow finalized heads,
 * catching up in batches of blocks, one transaction per batch. Any failure — a dropped socket,
 * an RPC error — ends the connection; the loop reconnects with backoff and resumes from the
 * committed checkpoint, so nothing is lost or counted twice. stop() lets the transaction in
 * flight finish.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { resetIndexedData, type Database } from "../db/index.js";
import { connect } from "./chain/connect.js";
import { ChainReader } from "./chain/reader.js";
import { Indexer, type IndexerOptions } from "./indexer.js";
import { Batch } from "./writer.js";

export interface FollowerOptions extends IndexerOptions {
  wsUrl: string;
  nativeTokenId: number;
  /** First reconnect delay; doubles up to 30 s. */
  retryMs?: number;
  /**
   * When the store's checkpoint is not a block of this chain (another chain, or the devnet
   * started anew): "refuse" stops the follower with a fatal error naming both hashes (a store is
   * never mixed from two chains); "reset" empties the indexed data and bootstraps (the devnet of
   * `npm start`, a scratch chain that is rebuilt on every run). Default "refuse".
   */
  onOtherChain?: "refuse" | "reset";
  /** Called once when the follower stops for good (OtherChainError); the CLI exits 1. */
  onFatal?: (err: Error) => void;
}

/** The store was built from another chain than the one at wsUrl. */
export class OtherChainError extends Error {
  override name = "OtherChainError";
}

export interface FollowerStatus {
  block: number | null;
  finalized: number | null;
  connected: boolean;
  /** Connections made so far; above 1 means the follower has reconnected. */
  sessions: number;
  /** Why the follower stopped for good (it no longer retries), or null. */
  fatal: string | null;
}

const MAX_RETRY_MS = 30_000;
/** Failures in a row at one checkpoint after which the follower logs at error level. */
const STUCK_AFTER = 3;
export class Follower {
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  readonly status: FollowerStatus = { block: null, finalized: null, connected: false, sessions: 0, fatal: null };
  /** Resolves each time a batch is committed (tests and the CLI wait on it). */
  onCommit: ((block: number) => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: FollowerOptions,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    const log = this.options.logger;
    let retry = this.options.retryMs ?? 1_000;
    // Failures in a row at the same checkpoint: a block that fails every time is not a dropped
    // socket, and must not hide among the reconnect warnings.
    let failures = 0;
    let failedAt: number | null | undefined;
    while (!this.stopped) {
      let api: ApiPromise | undefined;
      try {
        api = await connect(this.options.wsUrl);
        await this.session(api);
        retry = this.options.retryMs ?? 1_000;
      } catch (err) {
        this.status.connected = false;
        if (this.stopped) break;
        if (err instanceof OtherChainError) {
          log.fatal({ wsUrl: this.options.wsUrl }, err.message);
          this.status.fatal = err.message;
          this.options.onFatal?.(err);
          break;
        }
        failures = failedAt === this.status.block ? failures + 1 : 1;
        failedAt = this.status.block;
        const fields = { err: err instanceof Error ? err.message : err, retryMs: retry, block: this.status.block, failures };
        if (failures >= STUCK_AFTER) log.error(fields, "indexer: stuck — the blocks after the checkpoint failed again; retrying");
        else log.warn(fields, "indexer: connection lost or failed; resuming from the checkpoint");
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
    const indexer = new Indexer(this.db, reader, this.options);
    let failure: Error | undefined;
    api.on("disconnected", () => {
      failure = new Error("WebSocket disconnected");
      this.wake?.();
    });
    const unsubscribe = await api.rpc.chain.subscribeFinalizedHeads((header) => {
      this.status.finalized = Math.max(this.status.finalized ?? 0, header.number.toNumber());
      this.wake?.();
    });
    try {
      this.status.connected = true;
      this.status.sessions++;
      const head = await reader.finalizedHead();
      this.status.finalized = Math.max(this.status.finalized ?? 0, head.number);
      let checkpoint = await indexer.load();
      if (checkpoint) {
        const onChain = await reader.hashAt(checkpoint.blockNumber);
        if (onChain === undefined && this.options.onOtherChain !== "reset") {
          // A node still syncing: retried (with backoff) until it has the block to compare.
          throw new Error(`the node at WS_URL has no block ${checkpoint.blockNumber} yet (finalized head ${head.number}); the store's checkpoint is ahead of it`);
        }
        if (onChain !== checkpoint.blockHash) {
          const what = `block ${checkpoint.blockNumber} of the store is ${checkpoint.blockHash}, but ${onChain ? `that block of the chain at WS_URL is ${onChain}` : `the chain at WS_URL has no such block yet (finalized head ${head.number})`}`;
          if (this.options.onOtherChain !== "reset") {
            throw new OtherChainError(
              `indexer: the store was built from another chain: ${what}. Point WS_URL at the chain it was built from, or index this one into a new DATA_DIR or database.`,
            );
          }
          log.warn({ block: checkpoint.blockNumber, stored: checkpoint.blockHash, chain: onChain ?? null }, "indexer: the devnet is a new chain (it starts from genesis each run); emptying the indexed data and bootstrapping it");
          await resetIndexedData(this.db);
          checkpoint = await indexer.load();
        }
      }
      if (!checkpoint) {
        log.info({ block: head.number, wsUrl: this.options.wsUrl }, "indexer: no checkpoint; bootstrapping from the finalized head");
        await indexer.bootstrap(head, head.number);
        checkpoint = await indexer.load();
      }
      let block = checkpoint!.blockNumber;
      this.status.block = block;
      log.info({ block, finalized: this.status.finalized }, "indexer: following finalized heads");
      while (!this.stopped) {
        if (failure) throw failure;
        const finalized = this.status.finalized ?? block;
        if (block >= finalized) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        block = await this.catchUp(indexer, block, finalized);
      }
    } finally {
      this.wake = undefined;
      unsubscribe();
    }
  }

  /** Indexes blocks after `from` up to `to`, committing every batchBlocks blocks. */
  private async catchUp(indexer: Indexer, from: number, to: number): Promise<number> {
    const started = Date.now();
    const batch = new Batch();
    let events = 0;
    let swaps = 0;
    let skipped = 0;
    const end = Math.min(to, from + this.options.batchBlocks);
    for (let n = from + 1; n <= end; n++) {
      const r = await indexer.processBlock(n, batch);
      events += r.events;
      swaps += r.swaps;
      skipped += r.skipped;
    }
    const last = batch.lastBlock!;
    await batch.commit(this.db, { blockNumber: last.number, blockHash: last.hash, chainFinalized: Math.max(to, this.status.finalized ?? to) }, this.options.fence);
    this.status.block = last.number;
    this.options.logger.info(
      { from: from + 1, to: last.number, blocks: batch.size, events, swaps, skipped, holders: batch.holderRows, lag: (this.status.finalized ?? to) - last.number, ms: Date.now() - started },
      "indexer: batch committed",
    );
    this.onCommit?.(last.number);
    return last.number;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
