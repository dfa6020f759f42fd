/**
 * The API process: startApiServer opens its stores (stores.ts), builds the app and its helpers
 * (cache, fast path, holder snapshots, /ws hub, block switch, metrics) and listens, behind the
 * HTTP edge (http-edge.ts); close() takes it all down in order.
 */
import { startSnapshotRunner } from "./snapshot-runner.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { BLOCKS_CHANNEL, type BlockAnnouncement, type DbHandle } from "../db/index.js";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/logger.js";
import { resolveJwtSecret } from "../shared/secret.js";
import { createApp, CSV_LIMITS, type AppDeps } from "./app.js";
import { HolderCsvFiles } from "./services/holder-csv-files.js";
import { CONNECTION_LIMITS, connectionBudget, type ConnectionBudget, type ConnectionLimits } from "./connection-budget.js";
import { markHead } from "./env.js";
import { loadSymbols } from "./canonical.js";
import { dropUntrustedForwarding, trustedPeers } from "./middleware/client-ip.js";
import { answerClientErrors, closeHttp, requestListener, writeJsonError } from "./http-edge.js";
import { createTokenIssuer } from "./auth/tokens.js";
import { ApiMetrics, startMetricsServer } from "../shared/metrics.js";
import { ResponseCache } from "./middleware/cache.js";
import { blockSwitch } from "./block-switch.js";
import { createFastPath } from "./fast-path.js";
import { keepTickShape, stopTickShape } from "./tick-shape.js";
import { snapshots } from "./snapshot.js";
import { readBudgetFor } from "./middleware/read-budget.js";
import { LiveHub, type HubLimits } from "./live/hub.js";
import { attachLive, type LiveLimits, type LiveServer } from "./live/ws.js";
import { closeStores, openStores, type Stores } from "./stores.js";

/**
 * The listening socket's accept queue: connections the kernel has accepted and the process has
 * not taken yet. Node's default is 511; past it, the kernel drops new connections' SYNs and
 * nginx's connects time out (deploy/nginx.conf: 2 s), as a flood from one IPv6 /48 did to both
 * replicas (issue 38). 4,096 rides out a burst eight times as large while the event loop is busy;
 * the kernel caps it at net.core.somaxconn (4,096 by default since Linux 5.4).
 */
export const LISTEN_BACKLOG = 4096;

/** How long shutdown lets requests in flight finish before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface ApiServer {
  port: number;
  /** Subscriptions and block fan-out of this process (GET /ws). */
  hub: LiveHub;
  /** The per-block response cache (REST reads and /ws answers share it); unset with RESPONSE_CACHE_MB=0. */
  cache: ResponseCache | undefined;
  /** The WebSocket endpoint (its open connections). */
  live: Pick<LiveServer, "connections" | "slotsOf">;
  /** Prometheus metrics of this server, and the port /metrics is served on (METRICS_PORT). */
  metrics: ApiMetrics;
  /** Connections closed for exceeding their budget, by reason. */
  connections: ConnectionBudget["closed"];
  metricsPort: number | undefined;
  close(): Promise<void>;
}

export interface ApiServerOptions {
  /** A store the caller owns (see startApiServer). */
  shared?: DbHandle;
  /** WebSocket limits (tests make them small). */
  live?: Partial<LiveLimits>;
  /** The per-block work budget of /ws topics (tests make it small). */
  hub?: Partial<HubLimits>;
  /** The caller serves the metrics (with its own registries: `npm start`). */
  noMetricsServer?: boolean;
  /** HTTP server timeouts (tests make them small). */
  http?: { headersTimeout?: number; requestTimeout?: number; connectionsCheckingInterval?: number };
  /** How long close() lets requests in flight finish before cutting them (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number;
  /** The budget of each HTTP connection and client (tests make it small). */
  connections?: Partial<ConnectionLimits>;
  /** CSV downloads' minimum rate and places (tests make them small); default CSV_LIMITS. */
  csv?: Pick<NonNullable<AppDeps["csv"]>, "pace" | "snapshot" | "current">;
}

/**
 * Opens the store (migrating it), the rate-limit counters and the HTTP listener. A `shared`
 * store is one the caller owns (PGlite allows one instance per DATA_DIR, so `npm start` hands
 * the indexer's to the API); it is left open on close.
 */
export async function startApiServer(config: Config, logger: Logger, options: ApiServerOptions = {}): Promise<ApiServer> {
  // The secret's strength check runs in a worker thread while the stores open; a refusal ends
  // the start at once (closing what opened meanwhile), not after the migrations.
  const secret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const opening = openStores(config, options.shared);
  let jwtSecret: string;
  let stores: Stores;
  try {
    [jwtSecret, stores] = await Promise.all([secret, opening]);
  } catch (err) {
    void opening.then(closeStores, () => {});
    throw err;
  }
  const { handle, own, replica, store } = stores;
  const cache = config.responseCacheMb > 0 ? new ResponseCache(config.responseCacheMb * 1024 * 1024) : undefined;
  const metrics = new ApiMetrics();
  const tokens = createTokenIssuer(jwtSecret, Date.now);
  const rateLimit = { store, max: config.rateLimitMax, windowMs: config.rateLimitWindowMs };
  // Holder snapshots are written to the primary, by one job at a time (BullMQ across replicas with
  // Redis), on the jobs' pool: the API's statement timeout and silence watch would cut their long statements.
  const snapshotRunner = await startSnapshotRunner(handle.jobs, logger, { redisUrl: config.redisUrl, prefix: config.redisPrefix, keep: config.snapshotsKeep, maxAgeHours: config.snapshotsMaxAgeHours, maxRows: config.snapshotsMaxRows });
  // A current holder list is dumped in a transaction of its own, at the database's speed: a quarter
  // of the pool at once on Postgres; on the embedded store (one connection, the indexer's too) one.
  const holderFiles = new HolderCsvFiles(replica?.db ?? handle.db, { ...CSV_LIMITS.files, dumps: handle.kind === "pglite" ? 1 : Math.max(1, Math.floor(config.apiDbConnections / 4)) }, logger);
  const app = createApp({
    snapshots: snapshotRunner,
    snapshotLimits: { maxRows: config.snapshotsMaxRows },
    csv: { ...options.csv, files: holderFiles },
    tokens,
    metrics,
    db: handle.db,
    readDb: replica?.db,
    cache,
    ping: async () => {
      await Promise.all([handle.ping(), replica?.ping()]);
    },
    health: {
      db: (replica ?? handle).health.db,
      ping: async () => void (await Promise.all([handle.health.ping(), replica?.health.ping()])),
      reset: () => [handle, replica].forEach((h) => h?.health.reset()),
    },
    readBudget: readBudgetFor(handle.kind, config.apiDbConnections, config.apiReadsPerClient),
    requestTimeoutMs: config.requestTimeoutMs,
    jwtSecret,
    rateLimit,
    trustProxy: config.trustProxy,
    staleAfterSeconds: config.indexerStaleSeconds,
    logger,
  });
  const shutdown = { closing: false };
  // A client that never finishes its request line and headers (15 s) or its request (30 s) is
  // cut off; Node checks every second rather than every 30 s.
  const http = { headersTimeout: 15_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000, ...options.http };
  const listener = requestListener(app.fetch, config.host, logger, shutdown);
  const fast = cache && createFastPath({ cache, tokens, rateLimit, trustProxy: config.trustProxy, logger, metrics }, listener);
  // A quiet spell must not leave every later answer slower (api/tick-shape.ts).
  keepTickShape();
  const server = createServer({ ...http, requireHostHeader: false });
  const budget = connectionBudget(server, { ...CONNECTION_LIMITS, ...options.connections }, { trustProxy: config.trustProxy, metrics, logger });
  // TRUST_PROXY_FROM: X-Forwarded-For from any other peer is dropped before anything reads it.
  const trusted = config.trustProxy > 0 ? trustedPeers(config.trustProxyFrom) : undefined;
  if (trusted) server.on("upgrade", (req: IncomingMessage) => dropUntrustedForwarding(req, trusted));
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!budget.admit(req, res)) return;
    if (trusted) dropUntrustedForwarding(req, trusted);
    // HEAD is answered as GET (same cache, single flight, snapshot and header block); Node sends
    // no body for it (the response knew it was HEAD when it was made).
    if (req.method === "HEAD") markHead(req);
    if (fast) {
      if (shutdown.closing) res.shouldKeepAlive = false;
      if (!fast(req, res)) listener(req, res);
    } else listener(req, res);
  });
  answerClientErrors(server);
  // An Expect other than 100-continue: 417 with the error body (Node's own 417 is empty).
  server.on("checkExpectation", (_req: IncomingMessage, res: ServerResponse) => writeJsonError(res, 417, 'The only supported expectation is "Expect: 100-continue".', false));
  // Every connection, upgraded ones included, so that shutdown can cut what is left of them.
  const sockets = new Set<Duplex>();
  server.on("connection", (socket: Duplex) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => resolve()));
  // Block announcements come from the primary (NOTIFY is not replicated); values from reads.
  const reads = snapshots(replica?.db ?? handle.db);
  cache?.useSymbols(await loadSymbols(reads.db).catch(() => undefined));
  const hub = new LiveHub(reads.db, logger, cache, reads.run, options.hub);
  const blocks = blockSwitch({ app, cache, hub, replica: replica?.db, reads: replica?.db ?? handle.db, logger });
  const unlisten = await handle.listen(BLOCKS_CHANNEL, (payload) => blocks.announced(JSON.parse(payload) as BlockAnnouncement), () => blocks.resubscribed());
  const live = attachLive(server, {
    hub,
    db: replica?.db ?? handle.db,
    tokens,
    trustProxy: config.trustProxy,
    logger,
    rateLimit,
    limits: options.live,
  });
  metrics.attach({ cache, live, hub });
  // Metrics on their own port (only when METRICS_PORT is set; `npm start` serves the indexer's there too).
  const metricsServer = config.metricsPort !== undefined && !options.noMetricsServer ? await startMetricsServer([metrics.registry], config.metricsPort, config.metricsHost) : undefined;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port, store: handle.kind, readReplica: replica !== undefined, rateLimit: config.redisUrl ? "redis" : "memory" }, "api listening");
  return {
    port,
    hub,
    cache,
    live,
    metrics,
    connections: budget.closed,
    metricsPort: metricsServer?.port,
    async close() {
      await metricsServer?.close();
      await unlisten();
      // Stop accepting, let in-flight requests and /ws peers finish within the grace period (cut
      // after it), then release the store and counters.
      shutdown.closing = true;
      await Promise.all([live.close(), closeHttp(server, sockets, options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, logger)]);
      // The two that wait on Redis at once, each bounded (REDIS_CLOSE_TIMEOUT_MS): an unreachable
      // Redis delays shutdown by one bound, not two.
      await Promise.all([snapshotRunner.close(), store.close()]);
      await holderFiles.close().catch((err: unknown) => logger.warn({ err }, "api: the holder CSV files could not be deleted"));
      stopTickShape();
      await replica?.close();
      if (own) await handle.close();
    },
  };
}
