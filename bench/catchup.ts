/**
 * `npm run bench:catchup`: how fast the follower catches up on a node far away. The devnet (a
 * child process) is seeded and traded for BENCH_BLOCKS blocks (default 60: about one swap or
 * transfer per block, the usual load); a store is bootstrapped at the block before the trading
 * and then catches up to the head through a JSON-RPC relay that adds a fixed latency to every
 * message each way (BENCH_LATENCIES, default 0,50,100 ms), block by block (INDEXER_PREFETCH_BLOCKS
 * = 1) and fetched ahead (32, the default). Prints blocks/s, RPC calls per block and peak RSS per run.
 * Targets (README): ≥ 20 blocks/s at 50 ms, and ≥ 10× the block-by-block path there.
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import { ChainReader } from "../indexer/chain/reader.js";
import { Follower } from "../indexer/follower.js";
import { Bootstrapper } from "../indexer/bootstrap.js";
import { oracleSettings } from "../indexer/service.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { startRpcRelay } from "../test/support/rpc-relay.js";
import { startChain } from "./chain.js";
import { freshStore } from "./stores.js";

const LATENCIES = (process.env.BENCH_LATENCIES ?? "0,50,100").split(",").map(Number);
const DEPTHS = [1, 32];

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  const logger = createLogger("silent");
  const started = performance.now();
  const chain = await startChain();
  const api = await ApiPromise.create({ provider: new WsProvider(chain.wsUrl), noInitWarn: true });
  const blocks = Number(process.env.BENCH_BLOCKS ?? 60);
  const fromNumber = chain.head - blocks;
  const from = { number: fromNumber, hash: (await api.rpc.chain.getBlockHash(fromNumber)).toHex() };
  console.log(`chain ready in ${((performance.now() - started) / 1000).toFixed(1)} s: catching up blocks ${from.number + 1}–${chain.head} (${blocks})`);
  const base = { oracle: oracleSettings(config), batchBlocks: config.indexerBatchBlocks, logger, nativeTokenId: config.nativeTokenId, historyHours: 0 };
  const results: Record<string, unknown>[] = [];
  for (const latencyMs of LATENCIES) {
    for (const depth of DEPTHS) {
      const store = await freshStore();
      const indexer = await Bootstrapper.create(store.handle.db, new ChainReader(api, config.nativeTokenId), base);
      await indexer.bootstrap(from, from.number);
      const relay = await startRpcRelay(chain.wsUrl, { latencyMs });
      let peak = process.memoryUsage().rss;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      const follower = new Follower(store.handle.db, { ...base, wsUrl: relay.url, prefetchBlocks: depth });
      let t0 = 0;
      let calls0 = 0;
      const done = new Promise<void>((resolve) => {
        follower.onCommit = (block) => block >= chain.head && resolve();
      });
      // The clock starts once the session is connected and has read its checkpoint: connecting
      // (metadata) costs the same whatever the path, and is not catching up.
      const ready = setInterval(() => {
        if (t0 === 0 && follower.status.block !== null) {
          t0 = performance.now();
          calls0 = relay.total();
        }
      }, 1);
      follower.start();
      await done;
      const seconds = (performance.now() - t0) / 1000;
      const calls = relay.total() - calls0;
      clearInterval(ready);
      clearInterval(sampler);
      await follower.stop();
      await relay.close();
      await store.drop();
      const row = { latencyMs, path: depth === 1 ? "block by block" : `${depth} ahead`, "blocks/s": Number((blocks / seconds).toFixed(1)), "RPC calls/block": Number((calls / blocks).toFixed(1)), "peak RSS MB": Math.round(peak / 2 ** 20) };
      results.push(row);
      console.log(JSON.stringify(row));
    }
  }
  console.table(results);
  for (const latencyMs of LATENCIES) {
    const [seq, ahead] = results.filter((r) => r.latencyMs === latencyMs).map((r) => r["blocks/s"] as number);
    console.log(`${latencyMs} ms: fetched ahead ${ahead} blocks/s = ${(ahead! / seq!).toFixed(1)}× block by block`);
  }
  await api.disconnect();
  chain.stop();
}

await main();
process.exit(0);
