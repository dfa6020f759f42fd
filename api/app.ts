import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { Database } from "../db/index.js";
import { AppError } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";
import { createTokenIssuer, type TokenIssuer } from "./auth/tokens.js";
import { docsRoutes, DOCS_ASSET_PATHS } from "./docs.js";
import { clientMethod, rawHeader, type AppEnv } from "./env.js";
import { handleError, sendError, validationError } from "./errors.js";
import { bearerAuth, requiresToken } from "./middleware/auth.js";
import { requireJsonBody } from "./middleware/json-body.js";
import { methodNotAllowed } from "./middleware/method-not-allowed.js";
import { rateLimit } from "./middleware/rate-limit.js";
import { staticBudget, type StaticLimits } from "./middleware/static-budget.js";
import { requestLog } from "./middleware/request-log.js";
import { deadline, deadlineOf } from "./middleware/deadline.js";
import { ReadBudget, readBudget, type ReadBudgetOptions } from "./middleware/read-budget.js";
import { strictInput } from "./middleware/strict-input.js";
import { snapshotRoutes, wantsCsv } from "./routes/snapshots.js";
import type { PaceLimits } from "./services/csv-pace.js";
import { DownloadSlots, type DownloadSlotLimits } from "./services/download-slots.js";
import { HolderCsvFiles, type HolderCsvFileLimits } from "./services/holder-csv-files.js";
import type { SnapshotLimits } from "./services/snapshots.js";
import type { SnapshotRunner } from "./snapshot-runner.js";
import { MemoryRateLimitStore } from "./rate-limit/memory-store.js";
import type { RateLimitStore } from "./rate-limit/store.js";
import { assetRoutes } from "./routes/assets.js";
import { authRoutes } from "./routes/auth.js";
import { healthRoutes } from "./routes/health.js";
import { oracleRoutes } from "./routes/oracle.js";
import { poolRoutes } from "./routes/pool.js";
import { dexScreenerRoutes } from "./routes/dexscreener.js";
import { CACHEABLE, etagOf, ifNoneMatches, prewarmOf, responseCache, type ResponseCache } from "./middleware/cache.js";
import { snapshots } from "./snapshot.js";
import { listRoutes } from "./routes/lists.js";
import { marketRoutes } from "./routes/market.js";
import { transferRoutes } from "./routes/transfers.js";
import { balanceRoutes } from "./routes/balances.js";
import { decoyHash } from "./auth/password.js";
import { dashboardRoutes, DASHBOARD_PATHS } from "./dashboard.js";
import { routePath } from "hono/route";
import type { ApiMetrics } from "../shared/metrics.js";
import { OPENAPI_EXAMPLES } from "./openapi-examples.js";

export interface AppDeps {
  /** The primary: accounts are written and read here (a login right after register must see it). */
  db: Database;
  /** Market reads (tokens, holders, pools, prices, health); a read replica, or `db`. */
  readDb?: Database;
  /** Resolves when the store answers (for /health). */
  ping: () => Promise<void>;
  jwtSecret: string;
  /** The issuer of `jwtSecret` (shared with the fast path, so both remember the same verified tokens); default: a new one. */
  tokens?: TokenIssuer;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
  /** Counters of failed logins; default: the rate-limit store (Redis or memory). */
  loginStore?: RateLimitStore;
  /** Proxy hops whose X-Forwarded-For entries are trusted (0 = none). */
  trustProxy: number;
  /** Heartbeat age (s) past which /health says "stale" (default 60; 0 = never). */
  staleAfterSeconds?: number;
  logger: Logger;
  /** Per-block response cache, cleared on each block announcement; unset = ETags only. */
  cache?: ResponseCache;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /** Prometheus metrics of this server (served on METRICS_PORT, not here). */
  metrics?: ApiMetrics;
  /** The store's health pool (DbHandle.health) for /health; default: `readDb` and `ping`. */
  health?: { db: Database; ping: () => Promise<void>; reset?: () => void };
  /** Reads that reach the database, per client and in all (api/middleware/read-budget.ts); unset = unbounded. */
  readBudget?: ReadBudgetOptions;
  /** Milliseconds after which a request is answered 503 (REQUEST_TIMEOUT_MS); unset = none. */
  requestTimeoutMs?: number;
  /** Holder snapshots' job runner (api/snapshot-runner.ts); unset = POST /snapshots answers 503. */
  snapshots?: SnapshotRunner;
  /** New holder snapshot work: unfinished ones, rows per day, the disk cap (default SNAPSHOT_LIMITS). */
  snapshotLimits?: Partial<SnapshotLimits>;
  /** CSV downloads (default CSV_LIMITS): their minimum rate, their places (snapshot lists, current lists), and the current lists' files. */
  csv?: { pace?: PaceLimits; snapshot?: Partial<DownloadSlotLimits>; current?: Partial<DownloadSlotLimits>; files?: HolderCsvFiles };
  /** The budget of the dashboard's and docs' files (api/middleware/static-budget.ts); default STATIC_LIMITS. */
  staticLimits?: StaticLimits;
}

/**
 * New holder snapshot work (issue 38, finding 4): unfinished at once in all, per user and per
 * client key (7 free accounts from one address filled the 20 places), and per IPv6 /48 (4 /64s of
 * one /48 filled them: 8 leaves 12 places to other networks, and a /48 with several subscribers
 * more than one /64's 5); rows per user and per
 * client key over 24 hours (the largest Asset Hub tokens hold ≈ 1.5M accounts); and the disk cap,
 * in rows (SNAPSHOTS_MAX_ROWS: ≈ 150 B a row with its index, docs/operators.md).
 */
export const SNAPSHOT_LIMITS: SnapshotLimits = { queued: 20, perUser: 3, perClient: 5, perPrefix: 8, rowsPerUserDay: 5_000_000, rowsPerClientDay: 10_000_000, maxRows: 20_000_000 };

/**
 * CSV downloads (issue 38, finding 5; docs/api.md "CSV downloads"). A reader at 16 KB/s or more
 * is never cut (csv-pace.ts). Places per user, per client key and per IPv6 /48 (four client
 * keys' worth), with a fair queue of 5 s; the
 * total bounds memory (a download holds at most one 120 KB batch or one 64 KB file read:
 * docs/performance.md), not a scarce resource — neither kind holds a database connection while
 * the client reads. The current lists' files take at most 1 GiB of disk; a token's list is dumped
 * at most once per block, and shared for 30 s.
 */
export const CSV_LIMITS = {
  pace: { minBytesPerSecond: 16 * 1024, graceMs: 30_000 } satisfies PaceLimits,
  downloads: { total: 256, perUser: 2, perClient: 4, perPrefix: 16, queue: 128, queuePerClient: 4, queuePerPrefix: 8, queueMs: 5_000 } satisfies DownloadSlotLimits,
  files: { maxBytes: 1024 * 2 ** 20, dumps: 2, lingerMs: 30_000, reuseMs: 30_000 } satisfies HolderCsvFileLimits,
};

export const MAX_BODY_BYTES = 16 * 1024;

/** The service's own files, outside the REST limit (api/middleware/static-budget.ts). */
export const STATIC_PATHS = ["/openapi.json", "/docs", ...DOCS_ASSET_PATHS, ...DASHBOARD_PATHS];


/** The current holder list as CSV: the one read that is streamed (api/services/holders-csv.ts). */
const CSV_DOWNLOAD = /^\/assets\/holders\/[^/]+$/;

/**
 * Whether a request's reads run in one snapshot (and under its deadline's signal): every GET of
 * indexed data, except the holder list asked as CSV, which holds its own transaction for the
 * length of the download. Any other route asked with `Accept: text/csv` answers JSON, so its
 * reads are in a snapshot like any other.
 */
export function readsInSnapshot(method: string, path: string, accept: string | undefined): boolean {
  return method === "GET" && CACHEABLE.test(path) && !(CSV_DOWNLOAD.test(path) && wantsCsv(accept));
}

/**
 * Reads answered by one statement, which is a snapshot by itself (api/snapshot.ts, runOne): the
 * current token metadata (tokenWithValue) and the totals of all pools (poolStatsNow). With a query
 * string (?at=, ?atTime=) metadata reads history in several statements, so any query string takes
 * a snapshot like any other read.
 */
const ONE_STATEMENT = /^(\/assets\/metadata\/[^/]+|\/pool\/stats)$/;

export function oneStatementRead(path: string, url: string): boolean {
  return ONE_STATEMENT.test(path) && !url.includes("?");
}

/** Builds the whole REST API; listening is main.ts's business. */
export function createApp(deps: AppDeps) {
  const now = deps.now ?? Date.now;
  const tokens = deps.tokens ?? createTokenIssuer(deps.jwtSecret, now);
  // The decoy hash of unknown-email logins, ready before the first one (kept once computed), on a
  // share of its own: "start" is no client's key (those are addresses, /64s or "unknown").
  decoyHash("start").catch(() => {});
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.target, result.error);
    },
  });

  // What only a client's request goes through: an answer computed ahead of a block switch
  // (api/block-switch.ts) is not a request to count, log, limit or authorize — it is served later
  // only to requests that pass these checks.
  const clientOnly = (mw: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> => (c, next) => (prewarmOf(c) ? next() : mw(c, next));
  const metrics = deps.metrics;
  if (metrics) {
    app.use(clientOnly(async (c, next) => {
      const started = performance.now();
      await next();
      // The pattern of the last route the request matched ("/pool/stats/:tokenA/:tokenB"; "/*" when
      // only middleware did: an unknown path), never the path itself — also when a middleware
      // (the cache, the rate limit) answered before the route ran.
      metrics.observe(clientMethod(c), routePath(c, -1) || "unmatched", c.res.status, (performance.now() - started) / 1000);
    }));
  }
  app.use(clientOnly(requestLog(deps.logger)));
  if (deps.requestTimeoutMs) app.use(clientOnly(deadline(deps.requestTimeoutMs, deps.logger)));
  // The service's own files have a budget of their own instead of the REST limit (DESIGN.md).
  const restLimit = rateLimit({ ...deps.rateLimit, trustProxy: deps.trustProxy, now, logger: deps.logger });
  const files = staticBudget({ paths: STATIC_PATHS, limits: deps.staticLimits, trustProxy: deps.trustProxy, now });
  app.use(clientOnly((c, next) => (files.covers(c.req.path) ? files.middleware(c, next) : restLimit(c, next))));
  app.use(strictInput(() => app.openAPIRegistry.definitions as never, ["/docs", "/openapi.json", "/ws", ...DASHBOARD_PATHS, ...DOCS_ASSET_PATHS]));
  const corsHeaders = cors({ origin: "*", allowHeaders: ["Authorization", "Content-Type"], exposeHeaders: ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "ETag", "X-Row-Count", "X-Block-Number"] });
  // Browsers send Origin on every cross-origin request (and preflight); without it CORS headers
  // mean nothing. Skipping them then keeps @hono/node-server's lightweight Response on the hot
  // path (cors sets headers before the handler runs, which forces a full Response per request).
  app.use((c, next) => (rawHeader(c, "origin") === undefined ? next() : corsHeaders(c, next)));
  const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => sendError(c, new AppError("PAYLOAD_TOO_LARGE", `The request body exceeds ${MAX_BODY_BYTES} bytes.`)) });
  // Reading c.req.raw.body makes @hono/node-server build a full fetch Request (with an
  // AbortController) for every request; reads never carry a body, so they skip the check.
  app.use((c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next)));
  app.use(clientOnly(bearerAuth(tokens, requiresToken)));
  app.use(responseCache(deps.cache));
  // Reads of indexed data see one block: every query of an answer runs in one snapshot. (Only
  // these routes: /health pings the store outside any transaction, which on PGlite's single
  // connection would wait for this one.)
  const snapshot = snapshots(deps.readDb ?? deps.db);
  // One budget for the reads of pages and the batches of snapshot CSV downloads.
  const budget = deps.readBudget ? new ReadBudget(deps.readBudget) : undefined;
  if (budget) app.use(readBudget(budget, deps.trustProxy));
  app.use((c, next) => {
    if (!readsInSnapshot(c.req.method, c.req.path, rawHeader(c, "accept"))) return next();
    return oneStatementRead(c.req.path, c.req.url) ? snapshot.runOne(next, deadlineOf(c)) : snapshot.run(next, deadlineOf(c));
  });
  app.use("/auth/*", requireJsonBody());
  app.use("/snapshots", requireJsonBody());

  // Failed sign-ins are throttled whatever the request limit is (RATE_LIMIT_MAX=0 turns off that
  // one only): a password guesser is not a heavy reader.
  app.route("/", authRoutes({ db: deps.db, tokens, guard: { store: deps.loginStore ?? deps.rateLimit.store, fallback: new MemoryRateLimitStore(), trustProxy: deps.trustProxy, now } }));
  const reads = { ...deps, db: snapshot.db };
  app.route("/", oracleRoutes(reads));
  const csvPace = deps.csv?.pace ?? CSV_LIMITS.pace;
  const holderFiles = deps.csv?.files ?? new HolderCsvFiles(deps.readDb ?? deps.db, CSV_LIMITS.files, deps.logger);
  const currentSlots = new DownloadSlots({ ...CSV_LIMITS.downloads, ...deps.csv?.current });
  app.route("/", assetRoutes({ ...reads, store: deps.readDb ?? deps.db, currentCsv: { slots: currentSlots, files: holderFiles, pace: csvPace } }));
  app.route("/", poolRoutes(reads));
  app.route("/", listRoutes(reads));
  app.route("/", marketRoutes(reads));
  app.route("/", transferRoutes(reads));
  app.route("/", balanceRoutes(reads));
  app.route("/", dexScreenerRoutes(reads));
  const snapshotCsv = { slots: new DownloadSlots({ ...CSV_LIMITS.downloads, ...deps.csv?.snapshot }), pace: csvPace, reads: budget };
  app.route("/", snapshotRoutes({ db: deps.db, runner: deps.snapshots, limits: { ...SNAPSHOT_LIMITS, ...deps.snapshotLimits }, csv: snapshotCsv, trustProxy: deps.trustProxy, logger: deps.logger }));
  app.route("/", healthRoutes({ ...reads, ...deps.health }));

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", bearerFormat: "JWT" });
  // The document is the same for the life of the process: built once, at its first request
  // (generating it costs 10–15 ms of CPU, which a client could otherwise buy 100 times a minute).
  let openapi: { body: string; etag: string; bytes: number } | undefined;
  app.get("/openapi.json", (c) => {
    if (!openapi) {
      const doc = app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "TokenPool API",
          version: "0.1.0",
          description: "Tokens, holders, liquidity pools and USD values of a Substrate Asset Hub chain, indexed from its finalized blocks.",
          license: { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" },
        },
        // Relative: the document is served by the API it describes, wherever that is deployed.
        servers: [{ url: "/", description: "The TokenPool API serving this document" }],
        tags: [
          { name: "auth", description: "Register and log in: a bearer token valid for 24 h" },
          { name: "oracle", description: "USD values derived from the chain's own pools against USD stablecoins" },
          { name: "assets", description: "Tokens: metadata, supply, holders, history and transfers" },
          { name: "pool", description: "Liquidity pools: aggregate and per-pair statistics, swaps and candles" },
          { name: "accounts", description: "An account's balances, LP positions, transfers and trades" },
          { name: "snapshots", description: "Holder snapshots at a block, as pages or CSV" },
          { name: "health", description: "Whether the store, the indexer and the chain are current" },
          { name: "dexscreener", description: "The DEX Screener adapter (DEX Screener Adapter Specs v1.1): latest block, asset, pair, and events by block range" },
        ],
      });
      attachExamples(doc);
      const body = JSON.stringify(doc);
      openapi = { body, etag: etagOf(body), bytes: Buffer.byteLength(body) };
    }
    const headers = { "Content-Type": "application/json", ETag: openapi.etag };
    if (ifNoneMatches(rawHeader(c, "if-none-match"), openapi.etag)) return c.body(null, 304, headers);
    c.set("staticBytes", openapi.bytes);
    return c.body(openapi.body, 200, headers);
  });
  docsRoutes(app);

  dashboardRoutes(app);
  // GET /ws is answered by the WebSocket server on upgrade (api/live); a plain GET lands here.
  app.get("/ws", (c) => sendError(c, new AppError("VALIDATION_ERROR", "/ws is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket).")));

  methodNotAllowed(app);
  app.notFound((c) => sendError(c, new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError(handleError(deps.logger));
  return app;
}

export type App = ReturnType<typeof createApp>;

/** Each operation's success answers get their example: the test fixture's real answer (api/openapi-examples.ts). */
function attachExamples(doc: { paths?: object }): void {
  for (const operations of Object.values(doc.paths ?? {}) as object[]) {
    for (const op of Object.values(operations) as { operationId?: string; responses?: Record<string, { content?: Record<string, { example?: unknown }> }> }[]) {
      const examples = op.operationId ? OPENAPI_EXAMPLES[op.operationId] : undefined;
      for (const [status, example] of Object.entries(examples ?? {})) {
        const media = op.responses?.[status]?.content?.["application/json"];
        if (media) media.example = example;
      }
    }
  }
}
