/**
 * The commands that open the store (indexer, worker, verify, prune-history, snapshot, migrate,
 * status). cli/main.ts imports this module only when one of them runs: the store's modules are
 * ≈ 1.3 s of a process's start, which `tokenpool --help` and a mistyped flag do not need.
 */
import {
  countSkippedEvents,
  appliedMigrations,
  createDb,
  getCheckpoint,
  getHeartbeat,
  latestBlock,
  latestSkippedEvents,
  pruneHistory,
  pruneTransfers,
  PRUNE_LOCK_TIMEOUT_MS,
  latestBackfill,
  backfillMetricSource,
  taskProgress,
  SHIPPED_MIGRATIONS,
  type DbHandle,
} from "../db/index.js";
import type { Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";
import { backfillLine, taskLines } from "./status-lines.js";

const lazy = {
  service: () => import("../indexer/service.js"),
  jobs: () => import("../indexer/jobs.js"),
  backfill: () => import("./backfill.js"),
  verify: () => import("../indexer/verify.js"),
  connect: () => import("../indexer/chain/connect.js"),
  reader: () => import("../indexer/chain/reader.js"),
  snapshot: () => import("./snapshot.js"),
};

type Stop = () => Promise<void>;

function need<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new ConfigError(message);
  return value;
}

function openStore(config: Config, lockTimeoutMs?: number): Promise<DbHandle> {
  return createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb, lockTimeoutMs });
}

export async function indexer(config: Config, logger: Logger): Promise<Stop> {
  if (!config.wsUrl) throw new ConfigError("WS_URL must be set for the indexer (ws:// or wss:// URL of the chain's RPC), or pass --ws-url");
  const handle = await openStore(config);
  await handle.migrate();
  const service = await lazy.service();
  const { IndexerMetrics, startMetricsServer } = await import("../shared/metrics.js");
  // With REDIS_URL, the backfill queue's depth is a metric too (one queue handle, read per scrape).
  const queue = config.redisUrl && config.metricsPort !== undefined ? (await lazy.jobs()).openQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix }) : undefined;
  const metrics = new IndexerMetrics(undefined, queue && (() => queue.queue.getJobCounts("waiting", "active", "delayed", "failed", "completed")), () => backfillMetricSource(handle.db));
  const follower = service.startSingleWriter(config, logger, handle, config.wsUrl, { onOtherChain: "refuse", onFatal: service.exitOnFatal }, metrics);
  const metricsServer = config.metricsPort !== undefined ? await startMetricsServer([metrics.registry], config.metricsPort, config.metricsHost) : undefined;
  if (metricsServer) logger.info({ port: metricsServer.port, host: config.metricsHost }, "indexer: metrics at GET /metrics");
  return async () => {
    await metricsServer?.close();
    await queue?.close();
    await follower.stop();
    await handle.close();
  };
}

export async function worker(config: Config, logger: Logger, concurrency: number): Promise<Stop> {
  const redisUrl = need(config.redisUrl, "REDIS_URL must be set for a worker (redis:// URL of the job queue), or pass --redis-url");
  const wsUrl = need(config.wsUrl, "WS_URL must be set for a worker (ws:// or wss:// URL of an archive node), or pass --ws-url");
  const handle = await openStore(config);
  await handle.migrate();
  const { backfillOptions } = await lazy.backfill();
  const lockSeconds = config.backfillJobLockSeconds;
  const running = (await lazy.jobs()).startWorker({ redisUrl, prefix: config.redisPrefix, db: handle.db, wsUrl, options: backfillOptions(config, logger), concurrency, lockSeconds });
  logger.info({ concurrency, lockSeconds }, "worker: waiting for backfill jobs");
  return async () => {
    await running.close();
    await handle.close();
  };
}

export async function verify(config: Config, opts: { sample?: number; repair: boolean; json: boolean }): Promise<void> {
  const wsUrl = need(config.wsUrl, "WS_URL must be set for verify (the chain the store was built from), or pass --ws-url");
  const handle = await openStore(config);
  await handle.migrate();
  const api = await (await lazy.connect()).connect(wsUrl);
  try {
    const { ChainReader } = await lazy.reader();
    const report = await (await lazy.verify()).verifyStore(handle.db, new ChainReader(api, config.nativeTokenId), { sample: opts.sample, repair: opts.repair });
    const total = Object.values(report.counts).reduce((a, b) => a + b, 0);
    if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      const checked = Object.entries(report.checked).map(([t, n]) => `${n} ${t}`).join(", ");
      process.stdout.write(`verify at block ${report.block} (${report.hash}): ${checked} checked${opts.sample ? ` (holders: a sample of about ${opts.sample} per side)` : ""}\n`);
      for (const d of report.drift.slice(0, 50)) {
        // holder_counts is checked against the store's own holder rows (which are checked against the chain).
        const against = d.table === "holder_counts" ? "holder rows" : "chain";
        process.stdout.write(`  ${d.table} ${d.kind} ${d.key}: store ${JSON.stringify(d.store)}, ${against} ${JSON.stringify(d.chain)}\n`);
      }
      if (report.drift.length > 50) process.stdout.write(`  … ${total - 50} more\n`);
      const counts = Object.entries(report.counts).map(([k, n]) => `${k} ${n}`).join(", ");
      process.stdout.write(total === 0 ? "no drift\n" : `drift: ${total} (${counts})${opts.repair ? "; repaired" : "; run with --repair to write the chain's values"}\n`);
    }
    if (total > 0) process.exitCode = 1;
  } finally {
    await api.disconnect();
    await handle.close();
  }
}

export async function pruneHistoryCommand(config: Config, opts: { before: number; transfers?: boolean }): Promise<void> {
  const handle = await openStore(config, PRUNE_LOCK_TIMEOUT_MS);
  try {
    await handle.migrate();
    const gone = await pruneHistory(handle.db, opts.before);
    process.stdout.write(`history now starts at block ${opts.before}: ${gone.balances} balance rows and ${gone.tokens} token rows deleted\n`);
    if (opts.transfers) {
      const t = await pruneTransfers(handle.db, opts.before);
      process.stdout.write(`transfers now start at block ${opts.before}: ${t.dropped + t.deleted} rows given up (${t.partitions} partitions of 1,000,000 blocks dropped with ${t.dropped} rows, ${t.deleted} rows deleted)\n`);
    }
  } finally {
    await handle.close();
  }
}

export async function snapshot(config: Config, opts: { token: number; at?: number; atTime?: number; out: string }): Promise<void> {
  const handle = await openStore(config);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await handle.migrate();
    const done = await (await lazy.snapshot()).snapshotCommand(handle.db, { token: opts.token, at: opts.at, atTime: opts.atTime, out: opts.out }, stop.signal);
    if (done) process.stderr.write(`snapshot ${done.id}: ${done.holders} holders of token ${opts.token} at block ${done.block}${opts.out === "-" ? "" : ` written to ${opts.out}`}\n`);
    else process.exitCode = 130;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await handle.close();
  }
}

export async function migrate(config: Config): Promise<void> {
  const handle = await openStore(config);
  await handle.migrate();
  await handle.close();
  process.stdout.write(`migrations applied (${handle.kind})\n`);
}

export async function status(config: Config, opts: { json?: boolean; staleAfter?: number }): Promise<void> {
  const staleAfter = opts.staleAfter ?? config.indexerStaleSeconds;
  const handle = await openStore(config);
  // Status reads, it never migrates: pointed at a mistyped DATABASE_URL it created all the
  // tables there. A store that is not (fully) migrated is said so, exit 1.
  const applied = await appliedMigrations(handle.db);
  if (applied < SHIPPED_MIGRATIONS) {
    await handle.close();
    throw new Error(
      applied === 0
        ? `no TokenPool store here (${handle.kind === "pglite" ? `DATA_DIR ${config.dataDir}` : "DATABASE_URL"} has no TokenPool tables): check the setting, or run \`tokenpool migrate\` to create one`
        : `the store has ${applied} of this version's ${SHIPPED_MIGRATIONS} migrations: run \`tokenpool migrate\` (or start the indexer or the API, which migrate)`,
    );
  }
  const [cp, head, skippedCount, skipped, tasks, beat, backfill] = await Promise.all([
    getCheckpoint(handle.db),
    latestBlock(handle.db),
    countSkippedEvents(handle.db),
    latestSkippedEvents(handle.db, 5),
    taskProgress(handle.db),
    getHeartbeat(handle.db),
    latestBackfill(handle.db),
  ]);
  await handle.close();
  const queue = config.redisUrl ? await (await lazy.jobs()).queueCounts({ redisUrl: config.redisUrl, prefix: config.redisPrefix }) : null;
  // The head the indexer saw last: at its last commit, or at its last heartbeat when newer.
  const finalized = cp ? Math.max(cp.chainFinalized, beat?.finalized ?? 0) : (beat?.finalized ?? null);
  const stale = beat !== undefined && staleAfter > 0 && beat.ageSeconds > staleAfter;
  const state = {
    store: handle.kind,
    block: cp?.blockNumber ?? null,
    blockHash: cp?.blockHash ?? null,
    finalized,
    lag: cp ? Math.max(0, finalized! - cp.blockNumber) : null,
    blockTime: head ? new Date(head.timestamp * 1000).toISOString() : null,
    updatedAt: cp?.updatedAt.toISOString() ?? null,
    heartbeat: beat ? { at: beat.at.toISOString(), ageSeconds: Math.floor(beat.ageSeconds), finalized: beat.finalized, block: beat.block } : null,
    stale,
    skippedEvents: { count: skippedCount, latest: skipped },
    ...tasks,
    backfill,
    queue,
  };
  const age = beat ? Math.floor(beat.ageSeconds) : 0;
  const heartbeatLine = !beat
    ? "heartbeat: none on record (no indexer has run on this store yet)\n"
    : `heartbeat: ${age} s ago${beat.finalized !== null ? ` (chain finalized ${beat.finalized} then)` : ""}${stale ? `, stale (over ${staleAfter} s)` : ""}\n`;
  const progress = taskLines(tasks) + backfillLine(backfill);
  const depth = queue
    ? `backfill queue: ${queue.waiting} waiting, ${queue.active} active, ${queue.delayed} delayed, ${queue.failed} failed, ${queue.completed} completed\n`
    : "backfill queue: none (REDIS_URL unset)\n";
  const notIndexed =
    skippedCount === 0
      ? "events not indexed: none\n"
      : `events not indexed: ${skippedCount}${skippedCount >= 10_000 ? "+" : ""} (degraded); latest:\n${skipped.map((e) => `  block ${e.blockNumber} event ${e.eventIndex} ${e.event}: ${e.reason}\n`).join("")}`;
  if (opts.json) process.stdout.write(`${JSON.stringify(state)}\n`);
  else if (!cp) process.stdout.write(`no checkpoint yet (${handle.kind}): the indexer has not committed a block\n${heartbeatLine}${progress}${depth}`);
  else process.stdout.write(`block ${state.block} (${state.blockHash}), chain finalized ${state.finalized}, lag ${state.lag}, block time ${state.blockTime}, written ${state.updatedAt} (${handle.kind})\n${heartbeatLine}${progress}${notIndexed}${depth}`);
  if (stale) {
    // A healthcheck's answer: no indexer keeps this store current.
    process.stderr.write(
      `tokenpool status: stale: the indexer's heartbeat is ${age} s old (over ${staleAfter} s): no indexer is keeping the store current — it is not running, cannot reach the chain, or is stuck at block ${state.block ?? "(none yet)"}\n`,
    );
    process.exitCode = 1;
  }
}
