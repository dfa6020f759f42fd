/**
 * Two `tokenpool indexer` processes on one Postgres: exactly one writes, the other waits on
 * the writer lock; SIGKILL the writer and the standby takes over and ends equal to the chain.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { afterAll, describe, expect, it } from "vitest";
import { getCheckpoint } from "../../db/index.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { fundMarketAccounts, seedMarket } from "../../indexer/devnet/scenario.js";
import { loadConfig } from "../../shared/config.js";
import { chainSnapshot, dbSnapshot } from "../support/chain.js";
import { dbTargets } from "../support/db.js";
import { until } from "../support/wait.js";

const genesis = loadConfig().devnetGenesis;
const pg = dbTargets.find((t) => t.name === "postgres")!;
const skip = pg.skip;

interface Indexer {
  proc: ChildProcess;
  logs: string[];
}

function spawnIndexer(wsUrl: string, databaseUrl: string): Indexer {
  const env = { ...process.env, WS_URL: wsUrl, DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ORACLE_MIN_LIQUIDITY_USD: "1" };
  const proc = spawn(process.execPath, ["bin/tokenpool.mjs", "indexer"], { env, stdio: ["ignore", "pipe", "ignore"] });
  const logs: string[] = [];
  let buffered = "";
  proc.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) logs.push((JSON.parse(line) as { msg: string }).msg);
  });
  return { proc, logs };
}


const following = (i: Indexer) => i.logs.includes("indexer: following finalized heads");
const standby = (i: Indexer) => i.logs.some((m) => m.startsWith("indexer: standby"));

describe.skipIf(skip)(`two indexers on one Postgres${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let devnet: Devnet | undefined;
  let api: ApiPromise | undefined;
  let store: Awaited<ReturnType<typeof pg.open>> | undefined;
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) p.kill("SIGKILL");
    await api?.disconnect();
    await devnet?.close();
    await store?.drop();
  }, 60_000);

  it("exactly one writes; killed, the standby takes over and ends equal to the chain", async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    store = await pg.open();
    // dev_setStorage funding emits no event: it must be in place before any indexer starts.
    await fundMarketAccounts(api, { holders: 10 });
    const a = spawnIndexer(devnet.wsUrl, store.url!);
    procs.push(a.proc);
    await until("the first indexer to follow", () => following(a));
    const b = spawnIndexer(devnet.wsUrl, store.url!);
    procs.push(b.proc);
    await until("the second indexer to stand by", () => standby(b));
    expect(following(b)).toBe(false);

    const gone = new Promise((resolve) => a.proc.once("exit", resolve));
    a.proc.kill("SIGKILL");
    await gone;
    await until("the standby to take over", () => following(b));
    const market = await seedMarket(api, { holders: 10 });
    await until(`block ${market.block} to be indexed`, async () => ((await getCheckpoint(store!.db))?.blockNumber ?? 0) >= market.block);

    const exited = new Promise<number | null>((resolve) => b.proc.once("exit", (code) => resolve(code)));
    b.proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    const cp = (await getCheckpoint(store.db))!;
    expect(await dbSnapshot(store.db)).toEqual(await chainSnapshot(api, cp.blockHash));
  }, 240_000);
});
