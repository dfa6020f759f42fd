/**
 * The `tokenpool` command line. Every setting comes from the environment (README,
 * "Configuration"); the flags override the common ones for one run.
 */
import { readFileSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { HEARTBEAT_STALE_SECONDS, loadConfig, type Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import { createLogger, type Logger } from "../shared/logger.js";
import { runMain, runOnce } from "../shared/process.js";
import type { BackfillArgs } from "./backfill.js";

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
 * chopsticks or BullMQ (≈ 150 MB of RSS it would carry for nothing), and --help or a mistyped
 * flag loads none of the store's modules either (0.15 s a run instead of 1.5 s).
 */
const lazy = {
  api: () => import("../api/server.js"),
  devnet: () => import("../indexer/devnet/run.js"),
  backfill: () => import("./backfill.js"),
  start: () => import("./start.js"),
  store: () => import("./store-commands.js"),
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
    const logger = createLogger(config.logLevel, name, undefined, config.logFormat);
    return { logger, stop: await start(config, logger) };
  });
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return Number(raw);
  };
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
]).action((opts) => daemon("start", opts, async (config, logger) => {
  const [{ startAll }, { terminalLines }] = await Promise.all([lazy.start(), import("./start-lines.js")]);
  return startAll(config, logger, terminalLines());
}));

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
  daemon("indexer", opts, async (config, logger) => (await lazy.store()).indexer(config, logger)),
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
    .option("--redo", "also run chunks a previous run completed", false)
    .option(
      "--bulk-min-blocks <blocks>",
      "load the transfers of an empty partition (1,000,000 blocks) in bulk when the run asks for at least this many of its blocks: indexes built once, its history held once attached (0 = never)",
      integer(0, 1_000_000),
      100_000,
    ),
  ["dataDir", "databaseUrl", "redisUrl", "wsUrl", "logLevel"],
).action((opts: Partial<Record<Flag, string>> & BackfillArgs) =>
  runOnce("tokenpool backfill", async () => {
    if (!opts.all && opts.from === undefined) throw new ConfigError("give --from <block> (with or without --to), or --all");
    const config = configOf(opts);
    const logger = createLogger(config.logLevel, "backfill", undefined, config.logFormat);
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
  daemon("worker", opts, async (config, logger) => (await lazy.store()).worker(config, logger, opts.concurrency)),
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
    await (await lazy.store()).verify(config, opts);
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
    await (await lazy.store()).pruneHistoryCommand(config, opts);
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
    await (await lazy.store()).snapshot(config, opts);
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
    await (await lazy.store()).migrate(config);
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
      await (await lazy.store()).status(config, opts);
    }),
  );

await program.parseAsync();
