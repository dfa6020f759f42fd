/**
 * Prometheus metrics (prom-client), served on their own port (METRICS_PORT, on METRICS_HOST,
 * 127.0.0.1 by default) and never on the public API's. Each API server and each follower has
 * a registry of its own (tests run several in one process); what belongs to the process — Node's
 * own metrics and the RPC latency of every chain connection — is in `processRegistry`. Labels
 * are never client input: routes are the matched route patterns, methods the RPC method names
 * the code calls.
 */
import { createServer, type Server } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { backfillGauges, type BackfillMetricSource } from "./backfill-metrics.js";

export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: "tokenpool_" });

/** Every JSON-RPC call of a chain connection, by method (indexer/chain/connect.ts times them). */
export const rpcDuration = new Histogram({
  name: "tokenpool_rpc_request_duration_seconds",
  help: "Chain JSON-RPC request latency by method",
  labelNames: ["method"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});

export interface ApiMetricSources {
  cache: { hits: number; misses: number; fastHits: number } | undefined;
  live: { connections(): number };
  hub: { topicCount: number; totalCost: number; skipped: number; refused: { client: number; server: number }; evicted: number };
}

/** The API's metrics; `observe` is called once per answered request. */
export class ApiMetrics {
  readonly registry = new Registry();
  /** Requests by (method, route, status) and their latency by (method, route): see observe(). */
  private readonly requests = new Map<string, { method: string; route: string; status: string; count: number }>();
  private readonly latency = new Map<string, { method: string; route: string; buckets: Float64Array; sum: number; count: number }>();
  private readonly limited = new Counter({ name: "tokenpool_http_rate_limited_total", help: "Requests answered 429 RATE_LIMITED", registers: [this.registry] });
  private readonly closedConnections = new Counter({
    name: "tokenpool_http_connections_closed_total",
    help: "HTTP connections the server closed for exceeding their budget, by reason (pipelined, queued_bytes, write_timeout, per_client)",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });
  private sources: ApiMetricSources | undefined;

  constructor() {
    const self = this;
    new Counter({
      name: "tokenpool_http_requests_total",
      help: "HTTP requests by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of self.requests.values()) this.inc({ method: r.method, route: r.route, status: r.status }, r.count);
      },
    });
    this.registry.registerMetric(latencyMetric(this.latency) as never);
    new Counter({
      name: "tokenpool_cache_requests_total",
      help: "Response cache lookups by result (hit ratio = hit / (hit + miss))",
      labelNames: ["result"] as const,
      registers: [this.registry],
      collect() {
        const c = self.sources?.cache;
        this.reset();
        if (c) {
          this.inc({ result: "hit" }, c.hits);
          this.inc({ result: "miss" }, c.misses);
        }
      },
    });
    new Counter({
      name: "tokenpool_cache_prebuilt_answers_total",
      help: "Cache hits answered before the router from pre-built responses (also counted as hit above)",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(self.sources?.cache?.fastHits ?? 0);
      },
    });
    new Gauge({
      name: "tokenpool_ws_connections",
      help: "Open WebSocket connections (GET /ws)",
      registers: [this.registry],
      collect() {
        this.set(self.sources?.live.connections() ?? 0);
      },
    });
    new Gauge({
      name: "tokenpool_ws_topics",
      help: "Topics with at least one WebSocket subscriber",
      registers: [this.registry],
      collect() {
        this.set(self.sources?.hub.topicCount ?? 0);
      },
    });
    new Gauge({
      name: "tokenpool_ws_topic_cost",
      help: "What the subscribed topics cost per block, in queries (an account 6, a holders page 2, others 1)",
      registers: [this.registry],
      collect() {
        this.set(self.sources?.hub.totalCost ?? 0);
      },
    });
    new Counter({
      name: "tokenpool_ws_topics_skipped_total",
      help: "Topic computations a round left for the next (its deadline passed, or a newer block came)",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(self.sources?.hub.skipped ?? 0);
      },
    });
    new Counter({
      name: "tokenpool_ws_subscriptions_evicted_total",
      help: "Subscriptions the server ended to make room: for a lighter client, or after a topic's price rose past a budget",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(self.sources?.hub.evicted ?? 0);
      },
    });
    new Counter({
      name: "tokenpool_ws_subscribes_refused_total",
      help: "Subscribes refused for a budget: the client's (its address, IPv6 /48 or user) or the server's (in all)",
      labelNames: ["budget"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const r = self.sources?.hub.refused;
        if (r) {
          this.inc({ budget: "client" }, r.client);
          this.inc({ budget: "server" }, r.server);
        }
      },
    });
  }

  /** The server's cache, WebSocket endpoint and hub, once they exist. */
  attach(sources: ApiMetricSources): void {
    this.sources = sources;
  }

  /**
   * Counted in plain numbers per series and read by Prometheus at scrape time (the two metrics
   * registered in the constructor): prom-client's inc() and observe() hash their labels and
   * build objects on every call, ≈ 0.7 µs of a 14 µs cache hit. Bounded: the labels are never
   * client input (known methods, route patterns, statuses the app answers).
   */
  observe(method: string, route: string, status: number, seconds: number): void {
    // Methods outside the known set are one label value: a client cannot mint series.
    const m = KNOWN_METHODS.has(method) ? method : "OTHER";
    const key = `${m} ${route}`;
    let l = this.latency.get(key);
    if (l === undefined) this.latency.set(key, (l = { method: m, route, buckets: new Float64Array(LATENCY_BUCKETS.length), sum: 0, count: 0 }));
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    if (i < LATENCY_BUCKETS.length) l.buckets[i]! += 1;
    l.sum += seconds;
    l.count += 1;
    const rkey = `${key} ${status}`;
    let r = this.requests.get(rkey);
    if (r === undefined) this.requests.set(rkey, (r = { method: m, route, status: String(status), count: 0 }));
    r.count += 1;
    if (status === 429) this.limited.inc();
  }

  /** A connection the server closed for exceeding its budget (api/server.ts connectionBudget). */
  connectionClosed(reason: ConnectionCloseReason): void {
    this.closedConnections.inc({ reason });
  }
}

export type ConnectionCloseReason = "pipelined" | "queued_bytes" | "write_timeout" | "per_client";

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** tokenpool_http_request_duration_seconds, as prom-client's registry reads a histogram (its get()), from ApiMetrics' plain counts. */
function latencyMetric(series: Map<string, { method: string; route: string; buckets: Float64Array; sum: number; count: number }>) {
  const name = "tokenpool_http_request_duration_seconds";
  return {
    name,
    help: "HTTP request latency by method and route pattern",
    type: "histogram",
    aggregator: "sum",
    reset() {
      series.clear();
    },
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const s of series.values()) {
        const labels = { method: s.method, route: s.route };
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i]!;
          values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: "+Inf", ...labels }, value: s.count, metricName: `${name}_bucket` });
        values.push({ labels, value: s.sum, metricName: `${name}_sum` });
        values.push({ labels, value: s.count, metricName: `${name}_count` });
      }
      return { name, help: this.help, type: this.type, values, aggregator: this.aggregator };
    },
  };
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface FollowerMetricSources {
  block: number | null;
  finalized: number | null;
  /** Unix seconds of the newest committed block. */
  blockTime: number | null;
  blocksIndexed: number;
  skippedEvents: number;
  progress: Partial<Record<"bootstrap" | "history" | "sweep", { done: number; total: number | null; finished: boolean }>>;
  /** The verification sweep: differences found by "table.kind", passes ended, the last pass. */
  sweep?: { passes: number; drift: Record<string, number>; lastPass: { seconds: number; endedAt: number } | null };
}

/** The indexer's metrics, read from its follower's status at each scrape. */
export class IndexerMetrics {
  readonly registry = new Registry();
  readonly commitDuration = new Histogram({
    name: "tokenpool_indexer_batch_commit_duration_seconds",
    help: "Time to write one batch of blocks (one transaction)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private source: () => FollowerMetricSources | undefined = () => undefined;

  /** The follower whose status is read (a standby indexer attaches each one it starts). */
  attach(source: () => FollowerMetricSources | undefined): void {
    this.source = source;
  }

  /**
   * `queue`: the backfill queue's job counts by state (BullMQ on REDIS_URL), read at each scrape;
   * without it the gauge is absent. `backfill`: the latest backfill run, from the store.
   */
  constructor(now: () => number = () => Date.now() / 1000, queue?: () => Promise<Record<string, number>>, backfill?: () => Promise<BackfillMetricSource | null>) {
    backfillGauges(this.registry, backfill);
    if (queue) {
      new Gauge({
        name: "tokenpool_backfill_queue_jobs",
        help: "Backfill jobs on the queue by state (waiting, active, delayed, failed, completed)",
        labelNames: ["state"] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          const counts = await queue().catch(() => ({}) as Record<string, number>);
          for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
        },
      });
    }
    const read = () => this.source();
    const status = {
      get block() {
        return read()?.block ?? null;
      },
      get finalized() {
        return read()?.finalized ?? null;
      },
      get blockTime() {
        return read()?.blockTime ?? null;
      },
      get blocksIndexed() {
        return read()?.blocksIndexed ?? 0;
      },
      get skippedEvents() {
        return read()?.skippedEvents ?? 0;
      },
      get progress() {
        return read()?.progress ?? {};
      },
      get sweep() {
        return read()?.sweep;
      },
    };
    const gauge = (name: string, help: string, value: () => number | null, labelNames: string[] = []) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect() {
          const v = value();
          if (v !== null) this.set(v);
        },
      });
    gauge("tokenpool_indexer_block", "Newest committed block", () => status.block);
    gauge("tokenpool_chain_finalized_block", "The chain's finalized head as last seen", () => status.finalized);
    gauge("tokenpool_indexer_lag_blocks", "Finalized head minus the newest committed block", () => (status.block !== null && status.finalized !== null ? Math.max(0, status.finalized - status.block) : null));
    gauge("tokenpool_indexer_lag_seconds", "Seconds between now and the on-chain time of the newest committed block", () => (status.blockTime !== null ? Math.max(0, now() - status.blockTime) : null));
    new Counter({
      name: "tokenpool_indexer_blocks_total",
      help: "Blocks committed by this process (blocks/s = rate())",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(status.blocksIndexed);
      },
    });
    new Counter({
      name: "tokenpool_indexer_skipped_events_total",
      help: "Events handled but not decoded or attributed, met by this process",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(status.skippedEvents);
      },
    });
    new Counter({
      name: "tokenpool_indexer_sweep_drift_total",
      help: "Differences between the store and chain storage found (and repaired) by the verification sweep of this process, by table and kind (missing, ghost, wrong)",
      labelNames: ["table", "kind"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [k, n] of Object.entries(status.sweep?.drift ?? {})) {
          const [table, kind] = k.split(".");
          this.inc({ table: table!, kind: kind! }, n);
        }
      },
    });
    new Counter({
      name: "tokenpool_indexer_sweep_passes_total",
      help: "Full verification passes ended by this process (every row served as current compared with chain storage)",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(status.sweep?.passes ?? 0);
      },
    });
    gauge("tokenpool_indexer_sweep_last_pass_seconds", "Duration of the last full verification pass: the bound on how long a change the chain does not announce stays wrong", () => status.sweep?.lastPass?.seconds ?? null);
    gauge("tokenpool_indexer_sweep_last_pass_end_timestamp_seconds", "Unix time the last full verification pass ended", () => status.sweep?.lastPass?.endedAt ?? null);
    new Gauge({
      name: "tokenpool_indexer_task_progress",
      help: "Long tasks: done (entries or blocks), total (estimate; absent until known), finished (0/1)",
      labelNames: ["task", "measure"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [task, p] of Object.entries(status.progress)) {
          if (!p) continue;
          this.set({ task, measure: "done" }, p.done);
          if (p.total !== null) this.set({ task, measure: "total" }, p.total);
          this.set({ task, measure: "finished" }, p.finished ? 1 : 0);
        }
      },
    });
  }
}

/**
 * GET /metrics on its own port: the given registries merged with the process's. Anything else
 * is 404; the server reads no body and answers at once.
 */
export async function startMetricsServer(registries: Registry[], port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics\n");
      return;
    }
    const merged = Registry.merge([processRegistry, ...registries]);
    merged.metrics().then(
      (text) => res.writeHead(200, { "content-type": merged.contentType }).end(text),
      () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n"),
    );
  });
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    // Scrapes are short: idle keep-alive connections close at once, and whatever is left after
    // 1 s (a scraper that never finishes its request) is cut, so shutdown is never held open.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      }),
  };
}
