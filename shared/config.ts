/**
 * Every setting of TokenPool, read once from the environment and validated. This is the only
 * module that reads process.env; everything else receives a Config.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ipaddr from "ipaddr.js";
import { ConfigError } from "./errors.js";
import { MAKE_SECRET, shortSecret } from "./secret-strength.js";

/** The verification sweep's default node budget: storage entries read per second (indexer/sweep.ts). */
export const SWEEP_READS_PER_SECOND = 4_000;
/** Default age (seconds) past which the indexer's heartbeat means no indexer keeps the store current (INDEXER_STALE_SECONDS). */
export const HEARTBEAT_STALE_SECONDS = 60;

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
export type LogFormat = "auto" | "json" | "pretty";

export interface Config {
  /** HTTP port of the API. */
  port: number;
  /** Interface the API listens on. */
  host: string;
  /** Folder for the embedded database and the generated JWT secret. */
  dataDir: string;
  /** postgres:// URL; unset = embedded PGlite in dataDir. */
  databaseUrl: string | undefined;
  /** postgres:// URL of a read replica for the API's market reads; unset = DATABASE_URL. */
  databaseReadUrl: string | undefined;
  /** redis:// URL; set = rate-limit counters shared through Redis, and backfill jobs on BullMQ. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key TokenPool writes, so deployments (or test runs) can share a Redis. */
  redisPrefix: string;
  /**
   * Seconds a backfill worker's lock on a BullMQ job lasts, and between its checks for jobs whose
   * worker died: a killed worker's chunk is taken over within about twice this.
   */
  backfillJobLockSeconds: number;
  /** HS256 secret for access tokens; unset = generated once and kept in dataDir. */
  jwtSecret: string | undefined;
  /** How many proxy hops to trust in X-Forwarded-For (0 = ignore the header). */
  trustProxy: number;
  /** Addresses or CIDR ranges of the proxies whose X-Forwarded-For is read (TRUST_PROXY_FROM); unset = any peer. */
  trustProxyFrom: string[] | undefined;
  /** Chain WebSocket RPC endpoint for the indexer. */
  wsUrl: string | undefined;
  /** Requests per window per client IP; 0 disables the limit (benchmarks only). */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Port of GET /metrics (Prometheus), separate from the API's; unset = no metrics server. */
  metricsPort: number | undefined;
  /** Interface of the metrics server (default 127.0.0.1: metrics are not for the public). */
  metricsHost: string;
  /** PGlite's shared_buffers (MiB) for the embedded store. */
  pgliteSharedBuffersMb: number;
  /** Bytes of answers the per-block response cache keeps, in MiB (0 = no cache: every read computed). */
  responseCacheMb: number;
  /** statement_timeout of the API's Postgres connections (0 = none): no read may hold a connection longer. */
  apiStatementTimeoutMs: number;
  /** Connections of the API's Postgres pool (its reads may hold all but two; /health has one more of its own). */
  apiDbConnections: number;
  /** Reads that reach the database, per client, at a time (more wait briefly, then 429). */
  apiReadsPerClient: number;
  /** Milliseconds after which a request not yet answered is answered 503. */
  requestTimeoutMs: number;
  /** Finished holder snapshots kept (the newest); older ones are deleted when one finishes. */
  snapshotsKeep: number;
  /** Finished holder snapshots older than this (hours since they finished) are deleted. */
  snapshotsMaxAgeHours: number;
  /** The disk cap of holder snapshots, in rows (kept lists, and the places of those being computed). */
  snapshotsMaxRows: number;
  /** Heartbeat age (s) past which /health says "stale" and `tokenpool status` exits 1 (0 = never). */
  indexerStaleSeconds: number;
  /** tokenId under which the chain's native token (KSM/DOT) is exposed. */
  nativeTokenId: number;
  logLevel: LogLevel;
  /** How log lines are written: JSON, pretty (for a person), or "auto" = pretty on a terminal, JSON otherwise. */
  logFormat: LogFormat;
  /**
   * Tokens valued at exactly 1 USD (the oracle's anchors), by token id or symbol; undefined =
   * the chain's own, chosen from its identity by the indexer.
   */
  usdStablecoins: { ids: number[]; symbols: string[] } | undefined;
  /** Pools with less USD liquidity than this are not used for prices (decimal string). */
  oracleMinLiquidityUsd: string;
  /** Blocks per transaction when the indexer catches up. */
  indexerBatchBlocks: number;
  /** Blocks fetched ahead while catching up (1 = one after the other). */
  indexerPrefetchBlocks: number;
  /** A node without the state after the checkpoint: "off" = fatal error, "auto" = new snapshot at the head. */
  indexerRebootstrap: "off" | "auto";
  /** Hours of history a fresh store backfills after its bootstrap (0 = none). */
  indexerHistoryHours: number;
  /**
   * Seconds between comparisons of every asset's supply and account count with chain storage
   * (at the end of a batch), which find balances that changed without an event (0 = every batch).
   */
  indexerSweepReadsPerSecond: number;
  /**
   * Raw genesis of the local devnet that `npm start` runs without WS_URL: a path (.json or
   * .json.gz), an https URL, or "rococo"; the shipped Kusama Asset Hub genesis by default.
   */
  devnetGenesis: string;
  /** Port of the local devnet's WebSocket RPC. */
  devnetPort: number;
  /** Pause between two live-market extrinsics on the devnet. */
  devnetSwapIntervalMs: number;
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const U32_MAX = 4_294_967_295;

function str(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(", ")}), got an unparsable value`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(" or ")}, got ${parsed.protocol}`);
  }
  return raw;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(", ")}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

/** TRUST_PROXY_FROM: comma-separated IPv4/IPv6 addresses or CIDR ranges (`10.0.0.0/8`, `127.0.0.1`). */
function trustProxyFrom(env: Env): string[] | undefined {
  const raw = str(env, "TRUST_PROXY_FROM");
  if (raw === undefined) return undefined;
  const entries = raw.split(",").map((e) => e.trim()).filter(Boolean);
  for (const e of entries) {
    const ok = e.includes("/") ? (() => { try { ipaddr.parseCIDR(e); return true; } catch { return false; } })() : ipaddr.isValid(e);
    if (!ok) throw new ConfigError(`TRUST_PROXY_FROM must be addresses or CIDR ranges separated by commas, got ${JSON.stringify(e)}`);
  }
  if (entries.length === 0) throw new ConfigError("TRUST_PROXY_FROM is set but names no address");
  return entries;
}

function trustProxy(env: Env): number {
  const raw = str(env, "TRUST_PROXY")?.toLowerCase();
  if (raw === undefined || raw === "false" || raw === "0" || raw === "no") return 0;
  if (raw === "true" || raw === "yes") return 1;
  if (/^\d+$/.test(raw) && Number(raw) <= 16) return Number(raw);
  throw new ConfigError(`TRUST_PROXY must be true, false or a hop count 0-16, got ${JSON.stringify(raw)}`);
}

function redisPrefix(env: Env): string {
  const raw = str(env, "REDIS_PREFIX") ?? "tokenpool";
  // BullMQ joins its keys with ":" and rejects a prefix containing one.
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) throw new ConfigError(`REDIS_PREFIX must be 1-64 letters, digits, "_", "." or "-", got ${JSON.stringify(raw)}`);
  return raw;
}

/** Token ids (up to 2^53 - 1: foreign assets too) or symbols, comma-separated. */
function tokenList(env: Env, name: string): { ids: number[]; symbols: string[] } | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  const parts = raw.split(",").map((p) => p.trim());
  const bad = parts.find((p) => !(/^\d{1,16}$/.test(p) && Number(p) <= Number.MAX_SAFE_INTEGER) && !/^[A-Za-z][A-Za-z0-9._-]{0,31}$/.test(p));
  if (bad !== undefined) {
    throw new ConfigError(`${name} must be a comma-separated list of token ids (0-${Number.MAX_SAFE_INTEGER}) or symbols (a letter, then up to 31 letters, digits, ".", "_" or "-"), got ${JSON.stringify(bad)}`);
  }
  const ids = parts.filter((p) => /^\d+$/.test(p)).map(Number);
  return { ids: [...new Set(ids)], symbols: [...new Set(parts.filter((p) => !/^\d+$/.test(p)))] };
}

function decimal(env: Env, name: string, fallback: string): string {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,30}(\.\d{1,18})?$/.test(raw)) throw new ConfigError(`${name} must be a non-negative decimal number, got ${JSON.stringify(raw)}`);
  return raw;
}

/**
 * The devnet's default genesis, shipped with the project (gzip): Kusama Asset Hub, runtime
 * statemine 1,000,000, with Assets, ForeignAssets, PoolAssets and AssetConversion, so that
 * `npm start` in any clone shows pools and prices.
 */
export const DEFAULT_GENESIS = fileURLToPath(new URL("../indexer/devnet/genesis/asset-hub-kusama-local.json.gz", import.meta.url));
/** DEVNET_GENESIS value for Rococo Asset Hub from @substrate/connect-known-chains (assets only, no pools). */
export const ROCOCO_GENESIS = "rococo";

/** A path must exist now, so that a typo fails here and not deep inside chopsticks. */
function genesis(env: Env): string {
  const raw = str(env, "DEVNET_GENESIS");
  if (raw === undefined) return DEFAULT_GENESIS;
  if (raw === ROCOCO_GENESIS) return raw;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return url(env, "DEVNET_GENESIS", ["https:", "http:"]) ?? raw;
  if (!existsSync(raw)) throw new ConfigError(`DEVNET_GENESIS: no such file ${JSON.stringify(raw)}`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  // Set but blank (spaces, tabs) is a mistake, not "unset": the API would quietly use a generated secret.
  if (env.JWT_SECRET !== undefined && env.JWT_SECRET !== "" && env.JWT_SECRET.trim() === "") throw new ConfigError(`JWT_SECRET is set but blank; unset it (a secret is generated into DATA_DIR) or ${MAKE_SECRET}`);
  // Too short to carry 128 bits is refused here; the full estimate (repeats, dictionary words) runs
  // where the secret is used, as the API starts (shared/secret.ts): ≈ 0.3 s of CPU no other command needs.
  const jwtSecret = str(env, "JWT_SECRET");
  const short = jwtSecret === undefined ? undefined : shortSecret(jwtSecret);
  if (short) throw new ConfigError(`JWT_SECRET ${short}; ${MAKE_SECRET}`);
  const logLevel = (str(env, "LOG_LEVEL") ?? "info") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(logLevel)}`);
  }
  const databaseUrl = url(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const databaseReadUrl = url(env, "DATABASE_READ_URL", ["postgres:", "postgresql:"]);
  if (databaseReadUrl && !databaseUrl) throw new ConfigError("DATABASE_READ_URL needs DATABASE_URL (the primary that users are written to and the replica follows)");
  return {
    port: int(env, "PORT", 3000, 0, 65535),
    host: str(env, "HOST") ?? "0.0.0.0",
    dataDir: str(env, "DATA_DIR") ?? "./data",
    databaseUrl,
    databaseReadUrl,
    redisUrl: url(env, "REDIS_URL", ["redis:", "rediss:"]),
    redisPrefix: redisPrefix(env),
    backfillJobLockSeconds: int(env, "BACKFILL_JOB_LOCK_SECONDS", 30, 5, 3_600),
    jwtSecret,
    trustProxy: trustProxy(env),
    trustProxyFrom: trustProxyFrom(env),
    wsUrl: url(env, "WS_URL", ["ws:", "wss:"]),
    rateLimitMax: int(env, "RATE_LIMIT_MAX", 100, 0, 1_000_000),
    rateLimitWindowMs: int(env, "RATE_LIMIT_WINDOW_MS", 60_000, 1_000, 86_400_000),
    responseCacheMb: int(env, "RESPONSE_CACHE_MB", 64, 0, 4_096),
    pgliteSharedBuffersMb: int(env, "PGLITE_SHARED_BUFFERS_MB", 16, 1, 4_096),
    apiStatementTimeoutMs: int(env, "API_STATEMENT_TIMEOUT_MS", 5_000, 0, 3_600_000),
    apiDbConnections: int(env, "API_DB_CONNECTIONS", 10, 3, 1_000),
    apiReadsPerClient: int(env, "API_READS_PER_CLIENT", 4, 1, 1_000),
    requestTimeoutMs: int(env, "REQUEST_TIMEOUT_MS", 10_000, 100, 3_600_000),
    snapshotsKeep: int(env, "SNAPSHOTS_KEEP", 100, 1, 100_000),
    snapshotsMaxAgeHours: int(env, "SNAPSHOTS_MAX_AGE_HOURS", 168, 1, 24 * 365 * 10),
    snapshotsMaxRows: int(env, "SNAPSHOTS_MAX_ROWS", 20_000_000, 1_000, 10_000_000_000),
    indexerStaleSeconds: int(env, "INDEXER_STALE_SECONDS", HEARTBEAT_STALE_SECONDS, 0, 86_400),
    metricsPort: str(env, "METRICS_PORT") === undefined ? undefined : int(env, "METRICS_PORT", 0, 0, 65535),
    metricsHost: str(env, "METRICS_HOST") ?? "127.0.0.1",
    nativeTokenId: int(env, "NATIVE_TOKEN_ID", 0, 0, U32_MAX),
    logLevel,
    logFormat: oneOf(env, "LOG_FORMAT", ["auto", "json", "pretty"] as const, "auto"),
    usdStablecoins: tokenList(env, "USD_STABLECOINS"),
    oracleMinLiquidityUsd: decimal(env, "ORACLE_MIN_LIQUIDITY_USD", "100"),
    indexerBatchBlocks: int(env, "INDEXER_BATCH_BLOCKS", 50, 1, 10_000),
    indexerPrefetchBlocks: int(env, "INDEXER_PREFETCH_BLOCKS", 32, 1, 256),
    indexerRebootstrap: oneOf(env, "INDEXER_REBOOTSTRAP", ["off", "auto"] as const, "off"),
    indexerHistoryHours: int(env, "INDEXER_HISTORY_HOURS", 24, 0, 24 * 365),
    indexerSweepReadsPerSecond: int(env, "INDEXER_SWEEP_READS_PER_SECOND", SWEEP_READS_PER_SECOND, 0, 1_000_000),
    devnetGenesis: genesis(env),
    devnetPort: int(env, "DEVNET_PORT", 9944, 0, 65535),
    devnetSwapIntervalMs: int(env, "DEVNET_SWAP_INTERVAL_MS", 3_000, 0, 3_600_000),
  };
}

/** Connections the test suites may use; each is optional and its suites skip without it. */
export interface TestServices {
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
}

export function loadTestServices(env: Env = process.env): TestServices {
  return {
    databaseUrl: url(env, "TEST_DATABASE_URL", ["postgres:", "postgresql:"]),
    redisUrl: url(env, "TEST_REDIS_URL", ["redis:", "rediss:"]),
  };
}
