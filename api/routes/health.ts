import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { BACKFILL_STALLED_SECONDS, countSkippedEvents, getCheckpoint, getHeartbeat, HEARTBEAT_STALE_SECONDS, latestBackfill, taskProgress, type Database } from "../../db/index.js";
import type { Logger } from "../../shared/logger.js";
import type { AppEnv } from "../env.js";
import { errorBody } from "../errors.js";
import { COMMON_ERRORS, ErrorBody, errors, json } from "../schemas.js";

const Health = z
  .object({
    status: z.enum(["ok", "degraded", "stale"]).openapi({
      description: `ok; degraded while the indexer has events it could not decode or attribute on record (indexer.skippedEvents, \`tokenpool status\`); stale when the indexer's heartbeat is older than a threshold (default ${HEARTBEAT_STALE_SECONDS} s; indexer.heartbeatAge): no indexer is running, or it cannot reach the chain or get past a block, so the data is not kept current (the API still serves it)`,
    }),
    chain: z.object({ finalized: z.number().int().nullable().openapi({ description: "Chain's finalized head, as last seen by the indexer (with its last heartbeat)" }) }),
    indexer: z.object({
      block: z.number().int().nullable(),
      lag: z.number().int().nullable(),
      heartbeatAge: z.number().int().optional().openapi({
        description: "Seconds since the indexer last reported progress or stood at the chain's head (written every few seconds while it does); absent until an indexer has run on this store",
      }),
      skippedEvents: z.number().int().openapi({ description: `Events the indexer handles but could not decode or attribute, counted up to ${10_000}` }),
      bootstrap: z
        .object({
          block: z.number().int().openapi({ description: "The block the snapshot is pinned to" }),
          finished: z.boolean(),
          accounts: z.number().int().openapi({ description: "Storage entries read (all balance maps)" }),
          holders: z.number().int().openapi({ description: "Non-zero balances written" }),
          perSecond: z.number().nullable().openapi({ description: "Entries read per second by the running process" }),
          etaSeconds: z.number().int().nullable().openapi({ description: "Seconds left for the balance map being read, at that rate" }),
          resumed: z.number().int().openapi({ description: "Times a restarted process continued it" }),
          note: z.string().nullable().openapi({ description: "Why it was started anew or resumed, when it was" }),
        })
        .nullable()
        .openapi({ description: "The store's bootstrap snapshot (null before the first)" }),
      history: z
        .object({
          from: z.number().int(),
          to: z.number().int(),
          hours: z.number().int(),
          done: z.number().int().openapi({ description: "Blocks backfilled" }),
          finished: z.boolean(),
          error: z.string().nullable().openapi({ description: "Why it could not run (a pruned node)" }),
        })
        .nullable()
        .openapi({ description: "The first start's history backfill (INDEXER_HISTORY_HOURS); null when none was started" }),
      backfill: z
        .object({
          from: z.number().int(),
          to: z.number().int(),
          runtimes: z.number().int().openapi({ description: "Runtimes the range spans: chunks are cut at each upgrade" }),
          chunksDone: z.number().int(),
          chunksTotal: z.number().int(),
          blocksDone: z.number().int().openapi({ description: "Blocks of the range indexed, including those earlier runs or the follower had" }),
          blocksTotal: z.number().int(),
          blocksPerSecond: z.number().openapi({ description: "Blocks per second of the run" }),
          etaSeconds: z.number().int().nullable().openapi({ description: "Seconds left at that rate (null unless running)" }),
          state: z.enum(["running", "stalled", "done", "interrupted", "failed"]).openapi({
            description: `stalled: running on record but silent for over ${BACKFILL_STALLED_SECONDS} s (the process died; the same command resumes it); interrupted: stopped by SIGTERM/SIGINT`,
          }),
          error: z.string().nullable().openapi({ description: "Why it failed" }),
          startedAt: z.string(),
          updatedAt: z.string().openapi({ description: "Last written (every few seconds while it runs)" }),
          historyFrom: z.number().int().nullable().openapi({ description: "The store's first block with events (history starts there), now" }),
          gaps: z.number().int().openapi({ description: "Runs of blocks after historyFrom whose events the store lacks (the chunks in flight, a re-bootstrap's skipped blocks), now" }),
          gapBlocks: z.number().int().openapi({ description: "Blocks in those gaps" }),
          moreGaps: z.boolean().openapi({ description: "More gaps than counted (only the newest 100 are)" }),
          bulkLoading: z
            .array(z.object({ partitionStart: z.number().int(), fromBlock: z.number().int(), toBlock: z.number().int() }))
            .openapi({ description: "Partitions of transfers a backfill is loading in bulk: their blocks count as held (historyFrom, gaps) once the partition is attached, when its last chunk completes" }),
        })
        .nullable()
        .openapi({ description: "The latest `tokenpool backfill` run (docs/operators.md, Backfilling the whole chain) and the store's history coverage; null when none ran" }),
      reread: z
        .object({
          block: z.number().int().openapi({ description: "The block the state is read at (the checkpoint stays there until it is done)" }),
          scope: z.enum(["all", "tokens"]).openapi({ description: "all: a new snapshot after a runtime upgrade; tokens: the holders of `tokens`" }),
          tokens: z.array(z.number().int()).openapi({ description: "The tokens whose holders are read again (the first 20)" }),
          tokenCount: z.number().int().openapi({ description: "How many tokens in all (0 for a new snapshot)" }),
          rows: z.number().int().openapi({ description: "Holder rows read again so far (tokens)" }),
          reasons: z.array(z.string()).openapi({ description: "The last five of what called for it: AccountsDestroyed, a supply or account count that moved without an event, a runtime upgrade" }),
        })
        .nullable()
        .openapi({ description: "State being read again because it changed without an event naming it; null when none is under way" }),
      verification: z
        .object({
          pass: z.number().int().openapi({ description: "The pass in progress (passes started since the store began)" }),
          phase: z.enum(["tokens", "pools", "lp", "chain", "store"]).openapi({ description: "tokens, pools, LP positions, every balance of the chain, then every holder row of the store" }),
          block: z.number().int().openapi({ description: "The block the last page was compared at (the checkpoint then)" }),
          passStartedAt: z.string().openapi({ description: "When the pass in progress began (ISO 8601)" }),
          checked: z.number().int().openapi({ description: "Entries compared in this pass" }),
          found: z.number().int().openapi({ description: "Differences found in this pass (each repaired before the sweep moved on)" }),
          repaired: z.record(z.string(), z.number().int()).openapi({ description: 'Differences repaired since the store began, by "table.kind" (holders.ghost, holders.wrong, holders.missing, pools.wrong, tokens.wrong, lp_holders.…; holders.undecodable: chain entries no known layout decodes, logged at error level and not compared)' }),
          lastPass: z
            .object({
              pass: z.number().int(),
              startBlock: z.number().int(),
              endBlock: z.number().int(),
              startedAt: z.string(),
              endedAt: z.string().openapi({ description: "When the last full pass ended: everything served as current was compared with chain storage between startBlock and endBlock" }),
              seconds: z.number(),
              checked: z.number().int(),
              found: z.number().int(),
              upgrade: z.number().int().nullable().openapi({ description: "The runtime upgrade's first block, when the pass was started by one" }),
            })
            .nullable(),
          upgrade: z
            .object({ block: z.number().int(), specName: z.string(), specVersion: z.number().int() })
            .nullable()
            .openapi({ description: "A runtime upgrade whose verification pass is under way: answers as of its block or later are refused (BLOCK_NOT_INDEXED) until it ends" }),
        })
        .nullable()
        .openapi({ description: "The continuous verification of the store against chain storage (docs/chains.md, What the chain does not announce); null before its first page" }),
    }),
    db: z.literal("ok"),
  })
  .openapi("Health");

const Unavailable = ErrorBody.extend({
  status: z.literal("down"),
  chain: z.object({ finalized: z.null() }),
  indexer: z.object({ block: z.null(), lag: z.null(), skippedEvents: z.null(), bootstrap: z.null(), history: z.null(), backfill: z.null(), reread: z.null(), verification: z.null() }),
  db: z.literal("down"),
}).openapi("HealthUnavailable");

const route = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  security: [],
  tags: ["health"],
  summary: "Liveness of the store and progress of the indexer",
  responses: {
    200: json(Health, "The store answers"),
    ...errors("UNAUTHORIZED", ...COMMON_ERRORS),
    503: json(Unavailable, "SERVICE_UNAVAILABLE: the store does not answer (error body plus the health fields)"),
  },
});

const PING_TIMEOUT_MS = 2_000;

/**
 * `staleAfterSeconds`: heartbeat age past which the answer is "stale" (default
 * HEARTBEAT_STALE_SECONDS). `db` and `ping` are the store's health pool (DbHandle.health) in the
 * server: a connection of their own, which reads holding the main pool cannot take. `reset` drops
 * it after a check that failed, so a connection left to a frozen server is not the next check's.
 */
export function healthRoutes(deps: { db: Database; ping: () => Promise<void>; reset?: () => void; logger: Logger; staleAfterSeconds?: number }) {
  const staleAfter = deps.staleAfterSeconds ?? HEARTBEAT_STALE_SECONDS;
  return new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`store did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      });
      const [cp, skippedEvents, tasks, heartbeat, backfill] = await Promise.race([
        deps.ping().then(() => Promise.all([getCheckpoint(deps.db), countSkippedEvents(deps.db), taskProgress(deps.db), getHeartbeat(deps.db), latestBackfill(deps.db)])),
        timeout,
      ]).finally(() => clearTimeout(timer));
      const block = cp?.blockNumber ?? null;
      // The head the indexer saw last: at its last commit, or at its last heartbeat when newer.
      const seen = [cp?.chainFinalized, heartbeat?.finalized].filter((n): n is number => typeof n === "number");
      const finalized = seen.length > 0 ? Math.max(...seen) : null;
      const lag = block !== null && finalized !== null ? Math.max(0, finalized - block) : null;
      const stale = staleAfter > 0 && heartbeat !== undefined && heartbeat.ageSeconds > staleAfter;
      const status = stale ? ("stale" as const) : skippedEvents > 0 ? ("degraded" as const) : ("ok" as const);
      const beat = heartbeat ? { heartbeatAge: Math.floor(heartbeat.ageSeconds) } : {};
      return c.json({ status, chain: { finalized }, indexer: { block, lag, ...beat, skippedEvents, ...tasks, backfill }, db: "ok" as const }, 200);
    } catch (err) {
      deps.logger.warn({ err }, "health: store unavailable");
      deps.reset?.();
      const body = errorBody("SERVICE_UNAVAILABLE", "The database does not answer.");
      return c.json({ ...body, status: "down" as const, chain: { finalized: null }, indexer: { block: null, lag: null, skippedEvents: null, bootstrap: null, history: null, backfill: null, reread: null, verification: null }, db: "down" as const }, 503, { "Retry-After": "5" });
    }
  });
}
