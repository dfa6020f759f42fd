/**
 * `npm run bench:ws`: issue 25's topic flood, as far as the /ws budgets let it go. 40 client
 * addresses each hold as many portfolio topics as their budget allows (20 × 6 = 120 queries a
 * block: 800 topics, 4,800 queries a block in all); then a later subscriber watches one token's
 * value while BENCH_BLOCKS (default 10) blocks are committed, one every BENCH_BLOCK_MS (default
 * 2,000). Prints when each push arrived after its block's commit (p50, p99) and whether every
 * block was pushed. The store: Postgres (BENCH_DATABASE_URL / TEST_DATABASE_URL) or PGlite, seeded
 * with the test fixtures' market; the server runs in this process, the clients too.
 */
import { randomBytes } from "node:crypto";
import { encodeAddress } from "@polkadot/util-crypto";
import WebSocket from "ws";
import { startApiServer } from "../api/server.js";
import { announceBlocks, insertBlocks, insertPrices } from "../db/index.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { HEAD_BLOCK, HEAD_TIME, KSM, seedMarket } from "../test/support/fixtures.js";
import { log } from "./settings.js";
import { freshStore } from "./stores.js";

const ADDRESSES = 40;
const PER_ADDRESS = 20;
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 2_000);

const store = await freshStore();
await seedMarket(store.handle.db);
const server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: randomBytes(32).toString("base64url"), TRUST_PROXY: "1", RATE_LIMIT_MAX: "1000000" }), createLogger("silent"), { shared: store.handle });
const base = `http://127.0.0.1:${server.port}`;
const reg = await fetch(`${base}/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `wsbench${Date.now()}@example.com`, password: "correct horse battery" }) });
const token = ((await reg.json()) as { data: { token: string } }).data.token;

let id = 1;
function open(ip: string): Promise<{ ws: WebSocket; call(topic: string): Promise<{ result?: { subscription: string }; error?: unknown }> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: { authorization: `Bearer ${token}`, "x-forwarded-for": ip } });
  const waiting = new Map<number, (m: never) => void>();
  ws.on("message", (data) => {
    const m = JSON.parse(String(data)) as { id?: number };
    if (m.id !== undefined) waiting.get(m.id)?.(m as never);
  });
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.once("open", () =>
      resolve({
        ws,
        call: (topic) =>
          new Promise((done) => {
            const n = id++;
            waiting.set(n, done);
            ws.send(JSON.stringify({ jsonrpc: "2.0", id: n, method: "subscribe", params: { topic } }));
          }),
      }),
    );
  });
}

log(`${store.label}: ${ADDRESSES} addresses × ${PER_ADDRESS} portfolio topics…`);
const sockets: WebSocket[] = [];
let refused = 0;
await Promise.all(
  Array.from({ length: ADDRESSES }, async (_, i) => {
    const c = await open(`203.0.113.${i + 1}`);
    sockets.push(c.ws);
    // One more than the budget: the last is refused.
    for (let n = 0; n <= PER_ADDRESS; n++) if ((await c.call(`accounts:${encodeAddress(randomBytes(32), 2)}`)).error) refused += 1;
  }),
);
log(`${server.hub.topicCount} topics held, ${server.hub.totalCost} queries a block; ${refused} subscribes refused`);

const watcher = await open("192.0.2.77");
sockets.push(watcher.ws);
const sub = (await watcher.call(`oracle.value:${KSM}`)).result!.subscription;
const pushed = new Map<number, number>();
watcher.ws.on("message", (data) => {
  const m = JSON.parse(String(data)) as { params?: { subscription: string; block: number } };
  if (m.params?.subscription === sub) pushed.set(m.params.block, performance.now());
});
const committed = new Map<number, number>();
for (let i = 1; i <= BLOCKS; i++) {
  const number = HEAD_BLOCK + i;
  await store.handle.db.transaction(async (tx) => {
    const t = tx as unknown as typeof store.handle.db;
    const b = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + i * 12 };
    await insertBlocks(t, [b]);
    await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: `${10 + i}` }]);
    await announceBlocks(t, [{ ...b, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
  });
  committed.set(number, performance.now());
  await new Promise((r) => setTimeout(r, BLOCK_MS));
}
await server.hub.idle();
const latencies = [...committed].filter(([n]) => pushed.has(n)).map(([n, at]) => pushed.get(n)! - at).sort((a, b) => a - b);
const p = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
const result = { store: store.label, topics: server.hub.topicCount, queriesPerBlock: server.hub.totalCost, refused, blocks: BLOCKS, pushed: latencies.length, p50Ms: p(0.5), p99Ms: p(0.99), maxMs: Math.round(latencies.at(-1) ?? NaN), skipped: server.hub.skipped };
log(`late subscriber: ${latencies.length} of ${BLOCKS} blocks pushed; after the commit p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (max ${result.maxMs}); topic computations skipped: ${server.hub.skipped}`);
console.log(JSON.stringify(result));
for (const s of sockets) s.close();
await server.close();
await store.drop();
