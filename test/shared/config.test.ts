import { describe, expect, it } from "vitest";
import { DEFAULT_GENESIS, loadConfig } from "../../shared/config.js";
import { ConfigError } from "../../shared/errors.js";

describe("config", () => {
  it("has working defaults with an empty environment", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "0.0.0.0",
      dataDir: "./data",
      databaseUrl: undefined,
      databaseReadUrl: undefined,
      redisUrl: undefined,
      redisPrefix: "tokenpool",
      backfillJobLockSeconds: 30, // BullMQ's own lockDuration and stalledInterval
      jwtSecret: undefined,
      trustProxy: 0,
      wsUrl: undefined,
      rateLimitMax: 100,
      rateLimitWindowMs: 60000,
      responseCacheMb: 64,
      pgliteSharedBuffersMb: 16,
      apiStatementTimeoutMs: 5000,
      apiDbConnections: 10,
      apiReadsPerClient: 4,
      requestTimeoutMs: 10000,
      snapshotsKeep: 100,
      snapshotsMaxAgeHours: 168,
      snapshotsMaxRows: 20_000_000,
      indexerStaleSeconds: 60,
      metricsPort: undefined,
      metricsHost: "127.0.0.1",
      nativeTokenId: 0,
      logLevel: "info",
      logFormat: "auto",
      usdStablecoins: undefined, // the chain's own anchors, chosen by the indexer
      oracleMinLiquidityUsd: "100",
      indexerBatchBlocks: 50,
      indexerPrefetchBlocks: 32,
      indexerRebootstrap: "off",
      indexerHistoryHours: 24,
      indexerSweepReadsPerSecond: 4_000,
      // shipped with the project: a clone with nothing beside it runs the same devnet
      devnetGenesis: DEFAULT_GENESIS,
      devnetPort: 9944,
      devnetSwapIntervalMs: 3000,
    });
  });

  it("reads every variable", () => {
    const c = loadConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/var/lib/tokenpool",
      DATABASE_URL: "postgres://u@db:5432/tp",
      DATABASE_READ_URL: "postgres://u@replica:5432/tp",
      REDIS_URL: "redis://cache:6379",
      REDIS_PREFIX: "tp-prod",
      JWT_SECRET: "gV2S0QI_qd7k6Ozzu3IEcibudo_Hn-Ntp58mhhK46nJul0Q-57ZKNc_idkEG_Gpp",
      TRUST_PROXY: "2",
      WS_URL: "wss://kusama-asset-hub-rpc.polkadot.io",
      RATE_LIMIT_MAX: "0",
      RATE_LIMIT_WINDOW_MS: "1000",
      NATIVE_TOKEN_ID: "4294967295",
      LOG_LEVEL: "silent",
      LOG_FORMAT: "json",
      USD_STABLECOINS: "1984, 1337,1984",
      ORACLE_MIN_LIQUIDITY_USD: "2500.5",
      INDEXER_BATCH_BLOCKS: "10",
      DEVNET_GENESIS: "package.json",
      DEVNET_SWAP_INTERVAL_MS: "500",
      DEVNET_PORT: "9955",
    });
    expect(c).toMatchObject({ usdStablecoins: { ids: [1984, 1337], symbols: [] }, oracleMinLiquidityUsd: "2500.5", indexerBatchBlocks: 10, devnetPort: 9955, devnetSwapIntervalMs: 500, devnetGenesis: "package.json" });
    expect(loadConfig({ DEVNET_GENESIS: "https://example.com/spec.json" }).devnetGenesis).toBe("https://example.com/spec.json");
    expect(loadConfig({ DEVNET_GENESIS: "rococo" }).devnetGenesis).toBe("rococo");
    // Anchors by symbol, and foreign assets by their id above 2^32.
    expect(loadConfig({ USD_STABLECOINS: "USDt, pUSDC,6044162399878595,USDt" }).usdStablecoins).toEqual({ ids: [6044162399878595], symbols: ["USDt", "pUSDC"] });
    expect(c).toMatchObject({ databaseReadUrl: "postgres://u@replica:5432/tp", redisPrefix: "tp-prod" });
    expect(c).toMatchObject({ port: 8080, trustProxy: 2, rateLimitMax: 0, nativeTokenId: 4294967295, logLevel: "silent", logFormat: "json" });
    expect(loadConfig({ API_DB_CONNECTIONS: "20", API_READS_PER_CLIENT: "2", REQUEST_TIMEOUT_MS: "3000" })).toMatchObject({ apiDbConnections: 20, apiReadsPerClient: 2, requestTimeoutMs: 3000 });
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(0);
  });

  it("refuses a JWT_SECRET too short to carry 128 bits (under 39 characters) at once, in one line that says how to make one; the rest of the rule is the API's start (secret.test.ts)", () => {
    // Issue 38: both passed the old rule (≥ 32 characters, ≥ 8 distinct).
    for (const weak of ["changeme-changeme-changeme-changeme", "12345678901234567890123456789012", "Qx7!pL2#vN9@tR4$wZ6^yB8&kM3*hJ5(", "a".repeat(32)]) {
      expect(() => loadConfig({ JWT_SECRET: weak }), weak).toThrow(new RegExp(`^JWT_SECRET is guessable: ${weak.length} characters, and a secret needs at least 39 \\(128 bits of estimated entropy\\); make one with: tokenpool secret$`));
    }
    // Blank is not unset (attack review, issue 25): 40 tabs used to start the API on a generated secret.
    expect(() => loadConfig({ JWT_SECRET: "\t".repeat(40) })).toThrow(/^JWT_SECRET is set but blank; unset it \(a secret is generated into DATA_DIR\) or make one with: tokenpool secret$/);
    expect(() => loadConfig({ JWT_SECRET: "   " })).toThrow(/JWT_SECRET is set but blank/);
    expect(loadConfig({ JWT_SECRET: "" }).jwtSecret).toBeUndefined();
    const good = "gV2S0QI_qd7k6Ozzu3IEcibudo_Hn-Ntp58mhhK46nJul0Q-57ZKNc_idkEG_Gpp";
    expect(loadConfig({ JWT_SECRET: good }).jwtSecret).toBe(good);
  });

  it("TRUST_PROXY_FROM: addresses and CIDR ranges, anything else refused naming it", () => {
    expect(loadConfig({}).trustProxyFrom).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY_FROM: "127.0.0.1, 10.0.0.0/8,fd00::/8" }).trustProxyFrom).toEqual(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
    expect(() => loadConfig({ TRUST_PROXY_FROM: "nginx" })).toThrow(/TRUST_PROXY_FROM must be addresses or CIDR ranges/);
    expect(() => loadConfig({ TRUST_PROXY_FROM: "10.0.0.0/33" })).toThrow(/TRUST_PROXY_FROM/);
    expect(() => loadConfig({ TRUST_PROXY_FROM: " , " })).toThrow(/names no address/);
  });

  it("names the variable in every error", () => {
    const bad: Record<string, string> = {
      PORT: "70000",
      DATABASE_URL: "mysql://x",
      REDIS_URL: "not a url",
      REDIS_PREFIX: "tp:prod",
      DATABASE_READ_URL: "mysql://replica",
      JWT_SECRET: "short",
      TRUST_PROXY: "maybe",
      WS_URL: "http://node:9944",
      RATE_LIMIT_MAX: "-5",
      RATE_LIMIT_WINDOW_MS: "10",
      NATIVE_TOKEN_ID: "4294967296",
      LOG_LEVEL: "loud",
      LOG_FORMAT: "colourful",
      USD_STABLECOINS: "1984,us dt",
      ORACLE_MIN_LIQUIDITY_USD: "1e5",
      INDEXER_BATCH_BLOCKS: "0",
      BACKFILL_JOB_LOCK_SECONDS: "4",
      DEVNET_GENESIS: "ftp://example.com/spec.json",
      DEVNET_SWAP_INTERVAL_MS: "soon",
      DEVNET_PORT: "99999",
      API_DB_CONNECTIONS: "2",
      API_READS_PER_CLIENT: "0",
      REQUEST_TIMEOUT_MS: "10s",
    };
    expect(() => loadConfig({ DEVNET_GENESIS: "no/such/genesis.json" })).toThrow("DEVNET_GENESIS: no such file");
    for (const list of ["1984,", "9007199254740992", "-1", "1e3", "$USD"]) expect(() => loadConfig({ USD_STABLECOINS: list }), list).toThrow("USD_STABLECOINS");
    for (const [name, value] of Object.entries(bad)) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value }), name).toThrow(name);
    }
  });

  it("BACKFILL_JOB_LOCK_SECONDS: whole seconds from 5 to 3600, anything else refused saying what it takes", () => {
    expect(loadConfig({ BACKFILL_JOB_LOCK_SECONDS: "5" }).backfillJobLockSeconds).toBe(5);
    expect(loadConfig({ BACKFILL_JOB_LOCK_SECONDS: " 3600 " }).backfillJobLockSeconds).toBe(3600);
    expect(loadConfig({ BACKFILL_JOB_LOCK_SECONDS: "" }).backfillJobLockSeconds).toBe(30);
    for (const bad of ["4", "0", "3601", "-10", "7.5", "10s", "1e3", "thirty"]) {
      expect(() => loadConfig({ BACKFILL_JOB_LOCK_SECONDS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ BACKFILL_JOB_LOCK_SECONDS: bad }), bad).toThrow(`BACKFILL_JOB_LOCK_SECONDS must be an integer from 5 to 3600, got ${JSON.stringify(bad)}`);
    }
  });

  it("the operator settings of a real chain: prefetch depth, re-bootstrap policy, history hours", () => {
    expect(loadConfig({ INDEXER_PREFETCH_BLOCKS: "1", INDEXER_REBOOTSTRAP: "auto", INDEXER_HISTORY_HOURS: "0" })).toMatchObject({ indexerPrefetchBlocks: 1, indexerRebootstrap: "auto", indexerHistoryHours: 0 });
    expect(() => loadConfig({ INDEXER_REBOOTSTRAP: "yes" })).toThrow('INDEXER_REBOOTSTRAP must be one of off, auto, got "yes"');
    expect(() => loadConfig({ INDEXER_PREFETCH_BLOCKS: "0" })).toThrow(/INDEXER_PREFETCH_BLOCKS/);
    expect(() => loadConfig({ INDEXER_HISTORY_HOURS: "-1" })).toThrow(/INDEXER_HISTORY_HOURS/);
    expect(loadConfig({ INDEXER_SWEEP_READS_PER_SECOND: "0" }).indexerSweepReadsPerSecond).toBe(0);
    expect(() => loadConfig({ INDEXER_SWEEP_READS_PER_SECOND: "x" })).toThrow(/INDEXER_SWEEP_READS_PER_SECOND/);
  });
});
