/** The bench's settings (environment), the routes it measures, and the table it fills. */
import { CONNECTIONS } from "./load.js";
import { BIG, FIRST_POOL_TOKEN, HEAD, KSM, USDT, WALLET, type Scale } from "./synthetic.js";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const SCALE = Number(process.env.BENCH_SCALE ?? 1);
/** Transfer rows a block in the transfer bench's fill (20: a busy chain's year in 1M blocks; 1: 20M blocks, a partition per million of them). */
export const ROWS_PER_BLOCK = Math.max(1, Number(process.env.BENCH_ROWS_PER_BLOCK ?? 20));
export const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
/** What to run: `store` (sections 1–5) and `peer` (6), default both; `http` the HTTP load only; `transfers` the transfer ingestion and pages only; `bulk` the backfill's bulk path only (bench/bulk-load.ts); `ingest` holder ingestion and balance lookups only; `snapshots` holder snapshots; `asof` answers as of a past block. A part alone replaces only its own rows in results.json. */
export const PARTS = new Set((process.env.BENCH_PARTS ?? "store,peer").split(","));
/** Only the routes whose label contains one of these (BENCH_ROUTES, comma-separated), in the HTTP load and the reads under ingest; unset = all. */
export const ONLY_ROUTES = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(",") : undefined;
/** Whether the route labelled `label` is measured: every route without BENCH_ROUTES, else those whose label contains one of its parts. */
export const wanted = (label: string, only: string[] | undefined = ONLY_ROUTES): boolean => !only || only.some((r) => label.includes(r));
/** The request rate of "reads under ingest" (idle and busy alike). */
export const INGEST_RATE = Number(process.env.BENCH_INGEST_RATE ?? 5_000);
export const log = (msg: string) => process.stderr.write(`${msg}\n`);
export const scaled = (s: Scale): Scale => ({ ...s, bigHolders: Math.round(s.bigHolders * SCALE), otherHolders: Math.round(s.otherHolders * SCALE), swaps: Math.round(s.swaps * SCALE), prices: Math.round(s.prices * SCALE) });
/** The rate limit stays on under load (its check is part of every answer), at a level load never reaches. */
export const LOAD_LIMITS = { RATE_LIMIT_MAX: "1000000", RATE_LIMIT_WINDOW_MS: "1000" };

export type { Row } from "./results.js";
import type { Row } from "./results.js";
export const rows: Row[] = [];
export const results: Record<string, unknown> = { date: new Date().toISOString(), scale: SCALE, seconds: SECONDS, runs: RUNS, connections: CONNECTIONS };

/** Every public read route: label, path, whether it needs a bearer token. */
/** Answers as of a past block (uncached latencies only), 24 h before the head. */
export const PAST_ROUTES: Array<[string, string, boolean]> = [
  ["/assets/metadata/{id}?at=", `/assets/metadata/${USDT}?at=${HEAD - 7_200}`, true],
  ["/pool/stats/{a}/{b}?at=", `/pool/stats/${KSM}/${USDT}?at=${HEAD - 7_200}`, false],
  ["/accounts/{address}?at= (500 tokens, 50 LP positions)", `/accounts/${WALLET}?at=${HEAD - 7_200}`, true],
];

export const ROUTES: Array<[string, string, boolean]> = [
  ["/oracle/value/{id}", `/oracle/value/${KSM}`, false],
  ["/oracle/history/{id}", `/oracle/history/${KSM}`, false],
  ["/assets/metadata/{id}", `/assets/metadata/${USDT}`, true],
  ["/assets/holders/{id} page 1", `/assets/holders/${BIG}`, true],
  ["/assets/holders/{id} page=10000", `/assets/holders/${BIG}?page=10000&limit=50`, true],
  ["/assets (list)", "/assets?sort=marketCap", false],
  ["/pools (list)", "/pools", false],
  ["/pool/stats", "/pool/stats", false],
  ["/pool/stats/{a}/{b}", `/pool/stats/${KSM}/${USDT}`, false],
  ["/pool/stats/{a}/{b} by symbol", `/pool/stats/KSM/T${FIRST_POOL_TOKEN}`, false],
  ["/pools/{a}/{b}/swaps", `/pools/${KSM}/${USDT}/swaps`, false],
  ["/pools/{a}/{b}/ohlcv 5m", `/pools/${KSM}/${USDT}/ohlcv?interval=5m`, false],
  ["/accounts/{address}", `/accounts/${WALLET}`, true],
  ["/assets/{id}/history 15m", `/assets/${BIG}/history?interval=15m`, true],
];

