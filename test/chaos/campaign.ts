/**
 * The fault campaign: a real chain (the devnet runtime on chopsticks, seeded and trading), an
 * indexer process (`tokenpool indexer`) on a private PostgreSQL cluster, and an API process on
 * the same cluster. Faults at random moments, from a printed seed:
 * - the indexer killed with SIGKILL — while it bootstraps, while it catches up after being down,
 *   and while it follows — and started again;
 * - the chain connection cut (a relay between indexer and node drops every socket);
 * - PostgreSQL itself stopped (immediate: a crash, no checkpoint) and started again.
 * After each fault /health must answer 200 again and the indexer must move past where it was.
 * At the end every token, holder, pool and LP supply equals chain storage at the checkpoint, and
 * the swap rows are exactly the swap hops of the indexed blocks' events: zero drift, no
 * duplicate, none missing.
 *
 * Used by test/chaos/chaos.test.ts (a short run in `npm test`) and `npm run chaos` (the full one).
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ApiPromise, WsProvider } from "@polkadot/api";
import postgres from "postgres";
import { startApiServer } from "../../api/server.js";
import { createDb, getCheckpoint, getTask, schema } from "../../db/index.js";
import type { BootstrapTask } from "../../indexer/tasks.js";
import { startDevnet } from "../../indexer/devnet/chopsticks.js";
import { fundMarketAccounts, seedMarket, startLiveSwaps } from "../../indexer/devnet/scenario.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { chainSnapshot, dbSnapshot } from "../support/chain.js";
import { startPgCluster } from "../support/pg-cluster.js";
import { startRelay } from "../support/proxy.js";

export interface CampaignOptions {
  kills: number;
  cuts: number;
  outages: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface CampaignResult {
  seed: number;
  kills: { bootstrap: number; catchUp: number; follow: number };
  cuts: number;
  outages: number;
  /** HTTP requests made to the API during the campaign (health polls and reads). */
  requests: number;
  /** Blocks indexed at the end, and swaps rows among them. */
  blocks: number;
  swaps: number;
  /** Differences between the store and chain storage (0 expected). */
  drift: string[];
  durationMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `explain` adds what the campaign saw (the chain's head, the trader's errors, the indexer's last log lines) to a timeout. */
async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000, explain?: () => Promise<string>): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`chaos: timed out waiting for ${what}${explain ? `\n${await explain().catch((err: unknown) => `(no diagnosis: ${String(err)})`)}` : ""}`);
    await sleep(200);
  }
}

/** Every (block, event, hop) of a swap in blocks `from`..`to` of the chain (hashes from the node, not the store). */
async function chainSwaps(api: ApiPromise, from: number, to: number): Promise<Set<string>> {
  const out = new Set<string>();
  for (let n = from; n <= to; n++) {
    const b = { number: n, hash: (await api.rpc.chain.getBlockHash(n)).toHex() };
    const events = (await (await api.at(b.hash)).query.system.events()) as unknown as { event: { section: string; method: string; data: unknown[] } }[];
    events.forEach(({ event }, index) => {
      if (event.section !== "assetConversion" || (event.method !== "SwapExecuted" && event.method !== "SwapCreditExecuted")) return;
      // By field name: the position of `path` differs between runtime versions.
      const data = event.data as unknown as { names?: string[] | null } & { toJSON(): unknown }[];
      const path = data[data.names!.indexOf("path")]!.toJSON() as unknown[];
      for (let hop = 0; hop < path.length - 1; hop++) out.add(`${b.number}/${index}/${hop}`);
    });
  }
  return out;
}

export async function runCampaign(opts: CampaignOptions): Promise<CampaignResult> {
  const started = Date.now();
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  let state = seed || 1;
  const random = () => ((state = (state * 48_271) % 2_147_483_647) / 2_147_483_647);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const say = opts.log ?? (() => {});
  const log = (line: string) => say(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);
  const childLog = path.join(tmpdir(), `tokenpool-chaos-${seed}.log`);
  const reportDir = mkdtempSync(path.join(tmpdir(), "tokenpool-chaos-report-"));
  log(`chaos: seed ${seed} (replay with CHAOS_SEED=${seed}): ${opts.kills} kills, ${opts.cuts} cuts, ${opts.outages} PostgreSQL outages`);

  const genesis = loadConfig().devnetGenesis;
  const devnet = await startDevnet({ genesis, port: 0 });
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  const pg = await startPgCluster();
  const relay = await startRelay({ host: "127.0.0.1", port: devnet.port });
  const apiConfig = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: randomBytes(32).toString("base64url"), DATABASE_URL: pg.url, RATE_LIMIT_MAX: "0" });
  let child: ChildProcess | undefined;
  let childBlock = 0;
  let following = false;
  let bootstrapping = false;
  const apiErrors: string[] = [];
  let requests = 0;
  const kills = { bootstrap: 0, catchUp: 0, follow: 0 };
  let cuts = 0;
  let outages = 0;
  let trading: { stop(): Promise<void> } | undefined;
  const tradeErrors: string[] = [];
  let server: Awaited<ReturnType<typeof startApiServer>> | undefined;

  const spawnIndexer = () => {
    childBlock = 0;
    following = false;
    bootstrapping = false;
    const env = { ...process.env, WS_URL: relay.url, DATABASE_URL: pg.url, LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? "debug", INDEXER_BATCH_BLOCKS: "2", ORACLE_MIN_LIQUIDITY_USD: "1", INDEXER_HISTORY_HOURS: "0" };
    // SIGUSR2 makes the child write a diagnostic report (its sockets and timers): see diagnosis.
    const p = spawn(process.execPath, ["--report-on-signal", "--report-signal=SIGUSR2", `--report-directory=${reportDir}`, "bin/tokenpool.mjs", "indexer"], { env, stdio: ["ignore", "pipe", "pipe"] });
    p.stderr?.on("data", (chunk: Buffer) => appendFileSync(childLog, chunk));
    let buffered = "";
    p.stdout?.on("data", (chunk: Buffer) => {
      appendFileSync(childLog, chunk);
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as { msg?: string; to?: number; block?: number; lag?: number };
          if (entry.msg === "indexer: batch committed") {
            childBlock = Math.max(childBlock, entry.to ?? 0);
            if (entry.lag === 0) following = true;
          }
          if (entry.msg === "indexer: following finalized heads") childBlock = Math.max(childBlock, entry.block ?? 0);
          if (entry.msg?.startsWith("indexer: no checkpoint; bootstrapping")) bootstrapping = true;
        } catch {
          // Not a log line.
        }
      }
    });
    child = p;
    return p;
  };
  const kill = async () => {
    const p = child!;
    child = undefined;
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`chaos: the indexer had exited by itself (code ${p.exitCode}, signal ${p.signalCode}); see ${childLog}`);
    const gone = new Promise<void>((resolve) => p.once("exit", () => resolve()));
    p.kill("SIGKILL");
    await gone;
  };
  const health = async () => {
    requests++;
    return fetch(`http://127.0.0.1:${server!.port}/health`)
      .then((r) => r.status)
      .catch(() => 0);
  };
  /** After a fault: the API answers /health with 200, the indexer moves past `before`, and reads answer without a server error. */
  const recovered = async (before: number) => {
    await waitFor("/health to answer 200", async () => (await health()) === 200);
    await waitFor(`the indexer to move past block ${before}`, () => childBlock > before, 180_000, diagnosis);
    for (const path of ["/pool/stats", "/assets", "/pools", "/oracle/value/0", "/pool/stats/KSM/USDt", "/oracle/history/0"]) {
      requests++;
      const status = await fetch(`http://127.0.0.1:${server!.port}${path}`).then((r) => r.status, () => 0);
      if (status >= 500 || status === 0) apiErrors.push(`${path} answered ${status} after a fault`);
    }
  };
  const finalized = async () => (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toNumber();
  const diagnosis = async () => {
    const head = await Promise.race([finalized(), sleep(5_000).then(() => "no answer in 5 s")]);
    let tail = "";
    try {
      tail = readFileSync(childLog, "utf8").trimEnd().split("\n").slice(-20).join("\n");
    } catch {
      tail = "(no indexer log)";
    }
    // What each session on the cluster is doing: a query waiting on a lock, or a transaction left open, shows here.
    let sessions = "";
    try {
      const admin = postgres(pg.url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      const rows = await Promise.race([
        admin.unsafe(`select pid, application_name, state, wait_event_type, wait_event, now() - xact_start as xact_age, left(query, 120) as query from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`),
        sleep(5_000).then(() => []),
      ]);
      await admin.end({ timeout: 1 });
      sessions = rows.map((r) => JSON.stringify(r)).join("\n") || "(none)";
    } catch (err) {
      sessions = `(unreadable: ${String(err)})`;
    }
    // The child's open sockets (the database's port or the relay's, and whether each is active):
    // what a silent indexer waits on.
    let sockets = "(no report)";
    if (child && child.exitCode === null) {
      child.kill("SIGUSR2");
      await sleep(2_000);
      const file = readdirSync(reportDir).filter((f) => f.endsWith(".json")).sort().pop();
      if (file) {
        const report = JSON.parse(readFileSync(path.join(reportDir, file), "utf8")) as { libuv: { type: string; is_active: boolean; remoteEndpoint?: { port: number }; localEndpoint?: { port: number } }[] };
        const tcp = report.libuv.filter((h) => h.type === "tcp" && h.remoteEndpoint);
        const name = (port?: number) => (port === pg.port ? "postgres" : port === Number(new URL(relay.url).port) ? "chain relay" : String(port));
        sockets = tcp.map((h) => `${name(h.remoteEndpoint?.port)}${h.is_active ? "" : " (inactive)"}`).join(", ") || "(no TCP socket)";
        sockets += `; active timers: ${report.libuv.filter((h) => h.type === "timer" && h.is_active).length}`;
      }
    }
    return [
      `indexer sockets: ${sockets}`,
      `chain finalized head: ${head}; indexer process ${child ? `pid ${child.pid}, exit ${child.exitCode ?? child.signalCode ?? "running"}` : "none"}; following: ${following}`,
      `trader errors (${tradeErrors.length}): ${tradeErrors.slice(-5).join(" | ") || "none"}`,
      `database sessions:\n${sessions}`,
      `indexer log (${childLog}), last lines:\n${tail}`,
    ].join("\n");
  };

  try {
    await fundMarketAccounts(api, { holders: 20 });
    const handle = await createDb({ databaseUrl: pg.url });
    await handle.migrate();
    await handle.close();
    server = await startApiServer(apiConfig, createLogger("silent"));
    // The market is seeded while the first indexer bootstraps and follows (the first faults hit
    // that), then keeps trading: a block about every second for the rest.
    const seeding = seedMarket(api, { holders: 20 }).then(() => {
      log("chaos: market seeded; trading");
      trading = startLiveSwaps(api, { intervalMs: 500, onError: (err) => tradeErrors.push(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${err instanceof Error ? err.message : String(err)}`) });
    });

    // Kills during bootstrap (before the first commit), then during catch-up and while following.
    // Bootstrap kills first (each starts a new, empty store), then the rest in a random order, so
    // the final comparison covers most of the run's blocks.
    const bootstraps = Math.ceil(opts.kills / 3);
    const rest: ("catchUp" | "follow" | "cut" | "outage")[] = [];
    for (let i = bootstraps; i < opts.kills; i++) rest.push(i % 2 ? "catchUp" : "follow");
    for (let i = 0; i < opts.cuts; i++) rest.push("cut");
    for (let i = 0; i < opts.outages; i++) rest.push("outage");
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rest[i], rest[j]] = [rest[j]!, rest[i]!];
    }
    const schedule: ("bootstrap" | "catchUp" | "follow" | "cut" | "outage")[] = [...Array.from({ length: bootstraps }, () => "bootstrap" as const), ...rest];

    spawnIndexer();
    for (const fault of schedule) {
      const before = childBlock;
      if (fault === "bootstrap") {
        // A new deployment (an empty database) killed before its first commit, then started again
        // over what the aborted bootstrap wrote.
        await kill();
        const admin = postgres(pg.url.replace(/\/tokenpool$/, "/postgres"), { max: 1, onnotice: () => {} });
        await admin.unsafe("drop database if exists tokenpool with (force)");
        await admin.unsafe("create database tokenpool");
        await admin.end();
        spawnIndexer();
        await waitFor("the new indexer to start its bootstrap", () => bootstrapping, 60_000);
        await sleep(between(0, 50));
        if (childBlock === 0) kills.bootstrap++;
        else kills.follow++;
        await kill();
        spawnIndexer();
        await waitFor("a bootstrap to complete", () => childBlock > 0, 180_000);
      } else if (fault === "catchUp") {
        // Down for a while (the chain moves on), then killed while catching up.
        await kill();
        await sleep(between(5_000, 9_000));
        spawnIndexer();
        // Batches of 2 blocks: after 5-9 s down it is several batches behind at its first commit.
        await waitFor("the restarted indexer to start committing", () => childBlock > 0, 120_000);
        // The first catch-up kill comes at once (at its first commit it is still several batches
        // behind), so that a campaign of 3 kills surely has one; later ones anywhere in it.
        if (kills.catchUp > 0) await sleep(between(0, 300));
        if (following) kills.follow++;
        else kills.catchUp++;
        await kill();
        spawnIndexer();
      } else if (fault === "follow") {
        await waitFor("the indexer to follow the head", () => following, 180_000);
        await sleep(between(0, 3_000));
        kills.follow++;
        await kill();
        spawnIndexer();
      } else if (fault === "cut") {
        await sleep(between(500, 3_000));
        relay.cut();
        cuts++;
      } else {
        await sleep(between(500, 3_000));
        await pg.stop("immediate");
        await sleep(between(1_000, 3_000));
        await pg.start();
        outages++;
      }
      await recovered(fault === "bootstrap" ? 0 : before);
      log(`chaos: ${fault} done; indexer at block ${childBlock}`);
    }

    await seeding;
    await trading?.stop();
    const head = await finalized();
    await waitFor(`the indexer to reach the finalized head ${head}`, () => childBlock >= head, 180_000, diagnosis);
    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child!.kill("SIGTERM");
    if ((await exited) !== 0) throw new Error("chaos: the indexer did not exit 0 on SIGTERM");
    child = undefined;

    const store = await createDb({ databaseUrl: pg.url });
    try {
      const cp = (await getCheckpoint(store.db))!;
      const drift: string[] = [];
      const [db, chain] = await Promise.all([dbSnapshot(store.db), chainSnapshot(api, cp.blockHash)]);
      for (const part of Object.keys(chain) as (keyof typeof chain)[]) {
        const [a, b] = [db[part] as Record<string, unknown>, chain[part] as Record<string, unknown>];
        const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isDeepStrictEqual(a[k], b[k]));
        if (keys.length) drift.push(`${part}: ${keys.length} entries differ from chain storage at block ${cp.blockNumber} (${keys.slice(0, 3).map((k) => `${k}: store ${JSON.stringify(a[k])}, chain ${JSON.stringify(b[k])}`).join("; ")})`);
      }
      const blocks = (await store.db.select({ number: schema.blocks.number, hash: schema.blocks.hash }).from(schema.blocks)).sort((a, b) => a.number - b.number);
      // The bootstrap's block: its state, not its events, was read. Every block after it up to
      // the checkpoint must be on record, with the chain's hash — none skipped, none foreign.
      const pinned = (await getTask<BootstrapTask>(store.db, "bootstrap"))!.number;
      const missingBlocks: number[] = [];
      const byNumber = new Map(blocks.map((b) => [b.number, b.hash]));
      for (let n = pinned; n <= cp.blockNumber; n++) {
        const hash = byNumber.get(n);
        if (hash === undefined) missingBlocks.push(n);
        else if (hash !== (await api.rpc.chain.getBlockHash(n)).toHex()) drift.push(`blocks: block ${n} is ${hash} in the store, not the chain's`);
      }
      if (blocks[0] && blocks[0].number !== pinned) drift.push(`blocks: the lowest block on record is ${blocks[0].number}, not the bootstrap's ${pinned} (a second bootstrap?)`);
      if (missingBlocks.length) drift.push(`blocks: ${missingBlocks.length} blocks between the bootstrap (${pinned}) and the checkpoint (${cp.blockNumber}) not on record (${missingBlocks.slice(0, 5).join(", ")})`);
      // Swaps expected from the chain's own blocks after the bootstrap's, whatever the store holds.
      const expected = await chainSwaps(api, pinned + 1, cp.blockNumber);
      const rows = await store.db.select({ b: schema.swaps.blockNumber, e: schema.swaps.eventIndex, h: schema.swaps.hop }).from(schema.swaps);
      const got = new Set(rows.map((r) => `${r.b}/${r.e}/${r.h}`));
      drift.push(...apiErrors);
      if (got.size !== rows.length) drift.push(`swaps: ${rows.length - got.size} duplicate rows`);
      const missing = [...expected].filter((k) => !got.has(k));
      const extra = [...got].filter((k) => !expected.has(k));
      if (missing.length) drift.push(`swaps: ${missing.length} swap hops on chain not indexed (${missing.slice(0, 5).join(", ")})`);
      if (extra.length) drift.push(`swaps: ${extra.length} rows with no such swap on chain (${extra.slice(0, 5).join(", ")})`);
      // The API reads the same store: a last check over HTTP.
      requests++;
      const stats = (await (await fetch(`http://127.0.0.1:${server.port}/pool/stats`)).json()) as { totalPools: number };
      if (stats.totalPools !== Object.keys(chain.pools).length) drift.push(`/pool/stats: ${stats.totalPools} pools, chain has ${Object.keys(chain.pools).length}`);
      return { seed, kills, cuts, outages, requests, blocks: blocks.length, swaps: rows.length, drift, durationMs: Date.now() - started };
    } finally {
      await store.close();
    }
  } finally {
    child?.kill("SIGKILL");
    await trading?.stop().catch(() => {});
    await server?.close().catch(() => {});
    await relay.close();
    await api.disconnect();
    await devnet.close();
    await pg.destroy();
  }
}
