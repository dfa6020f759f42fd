import { customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { int64 } from "./tokens.js";

/** Every indexed block: its hash and on-chain timestamp (Unix seconds). */
export const blocks = pgTable(
  "blocks",
  {
    number: int64().primaryKey(),
    hash: text().notNull(),
    timestamp: int64().notNull(),
  },
  // Time → block (price history buckets): one index seek per bucket, never a scan.
  (t) => [index("blocks_timestamp_number_idx").on(t.timestamp, t.number)],
);

/** Bytes, read and written as hex by the queries that use them (db/queries/chain.ts). */
const bytea = customType<{ data: string }>({ dataType: () => "bytea" });

/**
 * The hashes of a block's extrinsics (blake2_256 of each one's bytes), 32 bytes each, in the
 * block's order, one row per block: a transfer's extrinsic hash is the 32 bytes at its
 * extrinsic_index (db/queries/chain.ts extrinsicHashes). Kept apart from transfers, which hold
 * only that index (4 bytes): a hash per row would add 33 bytes to every row of the ingestion hot
 * path and to its width on disk, where a block's extrinsics are a few and their hashes are read
 * only for the rows of a page. Written for the blocks whose events move balances (a block of
 * inherents alone has none); a block indexed before migration 0027 has no row: its transfers'
 * hashes are unknown (null). Partitioned by block range like the history tables (migration 0027).
 */
export const blockExtrinsics = pgTable("block_extrinsics", {
  blockNumber: int64().primaryKey(),
  hashes: bytea().notNull(),
});

/**
 * The block ranges whose events the store holds (from_block..to_block, inclusive): what every
 * list and series read from history covers (db/queries/coverage.ts). Written with the blocks
 * (insertBlocks), merged with the ranges it touches, so the table stays one row per run of
 * blocks: the store's first event block and its gaps (a re-bootstrap's skipped blocks, history
 * a backfill has not reached yet) in a few rows. A snapshot's block is not in it: its state is
 * read, its events are not.
 */
export const eventRanges = pgTable("event_ranges", {
  fromBlock: int64().primaryKey(),
  toBlock: int64().notNull(),
});

/** Where a writer stopped; written in the same transaction as the data of that block. */
export const checkpoints = pgTable("checkpoints", {
  name: text().primaryKey(),
  blockNumber: int64().notNull(),
  blockHash: text().notNull(),
  /** The chain's finalized head when this checkpoint was written (for /health lag). */
  chainFinalized: int64().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Backfill chunks whose blocks are all committed: a re-run of the same range skips them, so a
 * backfill resumes where a crash left it.
 */
export const backfillChunks = pgTable(
  "backfill_chunks",
  {
    fromBlock: int64().notNull(),
    toBlock: int64().notNull(),
    swaps: int64().notNull(),
    completedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fromBlock, t.toBlock] })],
);

/**
 * Partitions of transfers a backfill loads in bulk (db/queries/transfer-stages.ts): its chunks'
 * rows go into a table without indexes (`transfers_s<N>`), whose indexes are built once when the
 * last of them is done, and which is then attached as the partition `transfers_p<N>`. `fromBlock`
 * to `toBlock`: the blocks of the partition the latest run planning it asked for; the stage is
 * finished when completed chunks cover them. Its blocks' coverage (event_ranges) is recorded at
 * the attach, when its rows become visible. A migration that changes transfers' columns must
 * change the stage tables (`transfers_s<N>`) too: the finish merges a stage unlike the table by
 * name, but appends name TRANSFER_COLUMNS.
 */
export const transferStages = pgTable("transfer_stages", {
  partitionStart: int64().primaryKey(),
  fromBlock: int64().notNull(),
  toBlock: int64().notNull(),
  /** "loading" until attached, then "attached" (late chunks of it record their own coverage). */
  state: text().notNull().default("loading"),
  /**
   * Blocks of the chunks completed into it since it was opened, counted as they complete (a chunk
   * run twice counts twice): the exact check of the completed chunks, which reads them all, runs
   * only once this reaches the blocks asked for, not at every completion.
   */
  blocksDone: int64().notNull().default(0),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  attachedAt: timestamp({ withTimezone: true }),
});

/**
 * `tokenpool backfill` runs as operators watch them (`tokenpool status`, /health, metrics): one
 * row per invocation, written every few seconds while it runs. The chunks themselves are
 * recorded in backfill_chunks; this says how far the run is and how fast. A row left "running"
 * whose updated_at stops moving is a process that died (the same command resumes it).
 */
export const backfillRuns = pgTable("backfill_runs", {
  id: serial().primaryKey(),
  fromBlock: int64().notNull(),
  toBlock: int64().notNull(),
  /** Runtimes (spec versions) the range spans: chunks are cut at their boundaries. */
  runtimes: integer().notNull(),
  chunksTotal: integer().notNull(),
  chunksDone: integer().notNull(),
  blocksTotal: int64().notNull(),
  /** Including the blocks earlier runs (or the follower) had already indexed. */
  blocksDone: int64().notNull(),
  /** Blocks per second indexed by this run (a rate, not an amount). */
  blocksPerSecond: doublePrecision().notNull(),
  /** running, done, interrupted (SIGTERM/SIGINT) or failed. */
  state: text().notNull(),
  error: text(),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Events the indexer handles but could not decode or attribute, by block: logged at error
 * level when met, and counted by /health (degraded) and `tokenpool status`. Indexing a block
 * again replaces its rows, so a fixed indexer re-run over the range clears them.
 */
export const skippedEvents = pgTable(
  "skipped_events",
  {
    blockNumber: int64().notNull(),
    eventIndex: integer().notNull(),
    /** "section.method" */
    event: text().notNull(),
    reason: text().notNull(),
    recordedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockNumber, t.eventIndex] })],
);

/**
 * Long tasks of the indexer that outlive a process: the bootstrap snapshot (its pinned block
 * and the last storage key read of each map, so a restart continues the same snapshot) and the
 * first start's history backfill. Written in the same transaction as the rows each step adds;
 * /health and `tokenpool status` show them.
 */
export const indexerTasks = pgTable("indexer_tasks", {
  name: text().primaryKey(),
  state: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
