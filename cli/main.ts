/**
 * The `tokenpool` command line. Every setting comes from the environment (README,
 * "Configuration"); the flags override the common ones for one run.
 */
import { readFileSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import {
  countSkippedEvents,
  appliedMigrations,
  createDb,
  getCheckpoint,
  getHeartbeat,
  HEARTBEAT_STALE_SECONDS,
  latestBlock,
  latestSkippedEvents,
  pruneHistory,
  pruneTransfers,
  PRUNE_LOCK_TIMEOUT_MS,
  latestBackfill,
  backfillMetricSource,
  taskProgress,
  SHIPPED_MIGRATIONS,
} from "../db/index.js";
import { loadConfig, type Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import { createLogger, type Logger } from "../shared/logger.js";
import { runMain, runOnce } from "../shared/process.js";
import type { BackfillArgs } from "./backfill.js";
import { backfillLine, taskLines } from "./status-lines.js";

const FLAGS = {
  port: ["--port <n>", "HTTP port of the API", "PORT"],
  host: ["--host <address>", "interface the API listens on", "HOST"],
  dataDir: ["--data-dir <path>", "embedded database and generated secret", "DATA_DIR"],
  databaseUrl: ["--database-url <url>", "PostgreSQL instead of the embedded PGlite", "DATABASE_URL"],
  redisUrl: ["--redis-url <url>", "Redis for shared rate-limit counters and backfill jobs", "REDIS_URL"],
  wsUrl: ["--ws-url <url>", "the chain's WebSocket RPC endpoint", "WS_URL"],
  logLevel: ["--log-level <level>", "fatal, error, warn, info, debug, trace or silent", "LOG_LEVEL"],
} as const;
type Flag = keyof typeof FLAGS;

function withFlags(command: Command, flags: Flag[]): Command {
  for (const f of flags) {
    const [spec, help, env] = FLAGS[f];
    command.addOption(new Option(spec, `${help} (env ${env})`));
  }
  return command;
}

/*
 * Each command imports what it runs when it runs: `tokenpool api` never loads @polkadot/api,
 * chopsticks or BullMQ (≈ 150 MB of RSS it would carry for nothing), and --help stays quick.
 */
const lazy = {
  api: () => import("../api/server.js"),
  service: () => import("../indexer/service.js"),
  jobs: () => import("../indexer/jobs.js"),
  devnet: () => import("../indexer/devnet/run.js"),
  backfill: () => import("./backfill.js"),
  verify: () => import("../indexer/verify.js"),
  connect: () => import("../indexer/chain/connect.js"),
  reader: () => import("../indexer/chain/reader.js"),
  start: () => import("./start.js"),
  snapshot: () => import("./snapshot.js"),
};

/** The environment with the given flags laid over it, validated once. */
function configOf(opts: Partial<Record<Flag, string>>): Config {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [flag, value] of Object.entries(opts)) {
    if (value !== undefined && flag in FLAGS) env[FLAGS[flag as Flag][2]] = value;
  }
  return loadConfig(env);
}

function daemon(name: string, opts: Partial<Record<Flag, string>>, start: (config: Config, logger: Logger) => Promise<() => Promise<void>>): Promise<void> {
  return runMain(`tokenpool ${name}`, async () => {
    const config = configOf(opts);
    const logger = createLogger(config.logLevel, name);
    return { logger, stop: await start(config, logger) };
  });
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return Number(raw);
  };
}

function need<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new ConfigError(message);
  return value;
}

const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
const program = new Command("tokenpool")
  .description("Token and liquidity-pool data service for Substrate Asset Hub chains")
  .version(version)
  .showSuggestionAfterError(false);

withFlags(program.command("start").description("devnet (without WS_URL) + indexer + API in one process tree: what `npm start` runs"), [
  "port",
  "host",
  "dataDir",
  "databaseUrl",
  "redisUrl",
  "wsUrl",
  "logLevel",
]).action((opts) => daemon("start", opts, async (config, logger) => (await lazy.start()).startAll(config, logger)));

withFlags(program.command("api").description("the REST API only; run as many as you like (share REDIS_URL and DATABASE_URL)"), [
  "port",
  "host",
  "dataDir",
  "databaseUrl",
  "redisUrl",
  "logLevel",
]).action((opts) =>
  daemon("api", opts, async (config, logger) => {
    const server = await (await lazy.api()).startApiServer(config, logger);
    return () => server.close();
  }),
);

withFlags(program.command("indexer").description("the follower daemon only: follows WS_URL's finalized blocks into the database"), [
  "dataDir",
  "databaseUrl",
  "wsUrl",
  "logLevel",
]).action((opts) =>
  daemon("indexer", opts, async (config, logger) => {
    if (!config.wsUrl) throw new ConfigError("WS_URL must be set for the indexer (ws:// or wss:// URL of the chain's RPC), or pass --ws-url");
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
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
  }),
);

withFlags(
  program
    .command("backfill")
    .description("index a historical block range (swaps, liquidity, reserves, prices, blocks), or the whole chain with --all; BullMQ jobs with REDIS_URL, in-process chunks without")
    .option("--from <block>", "first block of the range", integer(1))
    .option("--to <block>", "last block of the range (default and at most: the follower's checkpoint; the finalized head for a store without one)", integer(1))
    .option("--all", "the whole chain: --from 1 to the default end", false)
    .option("--chunk <blocks>", "blocks per chunk (one job)", integer(1, 1_000_000), 1_000)
    .option("--workers <n>", "chunks run at once by this process (with REDIS_URL, 0 = leave them to `tokenpool worker`)", integer(0, 64), 1)
    .option("--redo", "also run chunks a previous run completed", false),
  ["dataDir", "databaseUrl", "redisUrl", "wsUrl", "logLevel"],
).action((opts: Partial<Record<Flag, string>> & BackfillArgs) =>
  runOnce("tokenpool backfill", async () => {
    if (!opts.all && opts.from === undefined) throw new ConfigError("give --from <block> (with or without --to), or --all");
    const config = configOf(opts);
    const logger = createLogger(config.logLevel, "backfill");
    const stop = new AbortController();
    const interrupt = () => {
      if (!stop.signal.aborted) process.stderr.write("tokenpool backfill: stopping after the chunks in flight…\n");
      stop.abort();
    };
    process.on("SIGTERM", interrupt).on("SIGINT", interrupt);
    const { backfillOptions, runBackfill } = await lazy.backfill();
    const s = await runBackfill(config, backfillOptions(config, logger), opts, stop.signal);
    const skipped = s.skippedChunks > 0 ? `; ${s.skippedChunks} chunks were already done` : "";
    const state = s.interrupted ? "interrupted (run the same command to resume)" : "done";
    process.stdout.write(
      `backfill ${state}: blocks ${s.from}-${s.to}, ${s.blocks} indexed in ${s.seconds.toFixed(1)} s (${s.blocksPerSecond.toFixed(1)} blocks/s, ${s.mode}), ${s.swaps} swaps${skipped}; ${s.coverage}\n`,
    );
  }),
);

withFlags(
  program
    .command("worker")
    .description("run backfill jobs from the BullMQ queue on REDIS_URL (any number of workers, on any machine)")
    .option("--concurrency <n>", "jobs run at once", integer(1, 64), 1),
  ["dataDir", "databaseUrl", "redisUrl", "wsUrl", "logLevel"],
).action((opts: Partial<Record<Flag, string>> & { concurrency: number }) =>
  daemon("worker", opts, async (config, logger) => {
    const redisUrl = need(config.redisUrl, "REDIS_URL must be set for a worker (redis:// URL of the job queue), or pass --redis-url");
    const wsUrl = need(config.wsUrl, "WS_URL must be set for a worker (ws:// or wss:// URL of an archive node), or pass --ws-url");
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
    await handle.migrate();
    const { backfillOptions } = await lazy.backfill();
    const worker = (await lazy.jobs()).startWorker({ redisUrl, prefix: config.redisPrefix, db: handle.db, wsUrl, options: backfillOptions(config, logger), concurrency: opts.concurrency });
    logger.info({ concurrency: opts.concurrency }, "worker: waiting for backfill jobs");
    return async () => {
      await worker.close();
      await handle.close();
    };
  }),
);

withFlags(
  program
    .command("verify")
    .description("compare the store with chain storage at its checkpoint block (tokens, pools, holders); exit 1 on drift")
    .option("--sample <n>", "check about n random holders from each side instead of all of them", integer(1, 10_000_000))
    .option("--repair", "write the chain's values where they differ (never over a newer row)", false)
    .option("--json", "print the report as one JSON object", false),
  ["dataDir", "databaseUrl", "wsUrl", "logLevel"],
).action((opts: Partial<Record<Flag, string>> & { sample?: number; repair: boolean; json: boolean }) =>
  runOnce("tokenpool verify", async () => {
    const config = configOf(opts);
    const wsUrl = need(config.wsUrl, "WS_URL must be set for verify (the chain the store was built from), or pass --ws-url");
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
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
  }),
);

withFlags(
  program
    .command("prune-history")
    .description("retain less: give up balance and token history (and with --transfers, transfers) before a block, exactly (answers as of it and later are unchanged; earlier blocks are refused from then on)")
    .requiredOption("--before <block>", "the new first block of history (at most the checkpoint)", integer(0))
    .option("--transfers", "give up transfers before the block too (lists then say where they start: historyFrom)"),
  ["dataDir", "databaseUrl"],
).action((opts: Partial<Record<Flag, string>> & { before: number; transfers?: boolean }) =>
  runOnce("tokenpool prune-history", async () => {
    const config = configOf(opts);
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb, lockTimeoutMs: PRUNE_LOCK_TIMEOUT_MS });
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
  }),
);

withFlags(
  program
    .command("snapshot")
    .description("every holder of a token as of a block, as CSV (rank,address,balance): computed once and kept, resumable; the same as POST /snapshots")
    .requiredOption("--token <id>", "the token id", integer(0))
    .option("--at <block>", "the block (default: the newest indexed)", integer(0))
    .option("--at-time <unix>", "or: the last block at or before this time (Unix seconds)", integer(0))
    .requiredOption("--out <file>", 'where to write the CSV ("-" for stdout)'),
  ["dataDir", "databaseUrl"],
).action((opts: Partial<Record<Flag, string>> & { token: number; at?: number; atTime?: number; out: string }) =>
  runOnce("tokenpool snapshot", async () => {
    const config = configOf(opts);
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
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
  }),
);

program
  .command("secret")
  .description("print a new random secret (384 bits, 64 URL-safe characters): for JWT_SECRET, or a database password (it fits in a DATABASE_URL as it is)")
  .action(async () => {
    // Imported when run, like every command: the file needs nothing else of ours.
    const { newSecret } = await import("../shared/secret.js");
    process.stdout.write(`${newSecret()}\n`);
  });

withFlags(program.command("devnet").description("a local chopsticks Asset Hub with a seeded, moving market; prints its ws URL"), ["logLevel"]).action((opts) =>
  daemon("devnet", opts, async (config, logger) => (await lazy.devnet()).runDevnet(config, logger)),
);

withFlags(program.command("migrate").description("apply the database migrations and exit"), ["dataDir", "databaseUrl"]).action((opts) =>
  runOnce("tokenpool migrate", async () => {
    const config = configOf(opts);
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
    await handle.migrate();
    await handle.close();
    process.stdout.write(`migrations applied (${handle.kind})\n`);
  }),
);

withFlags(program.command("status").description("the indexer's checkpoint, the chain head it saw, the lag, its heartbeat, and the backfill queue depth; exit 1 when the heartbeat is stale"), [
  "dataDir",
  "databaseUrl",
  "redisUrl",
])
  .option("--json", "print one JSON object")
  .option("--stale-after <seconds>", `heartbeat age from which the indexer counts as stale: exit 1 (0 = never; default INDEXER_STALE_SECONDS, ${HEARTBEAT_STALE_SECONDS})`, integer(0))
  .action((opts: Partial<Record<Flag, string>> & { json?: boolean; staleAfter?: number }) =>
    runOnce("tokenpool status", async () => {
      const config = configOf(opts);
      const staleAfter = opts.staleAfter ?? config.indexerStaleSeconds;
      const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
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
      const status = {
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
      if (opts.json) process.stdout.write(`${JSON.stringify(status)}\n`);
      else if (!cp) process.stdout.write(`no checkpoint yet (${handle.kind}): the indexer has not committed a block\n${heartbeatLine}${progress}${depth}`);
      else process.stdout.write(`block ${status.block} (${status.blockHash}), chain finalized ${status.finalized}, lag ${status.lag}, block time ${status.blockTime}, written ${status.updatedAt} (${handle.kind})\n${heartbeatLine}${progress}${notIndexed}${depth}`);
      if (stale) {
        // A healthcheck's answer: no indexer keeps this store current.
        process.stderr.write(
          `tokenpool status: stale: the indexer's heartbeat is ${age} s old (over ${staleAfter} s): no indexer is keeping the store current — it is not running, cannot reach the chain, or is stuck at block ${status.block ?? "(none yet)"}\n`,
        );
        process.exitCode = 1;
      }
    }),
  );

await program.parseAsync();
