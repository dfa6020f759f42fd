/**
 * `npm run bench:attacks`: issue 25's pipelining hold, re-run against a `tokenpool api` process,
 * printing its resident memory. One client address opens a connection every BENCH_ROUND_MS
 * (default 2 s), writes 100 pipelined GETs of distinct holder pages (900–1,000 holders, ≈ 120 kB each) and
 * never reads, for BENCH_ATTACK_SECONDS (default 60), under the real rate limit (100 a minute), or
 * with BENCH_RATE_LIMIT_MAX=1000000 without it, so that what bounds memory is the connection
 * budget alone. Before the budget, the attack at one connection a minute grew RSS by ≈ 165 MB a
 * minute, without end.
 *
 * BENCH_API_DIR runs another checkout's `bin/tokenpool.mjs` (to measure the code before a change).
 * The store: Postgres (BENCH_DATABASE_URL / TEST_DATABASE_URL) or PGlite on disk.
 */
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { readFileSync } from "node:fs";
import { freePort } from "../test/support/port.js";
import { answers, child, stop, tokenOf } from "./load.js";
import { log } from "./settings.js";
import { freshStore } from "./stores.js";
import { BIG, generate } from "./synthetic.js";

const SECONDS = Number(process.env.BENCH_ATTACK_SECONDS ?? 60);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 2_000);
const PIPELINED = 100;
/** The API's rate limit: the real one (100 a minute) by default; 1000000 takes it out of the way. */
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT_MAX ?? "100";

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

const store = await freshStore({ onDisk: true });
log(`store: ${store.label}; seeding 60,000 holders of one token (BIG)`);
await generate(store.handle.db, { bigHolders: 60_000, otherHolders: 0, pools: 2, swaps: 100, prices: 100 });
if (store.label.startsWith("PGlite")) await store.handle.close();
const port = await freePort();
const dir = process.env.BENCH_API_DIR ?? path.resolve(import.meta.dirname, "..");
const base = `http://127.0.0.1:${port}`;
const api = await child([path.join(dir, "bin/tokenpool.mjs"), "api"], { ...store.env, PORT: String(port), HOST: "127.0.0.1", JWT_SECRET: randomBytes(32).toString("base64url"), RATE_LIMIT_MAX: RATE_LIMIT, LOG_LEVEL: "warn" }, answers(`${base}/health`));
const auth = await tokenOf((p, init) => fetch(`${base}${p}`, init));
const pid = api.pid!;
const idle = rssMb(pid);
log(`api (${dir}), rate limit ${RATE_LIMIT}/min: RSS ${idle} MB idle; attacking for ${SECONDS} s, one connection of ${PIPELINED} pipelined GETs every ${ROUND_MS} ms`);

const sockets: net.Socket[] = [];
let page = 0;
let peak = idle;
let closedByServer = 0;
const samples: string[] = [];
const started = Date.now();
while (Date.now() - started < SECONDS * 1_000) {
  // Distinct answers (pages × limits): a cached one would be sent from one shared buffer.
  const text = Array.from({ length: PIPELINED }, () => {
    const n = page++;
    return `GET /assets/holders/${BIG}?page=${(n % 60) + 1}&limit=${1000 - (Math.floor(n / 60) % 100)} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n\r\n`;
  }).join("");
  const socket = net.connect(port, "127.0.0.1", () => {
    socket.pause();
    socket.write(text);
  });
  socket.on("error", () => {});
  socket.on("close", () => (closedByServer += 1));
  sockets.push(socket);
  await new Promise((r) => setTimeout(r, ROUND_MS));
  const rss = rssMb(pid);
  peak = Math.max(peak, rss);
  if (sockets.length % 5 === 0) samples.push(`${Math.round((Date.now() - started) / 1000)} s: ${rss} MB`);
}
const open = sockets.filter((s) => !s.destroyed).length;
for (const s of sockets) s.destroy();
await stop(api);
await store.drop();
const result = { store: store.label, rateLimit: Number(RATE_LIMIT), seconds: SECONDS, connections: sockets.length, requests: sockets.length * PIPELINED, idleRssMb: idle, peakRssMb: peak, growthMb: peak - idle };
log(`RSS over time: ${samples.join(", ")}`);
log(`peak RSS ${peak} MB (idle ${idle} MB, +${peak - idle} MB) after ${sockets.length} connections and ${sockets.length * PIPELINED} pipelined requests; ${open} still open on the client side (paused sockets never see the server's FIN)`);
console.log(JSON.stringify(result));
void closedByServer;
