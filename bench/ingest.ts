/**
 * `npm run bench:ingest`: holder balance rows written per second through the indexer's write
 * path (db/queries/holders.ts upsertHolders), on PGlite and, when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set, on Postgres (in a database of its own, dropped after). Inserts
 * first, then the same rows again at a newer block (updates), as the follower would. With
 * DEVNET_GENESIS, also the blocks indexed per second by a follower catching up on the devnet.
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import { createDb, getCheckpoint, upsertHolders, type DbHandle, type NewHolder } from "../db/index.js";
import { startDevnet } from "../indexer/devnet/chopsticks.js";
import { seedMarket, startLiveSwaps } from "../indexer/devnet/scenario.js";
import { startIndexer } from "../indexer/service.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { freshStore } from "./stores.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const CHUNK = 10_000;

function rows(block: number): NewHolder[] {
  const out: NewHolder[] = [];
  for (let i = 0; i < ROWS; i++) {
    const balance = BigInt(i + 1) * 1_000_000_007n * BigInt(block);
    // Token 0 is the native one, with its parts; the others are assets, with a status.
    const parts = i % 5 === 0 ? { free: (balance - 1_000n).toString(), reserved: "1000", frozen: "0", transferable: (balance - 1_000n).toString() } : { status: "liquid" as const };
    out.push({ tokenId: i % 5, account: `account-${i.toString(36).padStart(8, "0")}`, balance: balance.toString(), blockNumber: block, ...parts });
  }
  return out;
}

async function measure(handle: DbHandle, label: string): Promise<Record<string, string | number>> {
  await handle.migrate();
  const result: Record<string, string | number> = { store: label, rows: ROWS };
  for (const [phase, block] of [["insert", 1], ["update", 2]] as const) {
    const data = rows(block);
    const started = performance.now();
    for (let i = 0; i < data.length; i += CHUNK) await upsertHolders(handle.db, data.slice(i, i + CHUNK));
    const seconds = (performance.now() - started) / 1000;
    result[`${phase} rows/s`] = Math.round(ROWS / seconds);
  }
  return result;
}

const results = [];
const pglite = await createDb({ dataDir: "memory://" });
results.push(await measure(pglite, "PGlite (memory)"));
await pglite.close();

if (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) {
  const pg = await freshStore();
  try {
    results.push(await measure(pg.handle, pg.label));
  } finally {
    await pg.drop();
  }
} else {
  console.log("Postgres skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL");
}
console.table(results);
console.log("target: >= 50,000 rows/s on PostgreSQL");

if (process.env.DEVNET_GENESIS) {
  console.table([await catchUp(process.env.DEVNET_GENESIS)]);
} else {
  console.log("catch-up skipped: set DEVNET_GENESIS to measure blocks indexed per second behind the devnet");
}

/**
 * Blocks indexed per second behind the devnet: a follower bootstraps the empty chain and
 * stops; the market is seeded and traded for a while; a follower started again catches up.
 */
async function catchUp(genesis: string): Promise<Record<string, string | number>> {
  const devnet = await startDevnet({ genesis, port: 0 });
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  const handle = await createDb({ dataDir: "memory://" });
  await handle.migrate();
  const config = loadConfig({ LOG_LEVEL: "silent" });
  const logger = createLogger("silent");
  try {
    let follower = startIndexer(config, logger, handle, devnet.wsUrl);
    while ((await getCheckpoint(handle.db)) === undefined) await new Promise((r) => setTimeout(r, 100));
    await follower.stop();
    const from = (await getCheckpoint(handle.db))!.blockNumber;
    await seedMarket(api, { holders: 200 });
    const swaps = startLiveSwaps(api, { intervalMs: 0 });
    const target = from + Number(process.env.BENCH_BLOCKS ?? 40);
    while ((await api.rpc.chain.getHeader()).number.toNumber() < target) await new Promise((r) => setTimeout(r, 200));
    await swaps.stop();
    const head = (await api.rpc.chain.getHeader()).number.toNumber();
    const started = performance.now();
    follower = startIndexer(config, logger, handle, devnet.wsUrl);
    while ((follower.status.block ?? 0) < head) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - started) / 1000;
    await follower.stop();
    return { store: "PGlite (memory)", blocks: head - from, "blocks/s": Number(((head - from) / seconds).toFixed(1)), "batch blocks": config.indexerBatchBlocks };
  } finally {
    await handle.close();
    await api.disconnect();
    await devnet.close();
  }
}
