/**
 * Backfill: index a historical block range the follower never saw (typically the history before
 * a deployment's bootstrap). A range is split into chunks that are independent of each other:
 * each one rebuilds the market (pools, reserves, decimals, prices) from chain storage at the
 * block before it (and again at the first block of a new runtime, whose migrations may move it
 * without events, as the follower's new snapshot there does), then walks its blocks exactly as
 * the follower does. So chunks can run in any
 * order, on any number of workers, and give the rows the follower would have written.
 *
 * A backfill writes history only — swaps, liquidity events, pool reserves, prices and blocks,
 * all keyed by block — and never current state (tokens, holders, pools) or the follower's
 * checkpoint: a holder balance can never be rolled back to an older block, and re-running a
 * range rewrites the same keys with the same values.
 */
import type { ApiPromise } from "@polkadot/api";
import pRetry from "p-retry";
import { completeChunk, getCheckpoint, stageFor, type Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import { connect } from "./chain/connect.js";
import { ChainReader } from "./chain/reader.js";
import { Deriver } from "./derive.js";
import { fetchMarket } from "./fetch.js";
import { Pipeline } from "./pipeline.js";
import { resnapshotMarket } from "./resnapshot.js";
import type { OracleSettings } from "./market.js";
import { Batch } from "./writer.js";
import { CommitQueue } from "./commit-queue.js";

export interface BlockRange {
  from: number;
  to: number;
}

export interface BackfillOptions {
  oracle: OracleSettings;
  nativeTokenId: number;
  /** Blocks per transaction inside a chunk. */
  batchBlocks: number;
  logger: Logger;
  /** Blocks of a chunk fetched ahead (1 = one after the other). Default 32. */
  prefetchBlocks?: number;
  /**
   * Aborted to give up a chunk in flight at the next block (the indexer's own history, when the
   * indexer stops): the blocks done so far are committed, the chunk is not marked done, and a
   * later run does it again. Unset (`tokenpool backfill`, workers): chunks in flight finish.
   */
  signal?: AbortSignal;
}

/** Attempts of one chunk (RPC errors, dropped sockets), 1 s → 16 s apart. */
export const CHUNK_ATTEMPTS = 5;
export const RETRY_BASE_MS = 1_000;

export class BackfillRangeError extends Error {
  override name = "BackfillRangeError";
}

export function splitRange(range: BlockRange, chunk: number): BlockRange[] {
  const out: BlockRange[] = [];
  for (let from = range.from; from <= range.to; from += chunk) out.push({ from, to: Math.min(range.to, from + chunk - 1) });
  return out;
}

export const rangeKey = (r: BlockRange): string => `${r.from}-${r.to}`;

/**
 * Checks a requested range against the chain and the store: blocks must exist and be final, and
 * blocks after the follower's checkpoint are the follower's to write (with current state).
 */
export async function checkRange(db: Database, api: ApiPromise, range: BlockRange): Promise<void> {
  if (range.from < 1) throw new BackfillRangeError(`--from must be at least 1 (block 0 is the genesis and has no events), got ${range.from}`);
  if (range.to < range.from) throw new BackfillRangeError(`--to (${range.to}) must not be below --from (${range.from})`);
  const finalized = (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toNumber();
  if (range.to > finalized) throw new BackfillRangeError(`--to (${range.to}) is above the chain's finalized head (${finalized})`);
  const cp = await getCheckpoint(db);
  if (cp && range.to > cp.blockNumber) {
    throw new BackfillRangeError(`--to (${range.to}) is above the follower's checkpoint (${cp.blockNumber}); the follower indexes blocks after it`);
  }
}

/**
 * Indexes the blocks of one chunk, committing every `batchBlocks` blocks (each commit while the
 * next batch is derived: commit-queue.ts); `onBlocks` gets the count of each commit. Marks the
 * chunk done once all of it is committed.
 */
export async function backfillChunk(
  db: Database,
  api: ApiPromise,
  range: BlockRange,
  options: BackfillOptions,
  onBlocks: (committed: number) => void = () => {},
): Promise<{ blocks: number; swaps: number }> {
  // The connection's runtimes: built once per worker, not once per chunk.
  const reader = new ChainReader(api, options.nativeTokenId, undefined, true);
  const deriver = new Deriver(reader, options);
  await seedAt(reader, deriver, range.from - 1);
  // The bulk path: transfers into its partition's stage while one is loading (db/queries/transfer-stages.ts).
  const stage = await stageFor(db, range);
  const newBatch = () => Object.assign(new Batch(), { stage });
  let batch = newBatch();
  let swaps = 0;
  const commits = new CommitQueue<Batch>((b) => b.commitHistory(db), onBlocks);
  const flush = async () => {
    if (batch.size === 0) return;
    const full = batch;
    batch = newBatch();
    await commits.push(full);
  };
  const pipeline = new Pipeline(reader, deriver, options.prefetchBlocks ?? 32, "history", true);
  try {
    for (let n = range.from; n <= range.to; n++) {
      if (options.signal?.aborted) {
        await flush();
        await commits.drain();
        return { blocks: n - range.from, swaps };
      }
      const r = await pipeline.apply(n, range.to, batch);
      swaps += r.swaps;
      if (r.upgraded) {
        // The first block of a new runtime: its migrations may move pools and tokens without an
        // event. The follower reads the market again there; so does the chunk's, with the
        // same history rows (every pool's reserves, the prices that moved). The blocks fetched
        // ahead were planned against the market before it.
        pipeline.clear();
        await resnapshotMarket(reader, deriver, r.block, batch);
      }
      if (batch.size >= options.batchBlocks) await flush();
    }
    await flush();
    await commits.drain();
  } catch (err) {
    await commits.settle();
    throw err;
  }
  const finished = await completeChunk(db, { fromBlock: range.from, toBlock: range.to, swaps }, stage !== undefined);
  if (finished) options.logger.info({ ...finished }, `backfill: the transfers loaded in bulk from block ${finished.partitionStart} are ${finished.how === "attached" ? "attached as their partition" : "merged into their partition"}, held from now on`);
  return { blocks: range.to - range.from + 1, swaps };
}

/**
 * The market (tokens, pools, reserves, prices) from chain storage at block `number` instead of
 * the store: where a chunk starts, anywhere in history, read with the runtime of that block.
 */
async function seedAt(reader: ChainReader, deriver: Deriver, number: number): Promise<void> {
  const { at } = await reader.block(number);
  const market = deriver.emptyMarket();
  deriver.startFrom(at.runtime);
  const { tokens, pools, unusable } = await fetchMarket(reader, at);
  deriver.reportUnusable(number, unusable, reader.collisions);
  for (const t of tokens.tokens) market.setToken(t);
  for (const p of pools) market.setPool(p.ref, BigInt(p.reserve0), BigInt(p.reserve1));
  market.reprice();
}

/**
 * A chain connection that is dropped after a failure, so the next attempt starts on a fresh
 * socket (the follower's `connect` never reconnects by itself).
 */
export class Connection {
  private api: Promise<ApiPromise> | undefined;

  constructor(
    private readonly wsUrl: string,
    /** A stop: ends a connection attempt too. */
    private readonly signal?: AbortSignal,
  ) {}

  get(): Promise<ApiPromise> {
    this.api ??= connect(this.wsUrl, this.signal);
    this.api.catch(() => (this.api = undefined));
    return this.api;
  }

  async reset(): Promise<void> {
    const api = this.api;
    this.api = undefined;
    await api?.then((a) => a.disconnect()).catch(() => {});
  }
}

export interface LocalRun {
  db: Database;
  wsUrl: string;
  chunks: BlockRange[];
  workers: number;
  options: BackfillOptions;
  onBlocks: (committed: number) => void;
  /** Each chunk once it is complete (marked done). */
  onChunk?: (chunk: BlockRange) => void;
  /** Set to stop taking new chunks (SIGTERM); chunks in flight finish, one waiting for its next attempt is left for a later run. */
  signal?: AbortSignal;
}

/**
 * Runs chunks in this process without Redis: `workers` loops, each with its own connection,
 * take the next chunk; a failing chunk is retried with exponential backoff, then the run fails.
 */
export async function runLocal(run: LocalRun): Promise<{ blocks: number; swaps: number }> {
  let next = 0;
  const total = { blocks: 0, swaps: 0 };
  const worker = async () => {
    const conn = new Connection(run.wsUrl, run.signal);
    try {
      while (next < run.chunks.length && !run.signal?.aborted) {
        const chunk = run.chunks[next++]!;
        let done: { blocks: number; swaps: number } | undefined;
        const result = await pRetry(
          async () => {
            let committed = 0;
            try {
              return (done = await backfillChunk(run.db, await conn.get(), chunk, run.options, (n) => {
                committed += n;
                run.onBlocks(n);
              }));
            } catch (err) {
              // The next attempt redoes the chunk from its start: take back its progress.
              if (committed > 0) run.onBlocks(-committed);
              await conn.reset();
              throw err;
            }
          },
          {
            retries: CHUNK_ATTEMPTS - 1,
            minTimeout: RETRY_BASE_MS,
            factor: 2,
            // A stop ends the wait for the next attempt, which went on (backoff, a new connection, the chunk's start read).
            signal: run.signal,
            onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
              if (!run.signal?.aborted) run.options.logger.warn({ chunk: rangeKey(chunk), attempt: attemptNumber, retriesLeft, err: error.message }, "backfill: chunk failed; retrying");
            },
          },
        ).catch((err: unknown) => {
          // p-retry throws the stop's abort even after an attempt that succeeded: `done` is that attempt's.
          if (run.signal?.aborted) return done;
          throw err;
        });
        if (!result) break;
        total.blocks += result.blocks;
        total.swaps += result.swaps;
        if (result.blocks === chunk.to - chunk.from + 1) run.onChunk?.(chunk);
      }
    } finally {
      await conn.reset();
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.workers, run.chunks.length) }, worker));
  return total;
}
