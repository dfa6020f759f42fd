/**
 * The local devnet: a chopsticks chain run in-process from a raw genesis, so the indexer and the
 * tests get a real Asset Hub runtime (real events, real storage layout) without a network.
 */
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { DEFAULT_GENESIS, ROCOCO_GENESIS } from "../../shared/config.js";
import { ConfigError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";

/** chopsticks' own pino levels (it has no "silent"). */
export type ChopsticksLogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

export interface DevnetOptions {
  /**
   * Raw chain spec: a file path (.json, or .json.gz), an https URL, or "rococo" (Rococo Asset Hub
   * from npm: no pools). Unset = the Kusama Asset Hub genesis shipped in indexer/devnet/genesis.
   */
  genesis?: string;
  /** WebSocket port; 0 (the default) picks a free one. */
  port?: number;
  /** Level of chopsticks' own logs; "warn" keeps its per-block chatter out of ours. */
  logLevel?: ChopsticksLogLevel;
  /**
   * chopsticks' "⠋ Fetching" spinner on a terminal, redrawn on every storage read (for as long as
   * the chain runs): off unless asked for, e.g. with LOG_LEVEL=debug.
   */
  progress?: boolean;
  /** Where to say which chain runs when it is not the one asked for; stderr when unset. */
  logger?: Logger;
}

export interface Devnet {
  wsUrl: string;
  port: number;
  close(): Promise<void>;
  /** False on chains without pallet-asset-conversion: seed assets only, expect no pools. */
  assetConversionAvailable: boolean;
}

/**
 * The part of chopsticks used here, typed locally: its own typings import the generic Substrate
 * `@polkadot/api-augment`, which would retype every ApiPromise in the project away from the
 * Asset Hub Kusama augmentation the indexer relies on. So the module is imported through a
 * non-literal specifier that TypeScript does not follow.
 */
interface Context {
  /** Like "[::]:42353". */
  addr: string;
  close(): Promise<void>;
  chain: { head: { number: number; meta: Promise<{ tx: Record<string, unknown> }> }; newBlock(): Promise<unknown> };
}
interface Chopsticks {
  setupWithServer(argv: { genesis: unknown; port: number; "build-block-mode": "Instant" }): Promise<Context>;
  /** Writes timestamp.now and the Aura slot for `timestamp` into the head's storage. */
  timeTravel(chain: Context["chain"], timestamp: number): Promise<void>;
  /** Ends the wasm-executor worker thread, which all chains of the process share. */
  destroyWorker(): Promise<void>;
}
const CHOPSTICKS_MODULE = "@acala-network/chopsticks";

let loaded: Promise<Chopsticks> | undefined;

/**
 * The production image leaves the devnet out (chopsticks and its SQLite are ≈ 110 MB an API or
 * indexer never runs): there, a command that needs it says what to do instead of a module error
 * (a ConfigError: one line, no stack).
 */
export class DevnetNotInstalled extends ConfigError {
  override name = "DevnetNotInstalled";
  constructor() {
    super(
      `the local devnet is not installed here (${CHOPSTICKS_MODULE} is left out of the production image): set WS_URL to a node's WebSocket address (wss://…), or run the image's devnet target (docker build --target devnet; docker compose --profile devnet)`,
    );
  }
}
/** Devnets open in this process; the shared executor worker may only end with the last one. */
let open = 0;

/** Sets `vars` in process.env for the time of `run`, then puts the previous values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const put = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  put(vars);
  try {
    return await run();
  } finally {
    put(previous);
  }
}

/**
 * chopsticks reads its settings from the environment once, when its modules are first evaluated:
 * its log level from LOG_LEVEL (rejecting values outside its own list: our "silent" would throw
 * at import; its loggers copy the level when created), and whether to draw its spinner from
 * stdout being a terminal with neither CI nor TEST set. The only reliable knob is to import it
 * lazily with those variables set for that moment, then put ours back. The first start in a
 * process decides both.
 */
function loadChopsticks(logLevel: ChopsticksLogLevel, progress: boolean): Promise<Chopsticks> {
  loaded ??= withEnv({ LOG_LEVEL: logLevel, TEST: progress ? process.env.TEST : "1" }, async () => {
    try {
      return (await import(CHOPSTICKS_MODULE)) as Chopsticks;
    } catch (err) {
      loaded = undefined;
      const code = (err as { code?: string }).code;
      if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String((err as Error).message).includes(CHOPSTICKS_MODULE)) throw new DevnetNotInstalled();
      throw err;
    }
  });
  return loaded;
}

/** Asset Hub's Aura slot: 12 s, the step chopsticks adds to timestamp.now per block. */
const SLOT_MS = 12_000;

/**
 * A raw genesis has no timestamp.now, so chopsticks builds block 1 during setup from separate
 * Date.now() reads: one for the timestamp inherent, one for the relay-chain slot in the validation
 * data. When a 12 s slot boundary falls between them, cumulus' consensus hook panics with "slot
 * number mismatch", setup logs the failure and leaves the chain at genesis, where every signed
 * extrinsic is then rejected as `badProof` (seen on CI). Recover by pinning the genesis time to
 * the start of the current slot, so both reads agree, and building block 1 again. (Pinning before
 * setup is not possible: chopsticks applies its `timestamp` option after that first block, and a
 * pin behind block 1 fails the next block with "slot moved backwards".)
 */
async function ensureFirstBlock(chopsticks: Chopsticks, ctx: Context): Promise<void> {
  if (ctx.chain.head.number > 0) return;
  await chopsticks.timeTravel(ctx.chain, Math.floor(Date.now() / SLOT_MS) * SLOT_MS);
  await ctx.chain.newBlock();
  if (ctx.chain.head.number === 0) throw new Error("devnet: chopsticks could not build block 1 from the genesis");
}

function notify(logger: Logger | undefined, notice: string): void {
  if (logger) logger.warn(notice);
  else process.stderr.write(`devnet: ${notice}\n`);
}

/** Rococo Asset Hub is the only Asset Hub genesis on npm; its runtime predates AssetConversion. */
async function rococoGenesis(logger: Logger | undefined): Promise<unknown> {
  const { chainSpec } = await import("@substrate/connect-known-chains/rococo_v2_2_asset_hub");
  notify(logger, "running Rococo Asset Hub from @substrate/connect-known-chains — assets only, no asset-conversion pools");
  return JSON.parse(chainSpec);
}

/** What chopsticks takes as `genesis`: a path or URL it reads itself, or the parsed spec. */
async function genesisArgument(genesis: string, logger: Logger | undefined): Promise<unknown> {
  if (genesis === ROCOCO_GENESIS) return rococoGenesis(logger);
  if (genesis.endsWith(".gz") && !/^[a-z]+:\/\//i.test(genesis)) return JSON.parse((await promisify(gunzip)(await readFile(genesis))).toString("utf8"));
  return genesis;
}

/** chopsticks reports "[::]:42353"; if the port was taken it silently moved up to 9 ports on. */
function listeningPort(addr: string): number {
  const port = Number(addr.slice(addr.lastIndexOf(":") + 1));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`devnet: cannot read the port from chopsticks address ${JSON.stringify(addr)}`);
  return port;
}

async function hasAssetConversion(ctx: Context): Promise<boolean> {
  const meta = await ctx.chain.head.meta;
  return meta.tx.assetConversion !== undefined;
}

/**
 * ctx.close() stops the chain and the server but not the executor worker thread, which would
 * keep the process alive after a clean shutdown. chopsticks starts a new one on the next chain.
 */
async function closeDevnet(chopsticks: Chopsticks, ctx: Context): Promise<void> {
  await ctx.close();
  open -= 1;
  if (open === 0) await chopsticks.destroyWorker();
}

/**
 * Starts chopsticks in Instant mode (one block per extrinsic, built at once), so each seeded
 * transaction lands in its own block and a test never waits for a block timer. The chain lives
 * in memory: every start is a fresh genesis.
 */
export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const chopsticks = await loadChopsticks(opts.logLevel ?? "warn", opts.progress ?? false);
  const genesis = await genesisArgument(opts.genesis ?? DEFAULT_GENESIS, opts.logger);
  const requestedPort = opts.port ?? 0;
  const ctx = await chopsticks.setupWithServer({ genesis, port: requestedPort, "build-block-mode": "Instant" });
  open += 1;
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= closeDevnet(chopsticks, ctx));
  try {
    await ensureFirstBlock(chopsticks, ctx);
    const port = listeningPort(ctx.addr);
    if (requestedPort !== 0 && port !== requestedPort) notify(opts.logger, `port ${requestedPort} is in use; chopsticks listens on ${port} instead`);
    return { wsUrl: `ws://127.0.0.1:${port}`, port, close, assetConversionAvailable: await hasAssetConversion(ctx) };
  } catch (err) {
    await close();
    throw err;
  }
}
