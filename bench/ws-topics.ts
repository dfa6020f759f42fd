/**
 * `npm run bench:ws`: topic floods on /ws, as far as the budgets let them go, and what a
 * bystander sees meanwhile. Each scenario starts a server on a fresh store (the test fixtures'
 * market), lets the attacker subscribe, then a newcomer with its own token asks for the
 * dashboard's account page topics (`accounts:`, `transfers:`), a holders page and one token's
 * value, and watches that value while BENCH_BLOCKS (default 10) blocks are committed, one every
 * BENCH_BLOCK_MS (default 2,000). Prints, per scenario, what the attacker holds, which of the
 * newcomer's subscribes got in, and when each push arrived after its block's commit (p50, p99).
 *
 * Scenarios (BENCH_WS_SCENARIOS, comma-separated; default all):
 * - `flood25`: issue 25's flood, 40 addresses × 20 portfolios of random addresses (a user each:
 *   one token's user may hold no more than one address);
 * - `token38`: issue 38's, 55 addresses × 20 `accounts:<random>`, one bearer token on every connection;
 * - `users38`: the same 55 addresses with a user each, every one subscribing random accounts
 *   until refused (at most 150: three connections of 50), to fill the server's budget.
 *
 * The store: Postgres (BENCH_DATABASE_URL / TEST_DATABASE_URL) or PGlite. The server runs in
 * this process, the clients too.
 */
import { randomBytes } from "node:crypto";
import { encodeAddress } from "@polkadot/util-crypto";
import WebSocket from "ws";
import { startApiServer, type ApiServer } from "../api/server.js";
import { announceBlocks, insertBlocks, insertPrices } from "../db/index.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { ALICE, HEAD_BLOCK, HEAD_TIME, KSM, TEN, seedMarket } from "../test/support/fixtures.js";
import { log } from "./settings.js";
import { freshStore, type BenchStore } from "./stores.js";

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 2_000);
const WANTED = new Set((process.env.BENCH_WS_SCENARIOS ?? "flood25,token38,users38").split(","));

interface Scenario {
  name: string;
  label: string;
  addresses: number;
  /** Subscribes per address; "budget": until one is refused (at most 150). */
  perAddress: number | "budget";
  /** One token for every connection, or a user per address. */
  users: "one" | "each";
}

const SCENARIOS: Scenario[] = [
  { name: "flood25", label: "40 addresses × 20 portfolios, a user each", addresses: 40, perAddress: 20, users: "each" },
  { name: "token38", label: "55 addresses × 20 accounts:<random>, one token", addresses: 55, perAddress: 20, users: "one" },
  { name: "users38", label: "55 addresses, a user each, accounts:<random> until refused", addresses: 55, perAddress: "budget", users: "each" },
];

type Call = (method: string, params: unknown) => Promise<{ result?: { subscription: string }; error?: { code: number; data?: { code: string } } }>;
interface Conn {
  ws: WebSocket;
  call: Call;
}

let id = 1;
function open(server: ApiServer, ip: string, token: string): Promise<Conn> {
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
        call: (method, params) =>
          new Promise((done) => {
            const n = id++;
            waiting.set(n, done);
            ws.send(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }));
          }),
      }),
    );
  });
}

async function register(server: ApiServer, ip: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.port}/auth/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify({ email: `wsbench${randomBytes(6).toString("hex")}@example.com`, password: "correct horse battery" }) });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function commit(store: BenchStore, i: number): Promise<void> {
  const number = HEAD_BLOCK + i;
  await store.handle.db.transaction(async (tx) => {
    const t = tx as unknown as typeof store.handle.db;
    const b = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + i * 12 };
    await insertBlocks(t, [b]);
    await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: `${10 + i}` }]);
    await announceBlocks(t, [{ ...b, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
  });
}

/** The attacker's subscribes from one address; answers how many were refused. */
async function attack(server: ApiServer, s: Scenario, ip: string, token: string, sockets: WebSocket[]): Promise<number> {
  const max = s.perAddress === "budget" ? 150 : s.perAddress;
  let conn: Conn | undefined;
  let refused = 0;
  for (let n = 0; n < max; n++) {
    if (n % 50 === 0) {
      conn = await open(server, ip, token);
      sockets.push(conn.ws);
    }
    const answer = await conn!.call("subscribe", { topic: `accounts:${encodeAddress(randomBytes(32), 2)}` });
    if (answer.error) {
      refused += 1;
      if (s.perAddress === "budget") break;
    }
  }
  return refused;
}

async function run(s: Scenario): Promise<Record<string, unknown>> {
  const store = await freshStore();
  await seedMarket(store.handle.db);
  const server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: randomBytes(32).toString("base64url"), TRUST_PROXY: "1", RATE_LIMIT_MAX: "1000000" }), createLogger("silent"), { shared: store.handle });
  const sockets: WebSocket[] = [];
  const ips = Array.from({ length: s.addresses }, (_, i) => `203.0.113.${i + 1}`);
  const shared = await register(server, "192.0.2.1");
  // One at a time: registrations hash passwords, and the login queue turns a burst away (503).
  const tokens: string[] = [];
  for (const ip of ips) tokens.push(s.users === "one" ? shared : await register(server, ip));
  log(`${store.label}, ${s.label}…`);
  const started = performance.now();
  const refused = (await Promise.all(ips.map((ip, i) => attack(server, s, ip, tokens[i]!, sockets)))).reduce((a, b) => a + b, 0);
  const held = { topics: server.hub.topicCount, cost: server.hub.totalCost, refused, seconds: Math.round((performance.now() - started) / 100) / 10 };
  log(`  attacker: ${held.topics} topics held, ${held.cost} queries a block; ${refused} subscribes refused (${held.seconds} s)`);

  const newcomer = await open(server, "192.0.2.77", await register(server, "192.0.2.77"));
  sockets.push(newcomer.ws);
  const got: Record<string, string> = {};
  for (const topic of [`accounts:${ALICE}`, `transfers:${ALICE}`, `assets.holders:${TEN}`, `oracle.value:${KSM}`]) {
    const answer = await newcomer.call("subscribe", { topic });
    got[topic.slice(0, topic.indexOf(":"))] = answer.result ? "in" : `refused ${answer.error?.code} ${answer.error?.data?.code}`;
  }
  log(`  newcomer: ${Object.entries(got).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  const watched = newcomer.ws;
  const pushed = new Map<number, number>();
  watched.on("message", (data) => {
    const m = JSON.parse(String(data)) as { params?: { topic: string; block: number } };
    if (m.params?.topic === `oracle.value:${KSM}`) pushed.set(m.params.block, performance.now());
  });
  const committed = new Map<number, number>();
  for (let i = 1; i <= BLOCKS; i++) {
    await commit(store, i);
    committed.set(HEAD_BLOCK + i, performance.now());
    await new Promise((r) => setTimeout(r, BLOCK_MS));
  }
  await server.hub.idle();
  const latencies = [...committed].filter(([n]) => pushed.has(n)).map(([n, at]) => pushed.get(n)! - at).sort((a, b) => a - b);
  const p = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  const result = { scenario: s.name, store: store.label, ...held, newcomer: got, blocks: BLOCKS, pushed: latencies.length, p50Ms: p(0.5), p99Ms: p(0.99), maxMs: Math.round(latencies.at(-1) ?? NaN), skipped: server.hub.skipped, refusedFor: server.hub.refused, evicted: server.hub.evicted };
  log(`  bystander: ${latencies.length} of ${BLOCKS} blocks pushed; after the commit p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (max ${result.maxMs}); topic computations skipped: ${server.hub.skipped}`);
  for (const ws of sockets) ws.close();
  await server.close();
  await store.drop();
  return result;
}

for (const s of SCENARIOS) if (WANTED.has(s.name)) console.log(JSON.stringify(await run(s)));
