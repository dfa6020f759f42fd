/** The `tokenpool` command as an operator meets it: a real process per call. */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import nodeModule from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { randomUUID, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { appliedMigrations, createDb, insertTransfers, partitionsOf, replaceSkippedEvents, rowsOf, setTask, setCheckpoint } from "../../db/index.js";
import { HEAD_BLOCK, seedMarket, TEN } from "../support/fixtures.js";
import { loadTestServices } from "../../shared/config.js";
import { copyDataDir, migratedDataDir } from "../support/db.js";

const run = promisify(execFile);
const BIN = path.resolve("bin/tokenpool.mjs");
const COMMANDS = ["start", "api", "indexer", "backfill", "worker", "devnet", "migrate", "status", "prune-history", "snapshot"];
const redisUrl = loadTestServices().redisUrl;

async function tokenpool(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The first answer of /health within 120 s (two starts at once, each making a PGlite store, took over 60 on a loaded 2-core machine). */
async function healthy(port: number): Promise<Response | undefined> {
  for (const end = Date.now() + 120_000; Date.now() < end; ) {
    const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    if (res) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("tokenpool CLI", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "tokenpool-cli-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("has --help for the program and every command", async () => {
    const results = await Promise.all([tokenpool(["--help"]), ...COMMANDS.map((c) => tokenpool([c, "--help"]))]);
    expect(results[0]!.code).toBe(0);
    for (const c of COMMANDS) expect(results[0]!.stdout).toContain(`${c} [options]`);
    results.slice(1).forEach((r, i) => {
      expect(r.code, COMMANDS[i]).toBe(0);
      expect(r.stdout).toContain(`Usage: tokenpool ${COMMANDS[i]} [options]`);
    });
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default

  // The preload uses module.registerHooks (Node 22.15 and later; the suite runs on Node 24).
  const hooks = "registerHooks" in nodeModule ? undefined : `Node ${process.version} has no module.registerHooks`;
  it.skipIf(hooks !== undefined)(`--help and a mistyped flag load none of the store's, the API's or the chain's modules (a fraction of a second, not 1.5 s)${hooks ? ` (skipped: ${hooks})` : ""}`, async () => {
    const preload = path.resolve("test/support/loaded-modules.mjs");
    const modulesOf = async (args: string[]) => {
      const { stderr } = await run(process.execPath, ["--import", preload, BIN, ...args]).catch((e: { stderr: string }) => e);
      const line = stderr.split("\n").find((l) => l.startsWith("loaded-modules "));
      return JSON.parse(line!.slice("loaded-modules ".length)) as string[];
    };
    const cases = [["--help"], ["status", "--help"], ["migrate", "--bogus"]];
    const runs = await Promise.all(cases.map(modulesOf));
    for (const [i, args] of cases.entries()) {
      const loaded = runs[i]!;
      // The hook sees the CLI itself: an empty list would pass the check below for nothing.
      expect(loaded.some((url) => url.endsWith("/cli/main.js") || url.endsWith("/cli/main.ts")), args.join(" ")).toBe(true);
      // Paths inside the checkout (its own folders may sit under a directory called api/ or db/).
      const root = pathToFileURL(path.resolve(".")).href;
      const inside = loaded.map((url) => (url.startsWith(root) ? url.slice(root.length) : url));
      expect(inside.filter((url) => /^\/(dist\/)?(db|api|indexer)\/|drizzle-orm|@electric-sql|@polkadot|\/postgres\/|bullmq/.test(url)), args.join(" ")).toEqual([]);
    }
  });

  it("answers a wrong flag, a wrong command or a bad variable with one line and a non-zero exit", async () => {
    // All at once: each fails on its arguments or variables, before any opens the store.
    const [[flag, command, env, missing], backfill, [badFlag]] = await Promise.all([
      Promise.all([
        tokenpool(["status", "--bogus"]),
        tokenpool(["frobnicate"]),
        tokenpool(["api"], { PORT: "http" }),
        tokenpool(["indexer", "--data-dir", dir], { WS_URL: "" }),
      ]),
      Promise.all([
        tokenpool(["backfill", "--from", "x", "--to", "5"]),
        tokenpool(["backfill", "--to", "5"]),
        tokenpool(["backfill", "--from", "1", "--to", "5", "--data-dir", dir], { WS_URL: "" }),
        tokenpool(["worker", "--data-dir", dir], { REDIS_URL: "", WS_URL: "ws://127.0.0.1:1" }),
        tokenpool(["backfill", "--from", "1", "--to", "5", "--workers", "0", "--data-dir", dir], { REDIS_URL: "", WS_URL: "ws://127.0.0.1:1" }),
      ]),
      Promise.all([tokenpool(["migrate", "--database-url", "mysql://x"])]),
    ]);
    for (const r of [flag, command, env, missing]) {
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(flag.stderr).toContain("unknown option '--bogus'");
    expect(command.stderr).toContain("unknown command 'frobnicate'");
    expect(env.stderr).toContain("PORT must be an integer");
    expect(missing.stderr).toContain("WS_URL must be set");
    for (const r of backfill) {
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(backfill[0]!.stderr).toContain("option '--from <block>' argument 'x' is invalid. expected an integer from 1");
    expect(backfill[1]!.stderr).toContain("give --from <block> (with or without --to), or --all");
    expect(backfill[2]!.stderr).toContain("WS_URL must be set for a backfill");
    expect(backfill[3]!.stderr).toContain("REDIS_URL must be set for a worker");
    expect(backfill[4]!.stderr).toContain("--workers must be at least 1 without REDIS_URL");
    expect(badFlag!.code).toBe(1);
    expect(badFlag!.stderr).toContain("DATABASE_URL must use postgres:");
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default

  it("migrate, then status on an empty store", async () => {
    // Before any migration: status says there is no store, and creates none (it only reads).
    const none = await tokenpool(["status", "--data-dir", dir, "--json"], { REDIS_URL: "" });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^tokenpool status: failed: no TokenPool store here \(DATA_DIR .* has no TokenPool tables\)/);
    const peek = await createDb({ dataDir: dir });
    expect(await appliedMigrations(peek.db)).toBe(0);
    await peek.close();
    const migrate = await tokenpool(["migrate", "--data-dir", dir]);
    expect(migrate).toMatchObject({ code: 0, stdout: "migrations applied (pglite)\n" });
    // The two reads at once, the second on a copy of the migrated store (PGlite admits one process per folder).
    const copy = await copyDataDir(dir, await mkdtemp(path.join(tmpdir(), "tokenpool-cli-copy-")));
    try {
      const [status, text] = await Promise.all([tokenpool(["status", "--data-dir", dir, "--json"], { REDIS_URL: "" }), tokenpool(["status", "--data-dir", copy], { REDIS_URL: "" })]);
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toEqual({ store: "pglite", block: null, blockHash: null, finalized: null, lag: null, blockTime: null, updatedAt: null, heartbeat: null, stale: false, skippedEvents: { count: 0, latest: [] }, bootstrap: null, history: null, reread: null, verification: null, backfill: null, queue: null });
      expect(text.stdout).toContain("no checkpoint yet");
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
    // Four processes, the last two at once, each opening PGlite (≈ 3–6 s apiece on a loaded 2-core CI machine).
  }, 90_000);

  it("prune-history --transfers drops the partitions wholly before the block, deletes in the one it falls in, and says how many of each", async () => {
    const store = await migratedDataDir(await mkdtemp(path.join(tmpdir(), "tokenpool-cli-prune-")));
    try {
      const seeded = await createDb({ dataDir: store });
      await seeded.migrate();
      const row = (blockNumber: number) => ({ blockNumber, eventIndex: 0, timestamp: blockNumber * 6, tokenId: 1, fromAccount: "alice", toAccount: "bob", amount: "1", kind: "transfer" as const, event: "assets.Transferred" });
      await insertTransfers(seeded.db, [10, 20, 1_500_000, 2_100_000, 2_400_000, 2_900_000].map(row));
      await setCheckpoint(seeded.db, { blockNumber: 2_900_000, blockHash: "0x29", chainFinalized: 2_900_000 });
      await seeded.close();
      const pruned = await tokenpool(["prune-history", "--data-dir", store, "--before", "2500000", "--transfers"]);
      expect(pruned.code, pruned.stderr).toBe(0);
      expect(pruned.stdout).toContain("transfers now start at block 2500000: 5 rows given up (2 partitions of 1,000,000 blocks dropped with 3 rows, 2 rows deleted)\n");
      const after = await createDb({ dataDir: store });
      expect((await partitionsOf(after.db, "transfers")).map((p) => p.name)).toEqual(["transfers_p2"]);
      expect(rowsOf<{ b: string }>(await after.db.execute(sql`select block_number::text as b from transfers`))).toEqual([{ b: "2900000" }]);
      await after.close();
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  }, 90_000);

  it("snapshot writes every holder at a block as CSV — the same list /assets/holders ranks at the head — and refuses what it cannot answer", async () => {
    const store = await migratedDataDir(await mkdtemp(path.join(tmpdir(), "tokenpool-cli-snapshot-")));
    try {
      const seeded = await createDb({ dataDir: store });
      await seeded.migrate();
      await seedMarket(seeded.db);
      // The current holder list, in rank order: at the head, a snapshot must equal it.
      const want = rowsOf<{ account: string; balance: string }>(await seeded.db.execute(sql`select account, balance::text as balance from holders where token_id = ${TEN} and balance > 0 order by balance desc, account`));
      await seeded.close();
      expect(want.length).toBeGreaterThan(1);
      const out = path.join(store, "holders.csv");
      const first = await tokenpool(["snapshot", "--data-dir", store, "--token", String(TEN), "--at", String(HEAD_BLOCK), "--out", out]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain(`${want.length} holders of token ${TEN} at block ${HEAD_BLOCK} written to ${out}`);
      const csv = await readFile(out, "utf8");
      expect(csv.split("\n")).toEqual(["rank,address,balance", ...want.map((w, i) => `${i + 1},${w.account},${w.balance}`), ""]);
      const refusals = [
        [["--token", "424242"], /did not exist at block/],
        [["--token", String(TEN), "--at", "1"], /before the store's balance history, which starts at block/],
        [["--token", String(TEN), "--at", String(HEAD_BLOCK + 1)], /is not indexed yet/],
        [["--token", String(TEN), "--at", "5", "--at-time", "1795000000"], /give --at \(a block\) or --at-time \(Unix seconds\), not both/],
      ] as const;
      // The asks below at once, each on its own copy of the store as the first snapshot left it
      // (PGlite admits one process per folder), each refusal with its own --out.
      const copies = await Promise.all(refusals.map((_, i) => copyDataDir(store, path.join(store, `copy${i}`))));
      // Asked again: the kept snapshot, written out again (no second computation), to stdout this time.
      const [again, ...refused] = await Promise.all([
        tokenpool(["snapshot", "--data-dir", store, "--token", String(TEN), "--out", "-"]),
        ...refusals.map(([args], i) => tokenpool(["snapshot", "--data-dir", copies[i]!, ...args, "--out", path.join(copies[i]!, "x.csv")])),
      ]);
      expect(again).toMatchObject({ code: 0, stdout: csv });
      for (const [i, [, reason]] of refusals.entries()) {
        const r = refused[i]!;
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toMatch(reason);
        await expect(readFile(path.join(copies[i]!, "x.csv"))).rejects.toThrow(); // no file, not even a partial one
      }
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  }, 120_000);

  it("status lists the events the indexer could not index", async () => {
    const store = await createDb({ dataDir: dir });
    await store.migrate();
    await setCheckpoint(store.db, { blockNumber: 7, blockHash: "0x07", chainFinalized: 9 });
    await replaceSkippedEvents(store.db, [7], [{ blockNumber: 7, eventIndex: 3, event: "assetConversion.SwapExecuted", reason: "no known pool for hop 0 (10 → 0)" }]);
    await setTask(store.db, "bootstrap", { number: 5, hash: "0x05", map: 0, lastKey: "0x", accounts: 4000, holders: 3900, mapEntries: 4000, fraction: 0.4, perSecond: 800, etaSeconds: 7, startedAt: "", resumed: 1, finished: false, note: "resumed at 2000 accounts" });
    await setTask(store.db, "history", { from: 1, to: 5, hours: 24, done: 2, finished: false, error: null });
    const lastPass = { pass: 1, startBlock: 3, endBlock: 6, startedAt: "2026-11-27T10:00:00.000Z", endedAt: "2026-11-27T10:14:37.000Z", seconds: 877, checked: 3_400_001, found: 400, upgrade: null };
    await setTask(store.db, "sweep", { pass: 2, passStartedAt: lastPass.endedAt, passStartBlock: 6, phase: "store", chain: { map: 0, lastKey: null }, store: null, block: 7, checked: 10, found: 1, repaired: { "holders.ghost": 101 }, upgrade: null, lastPass });
    await store.close();
    // The two reads at once, the second on a copy (PGlite admits one process per folder).
    const copy = await copyDataDir(dir, await mkdtemp(path.join(tmpdir(), "tokenpool-cli-copy-")));
    const [text, jsonRun] = await Promise.all([tokenpool(["status", "--data-dir", dir], { REDIS_URL: "" }), tokenpool(["status", "--data-dir", copy, "--json"], { REDIS_URL: "" })]).finally(() => rm(copy, { recursive: true, force: true }));
    expect(text.stdout).toContain("events not indexed: 1 (degraded); latest:\n  block 7 event 3 assetConversion.SwapExecuted: no known pool for hop 0 (10 → 0)\n");
    expect(text.stdout).toContain("bootstrap: in progress at block 5, 4000 accounts read, 3900 holders, 800/s, about 7 s left in the current map, resumed 1× (resumed at 2000 accounts)\n");
    expect(text.stdout).toContain("history: in progress, blocks 1–5 (24 h), 2/5\n");
    expect(text.stdout).toContain(
      "verification: pass 2, store at block 7, 10 entries compared, 1 differences; last full pass 1 ended 2026-11-27T10:14:37.000Z (blocks 3–6, 877 s, 3400001 entries, 400 differences); repaired since the start: holders.ghost 101\n",
    );
    const json = JSON.parse(jsonRun.stdout);
    expect(json).toMatchObject({ block: 7, lag: 2, skippedEvents: { count: 1, latest: [{ blockNumber: 7, eventIndex: 3, event: "assetConversion.SwapExecuted" }] } });
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default

  it("status exits 1, saying why, when the indexer's heartbeat is stale (the compose healthcheck); 0 while it is fresh", async () => {
    // The store of the test before: checkpoint 7, chain finalized 9 at that commit. An indexer
    // then saw the head at 12, and has not been heard of for 5 minutes (dead, or stuck).
    const store = await createDb({ dataDir: dir });
    await setTask(store.db, "heartbeat", { finalized: 12, block: 7 });
    await store.db.execute(sql`update indexer_tasks set updated_at = now() - interval '300 seconds' where name = 'heartbeat'`);
    await store.close();
    // The four reads of this state at once: three on copies (PGlite admits one process per folder).
    const copies = await Promise.all([0, 1, 2].map(() => mkdtemp(path.join(tmpdir(), "tokenpool-cli-copy-")).then((to) => copyDataDir(dir, to))));
    const [stale, text, off, longer] = await Promise.all([
      tokenpool(["status", "--data-dir", dir, "--json"], { REDIS_URL: "" }),
      tokenpool(["status", "--data-dir", copies[0]!], { REDIS_URL: "" }),
      tokenpool(["status", "--data-dir", copies[1]!, "--stale-after", "0"], { REDIS_URL: "" }),
      tokenpool(["status", "--data-dir", copies[2]!, "--stale-after", "3600"], { REDIS_URL: "" }),
    ]).finally(() => Promise.all(copies.map((c) => rm(c, { recursive: true, force: true }))));
    expect(stale.code).toBe(1);
    const json = JSON.parse(stale.stdout);
    expect(json).toMatchObject({ block: 7, finalized: 12, lag: 5, stale: true, heartbeat: { finalized: 12, block: 7 } });
    expect(json.heartbeat.ageSeconds).toBeGreaterThanOrEqual(300);
    expect(stale.stderr.trim().split("\n")).toHaveLength(1);
    expect(stale.stderr).toMatch(/^tokenpool status: stale: the indexer's heartbeat is 3\d\d s old \(over 60 s\): no indexer is keeping the store current/);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/chain finalized 12, lag 5, .*\nheartbeat: 3\d\d s ago \(chain finalized 12 then\), stale \(over 60 s\)\n/);
    expect(off.code).toBe(0);
    expect(longer.code).toBe(0);
    expect(longer.stdout).not.toContain("stale");

    const fresh = await createDb({ dataDir: dir });
    await setTask(fresh.db, "heartbeat", { finalized: 13, block: 7 });
    await fresh.close();
    const ok = await tokenpool(["status", "--data-dir", dir, "--json"], { REDIS_URL: "" });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ finalized: 13, lag: 6, stale: false, heartbeat: { finalized: 13, block: 7 } });
    // Five CLI processes, four at once: 30 s was too little on a loaded CI machine.
  }, 120_000);

  it("api serves on --port and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, "api", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dir, "--log-level", "warn"], { stdio: "ignore" });
    try {
      expect((await healthy(port))?.status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 90_000);

  it.skipIf(!redisUrl)(`two api processes share one rate limit through Redis: 100 requests over both, the 101st is 429${redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
    const env = { ...process.env, REDIS_URL: redisUrl!, REDIS_PREFIX: `tokenpool-test-${randomUUID()}`, JWT_SECRET: randomBytes(32).toString("base64url"), LOG_LEVEL: "warn", DATABASE_URL: "" };
    const ports = [await freePort(), await freePort()];
    const children = await Promise.all(
      ports.map(async (port, i) => {
        // Migrated already: this is about the shared limit, not a first start (test/cli/start.test.ts).
        const dataDir = await migratedDataDir(await mkdtemp(path.join(dir, `api${i}-`)));
        return spawn(process.execPath, [BIN, "api", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir], { env, stdio: "ignore" });
      }),
    );
    try {
      for (const port of ports) expect((await healthy(port))?.status).toBe(200);
      // The two /health probes above count too: 98 more spread over both processes.
      const remaining: number[] = [];
      for (let i = 0; i < 98; i++) {
        const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/pool/stats`);
        expect(res.status).toBe(200);
        remaining.push(Number(res.headers.get("ratelimit-remaining")));
      }
      expect(remaining.at(-1)).toBe(0);
      expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
      for (const port of ports) {
        const limited = await fetch(`http://127.0.0.1:${port}/pool/stats`);
        expect(limited.status).toBe(429);
        expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(await limited.json()).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
      }
      const exits = children.map(exitOf);
      for (const c of children) c.kill("SIGTERM");
      expect(await Promise.all(exits)).toEqual([0, 0]);
    } finally {
      for (const c of children) c.kill("SIGKILL");
    }
  }, 300_000);

  it.skipIf(!redisUrl)(`worker waits for jobs and exits 0 on SIGTERM; status shows the queue depth${redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
    const env = { ...process.env, REDIS_URL: redisUrl!, REDIS_PREFIX: `tokenpool-test-${randomUUID()}`, WS_URL: "ws://127.0.0.1:1", LOG_LEVEL: "info", DATABASE_URL: "" };
    const dataDir = await migratedDataDir(await mkdtemp(path.join(dir, "worker-"))); // status only reads a store
    const status = await tokenpool(["status", "--data-dir", dataDir, "--json"], env);
    expect(JSON.parse(status.stdout).queue).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 });
    const child = spawn(process.execPath, [BIN, "worker", "--data-dir", dataDir, "--concurrency", "2"], { env, stdio: ["ignore", "pipe", "ignore"] });
    try {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
      for (let i = 0; i < 150 && !out.includes("waiting for backfill jobs"); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain("waiting for backfill jobs");
      const exit = exitOf(child);
      child.kill("SIGTERM");
      expect(await exit).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
