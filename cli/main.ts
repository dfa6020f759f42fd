/**
 * The `tokenpool` command line. Every setting comes from the environment (README,
 * "Configuration"); the flags override the common ones for one run.
 */
import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { startApiServer } from "../api/server.js";
import { createDb, getCheckpoint, latestBlock } from "../db/index.js";
import { runDevnet } from "../indexer/devnet/run.js";
import { startSingleWriter } from "../indexer/service.js";
import { loadConfig, type Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import { createLogger, type Logger } from "../shared/logger.js";
import { runMain, runOnce } from "../shared/process.js";
import { startAll } from "./start.js";

const FLAGS = {
  port: ["--port <n>", "HTTP port of the API", "PORT"],
  host: ["--host <address>", "interface the API listens on", "HOST"],
  dataDir: ["--data-dir <path>", "embedded database and generated secret", "DATA_DIR"],
  databaseUrl: ["--database-url <url>", "PostgreSQL instead of the embedded PGlite", "DATABASE_URL"],
  redisUrl: ["--redis-url <url>", "Redis for shared rate-limit counters", "REDIS_URL"],
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
]).action((opts) => daemon("start", opts, startAll));

withFlags(program.command("api").description("the REST API only; run as many as you like (share REDIS_URL and DATABASE_URL)"), [
  "port",
  "host",
  "dataDir",
  "databaseUrl",
  "redisUrl",
  "logLevel",
]).action((opts) =>
  daemon("api", opts, async (config, logger) => {
    const server = await startApiServer(config, logger);
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
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await handle.migrate();
    const follower = startSingleWriter(config, logger, handle, config.wsUrl);
    return async () => {
      await follower.stop();
      await handle.close();
    };
  }),
);

withFlags(program.command("devnet").description("a local chopsticks Asset Hub with a seeded, moving market; prints its ws URL"), ["logLevel"]).action((opts) =>
  daemon("devnet", opts, runDevnet),
);

withFlags(program.command("migrate").description("apply the database migrations and exit"), ["dataDir", "databaseUrl"]).action((opts) =>
  runOnce("tokenpool migrate", async () => {
    const config = configOf(opts);
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await handle.migrate();
    await handle.close();
    process.stdout.write(`migrations applied (${handle.kind})\n`);
  }),
);

withFlags(program.command("status").description("the indexer's checkpoint, the chain head it saw, and the lag"), ["dataDir", "databaseUrl"])
  .option("--json", "print one JSON object")
  .action((opts: Partial<Record<Flag, string>> & { json?: boolean }) =>
    runOnce("tokenpool status", async () => {
      const config = configOf(opts);
      const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      await handle.migrate();
      const [cp, head] = await Promise.all([getCheckpoint(handle.db), latestBlock(handle.db)]);
      await handle.close();
      const status = {
        store: handle.kind,
        block: cp?.blockNumber ?? null,
        blockHash: cp?.blockHash ?? null,
        finalized: cp?.chainFinalized ?? null,
        lag: cp ? Math.max(0, cp.chainFinalized - cp.blockNumber) : null,
        blockTime: head ? new Date(head.timestamp * 1000).toISOString() : null,
        updatedAt: cp?.updatedAt.toISOString() ?? null,
      };
      if (opts.json) process.stdout.write(`${JSON.stringify(status)}\n`);
      else if (!cp) process.stdout.write(`no checkpoint yet (${handle.kind}): the indexer has not committed a block\n`);
      else process.stdout.write(`block ${status.block} (${status.blockHash}), chain finalized ${status.finalized}, lag ${status.lag}, block time ${status.blockTime}, written ${status.updatedAt} (${handle.kind})\n`);
    }),
  );

await program.parseAsync();
