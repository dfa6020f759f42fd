/**
 * `tokenpool verify` on the devnet: a store indexed by the follower has no drift; drift injected
 * into the store (a wrong, a missing and a ghost holder, a wrong supply, a wrong and a missing
 * pool, a holder count off) is found exactly, repaired, and gone; a row newer than the
 * checkpoint is neither reported nor overwritten; a sample finds wrong values; the command's
 * output and exit codes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, getCheckpoint, listPools, poolsAt, type Database, type DbHandle } from "../../db/index.js";
import { ChainReader } from "../../indexer/chain/reader.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { fundMarketAccounts, seedMarket } from "../../indexer/devnet/scenario.js";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { verifyStore } from "../../indexer/verify.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { chainSnapshot, dbSnapshot } from "../support/chain.js";
import { until } from "../support/wait.js";

const run = promisify(execFile);
const genesis = loadConfig().devnetGenesis;
const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const LONG = 240_000;

async function select<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

describe("tokenpool verify on the devnet", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let dir: string;
  let handle: DbHandle;
  let reader: ChainReader;
  let B: number;

  const open = async () => {
    handle = await createDb({ dataDir: dir });
    await handle.migrate();
    return handle.db;
  };
  const cli = async (...args: string[]) => {
    await handle.close();
    try {
      const { stdout } = await run(process.execPath, ["bin/tokenpool.mjs", "verify", ...args], { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", WS_URL: devnet.wsUrl, LOG_LEVEL: "silent" } });
      return { code: 0, stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout + e.stderr };
    } finally {
      await open();
    }
  };

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    await fundMarketAccounts(api, { holders: 12 });
    const market = await seedMarket(api, { holders: 12 });
    dir = await mkdtemp(path.join(tmpdir(), "tokenpool-verify-"));
    const db = await open();
    const follower = new Follower(db, { oracle: oracleSettings(config), batchBlocks: 10, logger: createLogger("silent"), nativeTokenId: 0, wsUrl: devnet.wsUrl, historyHours: 0 });
    follower.start();
    await until(`the store to reach block ${market.block}`, () => (follower.status.block ?? 0) >= market.block);
    await follower.stop();
    B = (await getCheckpoint(db))!.blockNumber;
    reader = new ChainReader(api, 0);
  }, LONG);

  afterAll(async () => {
    await handle?.close();
    await api?.disconnect();
    await devnet?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, LONG);

  it("an indexed store has no drift: exit 0", async () => {
    // The truth, read apart from verify's own reader: chain storage at the checkpoint equals the store.
    const onChain = await chainSnapshot(api, (await getCheckpoint(handle.db))!.blockHash);
    expect(await dbSnapshot(handle.db)).toEqual(onChain);
    const report = await verifyStore(handle.db, reader);
    expect(report.block).toBe(B);
    expect(report.counts).toEqual({});
    // …and verify looked at every one of them, not a part.
    expect(report.checked.holders).toBeGreaterThanOrEqual(Object.keys(onChain.holders).length);
    expect(report.checked.tokens).toBe(Object.keys(onChain.tokens).length);
    expect(report.checked.pools).toBe(Object.keys(onChain.pools).length);
    const out = await cli();
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`verify at block ${B}`);
    expect(out.stdout).toContain("no drift");
  }, LONG);

  it("finds injected drift exactly, repairs it, and leaves a row newer than the checkpoint alone", async () => {
    const db = handle.db;
    const holders = await select<{ token_id: string; account: string; balance: string }>(db, sql`select token_id::text, account, balance::text from holders where token_id = 1984 order by account limit 4`);
    const [wrong, gone, newer, other] = holders;
    const ghostAccount = "5CiPPseXPECbkjWCa6MnjNokrgYjMqmKndv2rSnekmSK2DjL";
    const pools = await select<{ token0_id: string; token1_id: string }>(db, sql`select token0_id::text, token1_id::text from pools order by token1_id limit 2`);
    await db.execute(sql`update holders set balance = balance + 7 where token_id = 1984 and account = ${wrong!.account}`);
    await db.execute(sql`delete from holders where token_id = 1984 and account = ${gone!.account}`);
    await db.execute(sql`insert into holders (token_id, account, balance, block_number) values (1984, ${ghostAccount}, 5, ${B})`);
    await db.execute(sql`update holders set balance = 1, block_number = ${B + 1000} where token_id = 1984 and account = ${newer!.account}`);
    await db.execute(sql`update tokens set supply = supply + 1 where id = 1984`);
    await db.execute(sql`update pools set reserve0 = reserve0 + 3 where token0_id = ${pools[0]!.token0_id} and token1_id = ${pools[0]!.token1_id}`);
    // …and in its history (the newest row at or before B), which pairs as of a block read.
    await db.execute(sql`update pool_reserves set reserve0 = reserve0 + 3 where token0_id = ${pools[0]!.token0_id} and token1_id = ${pools[0]!.token1_id}
      and block_number = (select max(block_number) from pool_reserves where token0_id = ${pools[0]!.token0_id} and token1_id = ${pools[0]!.token1_id} and block_number <= ${B})`);
    await db.execute(sql`delete from pools where token0_id = ${pools[1]!.token0_id} and token1_id = ${pools[1]!.token1_id}`);
    // Rows changed by hand: counts recounted from them, then one made wrong on purpose.
    await db.execute(sql`delete from holder_counts`);
    await db.execute(sql`insert into holder_counts (token_id, holders) select token_id, count(*) from holders group by token_id`);
    await db.execute(sql`update holder_counts set holders = holders + 2 where token_id = 0`);

    const report = await verifyStore(db, reader);
    expect(report.counts).toEqual({ "holders.wrong": 1, "holders.missing": 1, "holders.ghost": 1, "tokens.wrong": 1, "pools.wrong": 1, "pools.missing": 1, "holder_counts.wrong": 1 });
    const keys = report.drift.map((d) => `${d.table}.${d.kind} ${d.key}`).sort();
    expect(keys).toEqual(
      [
        `holders.wrong 1984|${wrong!.account}`,
        `holders.missing 1984|${gone!.account}`,
        `holders.ghost 1984|${ghostAccount}`,
        "tokens.wrong 1984",
        `pools.wrong ${pools[0]!.token0_id}/${pools[0]!.token1_id}`,
        `pools.missing ${pools[1]!.token0_id}/${pools[1]!.token1_id}`,
        "holder_counts.wrong 0",
      ].sort(),
    );
    expect(report.drift.find((d) => d.table === "holders" && d.kind === "wrong")).toMatchObject({ store: (BigInt(wrong!.balance) + 7n).toString(), chain: wrong!.balance });
    expect(report.drift.some((d) => d.key.endsWith(newer!.account))).toBe(false);
    expect(report.drift.some((d) => d.key.endsWith(other!.account))).toBe(false);

    const out = await cli();
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(`holders ghost 1984|${ghostAccount}`);
    // The counts are checked against the store's own holder rows, and the line says so.
    expect(out.stdout).toMatch(/holder_counts wrong 0: store \d+, holder rows \d+/);
    expect(out.stdout).toMatch(/drift: 7 \(.*holders\.wrong 1.*\); run with --repair/);

    const repaired = await cli("--repair");
    expect(repaired.code).toBe(1);
    expect(repaired.stdout).toContain("repaired");
    expect((await verifyStore(handle.db, reader)).counts).toEqual({});
    expect((await cli()).code).toBe(0);
    // Pools as of B after the repair (what ?at=B answers) = chain storage at B, read separately.
    const onChain = await chainSnapshot(api, (await getCheckpoint(handle.db))!.blockHash);
    const asOfB = await poolsAt(handle.db, await listPools(handle.db), B);
    expect(asOfB.length).toBe(Object.keys(onChain.pools).length);
    expect(Object.fromEntries(asOfB.map((p) => [`${p.token0Id}/${p.token1Id}`, { reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply }]))).toEqual(
      Object.fromEntries(Object.entries(onChain.pools).map(([k, p]) => [k, { reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply }])),
    );
    const [kept] = await select<{ balance: string; block_number: string }>(handle.db, sql`select balance::text, block_number::text from holders where token_id = 1984 and account = ${newer!.account}`);
    expect(kept).toEqual({ balance: "1", block_number: String(B + 1000) });
    await handle.db.execute(sql`update holders set balance = ${newer!.balance}, block_number = ${B} where token_id = 1984 and account = ${newer!.account}`);
    // Repaired, judged by chain storage at B read separately: every token, holder, pool and LP position…
    expect(await dbSnapshot(handle.db)).toEqual(onChain);
    // …and the holder counts by a scan of the holder rows.
    const counts = await select<{ token_id: string; holders: string }>(handle.db, sql`select token_id::text, holders::text from holder_counts where holders > 0 order by token_id`);
    const scanned = await select<{ token_id: string; holders: string }>(handle.db, sql`select token_id::text, count(*)::text as holders from holders group by token_id order by token_id`);
    expect(counts).toEqual(scanned);
  }, LONG);

  it("--sample checks random rows of each side and finds wrong values among them", async () => {
    await handle.db.execute(sql`update holders set balance = balance + 1`);
    const report = await verifyStore(handle.db, reader, { sample: 5 });
    expect(report.checked.holders).toBeGreaterThanOrEqual(5);
    expect(report.counts["holders.wrong"]).toBeGreaterThanOrEqual(5);
    expect(report.counts["holders.missing"] ?? 0).toBe(0);
    const out = await cli("--sample", "5", "--json");
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout.split("\n")[0]!).counts["holders.wrong"]).toBeGreaterThanOrEqual(5);
    await verifyStore(handle.db, reader, { repair: true });
    expect((await verifyStore(handle.db, reader)).counts).toEqual({});
  }, LONG);
});
