import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { countSkippedEvents, getCheckpoint, taskProgress, type Database } from "../../db/index.js";
import type { Logger } from "../../shared/logger.js";
import type { AppEnv } from "../env.js";
import { errorBody } from "../errors.js";
import { COMMON_ERRORS, ErrorBody, errors, json } from "../schemas.js";

const Health = z
  .object({
    status: z.enum(["ok", "degraded"]).openapi({
      description: "ok; degraded while the indexer has events it could not decode or attribute on record (indexer.skippedEvents, `tokenpool status`)",
    }),
    chain: z.object({ finalized: z.number().int().nullable().openapi({ description: "Chain's finalized head, as last seen by the indexer" }) }),
    indexer: z.object({
      block: z.number().int().nullable(),
      lag: z.number().int().nullable(),
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
    }),
    db: z.literal("ok"),
  })
  .openapi("Health");

const Unavailable = ErrorBody.extend({
  status: z.literal("down"),
  chain: z.object({ finalized: z.null() }),
  indexer: z.object({ block: z.null(), lag: z.null(), skippedEvents: z.null(), bootstrap: z.null(), history: z.null() }),
  db: z.literal("down"),
}).openapi("HealthUnavailable");

const route = createRoute({
  method: "get",
  path: "/health",
  tags: ["health"],
  summary: "Liveness of the store and progress of the indexer",
  responses: {
    200: json(Health, "The store answers"),
    ...errors("UNAUTHORIZED", ...COMMON_ERRORS),
    503: json(Unavailable, "SERVICE_UNAVAILABLE: the store does not answer (error body plus the health fields)"),
  },
});

const PING_TIMEOUT_MS = 2_000;

export function healthRoutes(deps: { db: Database; ping: () => Promise<void>; logger: Logger }) {
  return new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`store did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      });
      const [cp, skippedEvents, tasks] = await Promise.race([
        deps.ping().then(() => Promise.all([getCheckpoint(deps.db), countSkippedEvents(deps.db), taskProgress(deps.db)])),
        timeout,
      ]).finally(() => clearTimeout(timer));
      const block = cp?.blockNumber ?? null;
      const finalized = cp?.chainFinalized ?? null;
      const lag = block !== null && finalized !== null ? Math.max(0, finalized - block) : null;
      const status = skippedEvents > 0 ? ("degraded" as const) : ("ok" as const);
      return c.json({ status, chain: { finalized }, indexer: { block, lag, skippedEvents, ...tasks }, db: "ok" as const }, 200);
    } catch (err) {
      deps.logger.warn({ err }, "health: store unavailable");
      const body = errorBody("SERVICE_UNAVAILABLE", "The database does not answer.");
      return c.json({ ...body, status: "down" as const, chain: { finalized: null }, indexer: { block: null, lag: null, skippedEvents: null, bootstrap: null, history: null }, db: "down" as const }, 503, { "Retry-After": "5" });
    }
  });
}
