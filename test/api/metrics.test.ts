/**
 * Prometheus metrics of the API on METRICS_PORT: requests by route pattern and status, 429s,
 * response cache hits and misses, WebSocket connections — scraped over HTTP, parsed, and seen
 * to move; never served on the public port; labels never carry what the client sent.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { connect } from "../support/ws.js";
import { until } from "../support/wait.js";
import { parseMetrics } from "../support/metrics.js";
import { services } from "../support/db.js";
import { enqueueChunks, openQueue } from "../../indexer/jobs.js";
import { IndexerMetrics } from "../../shared/metrics.js";

describe("API metrics", () => {
  let dir: string;
  let server: ApiServer;
  let base: string;
  const scrape = async () => parseMetrics(await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text());

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "tokenpool-metrics-"));
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dir, LOG_LEVEL: "silent", METRICS_PORT: "0", RATE_LIMIT_MAX: "12", JWT_SECRET: randomBytes(32).toString("base64url") });
    server = await startApiServer(config, createLogger("silent"));
    base = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("counts requests by route pattern and status, cache hits and misses, 429s and WebSocket connections", async () => {
    expect(server.metricsPort).toBeGreaterThan(0);
    expect(server.metricsPort).not.toBe(server.port);
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/oracle/value/1984`)).status).toBe(404);
    expect((await fetch(`${base}/oracle/value/1984`)).status).toBe(404);
    expect((await fetch(`${base}/pool/stats`)).status).toBe(200);
    expect((await fetch(`${base}/pool/stats`)).status).toBe(200);
    await fetch(`${base}/zzz-not-a-route-${Math.random()}`);
    let m = await scrape();
    expect(m.get('tokenpool_http_requests_total{method="GET",route="/health",status="200"}')).toBe(3);
    expect(m.get('tokenpool_http_requests_total{method="GET",route="/oracle/value/:id",status="404"}')).toBe(2);
    expect(m.get('tokenpool_http_requests_total{method="GET",route="/pool/stats",status="200"}')).toBe(2);
    expect(m.get('tokenpool_http_request_duration_seconds_count{method="GET",route="/health"}')).toBe(3);
    expect([...m.keys()].some((k) => k.includes("zzz"))).toBe(false);
    const misses = m.get('tokenpool_cache_requests_total{result="miss"}')!;
    expect(misses).toBeGreaterThan(0);
    expect(m.get('tokenpool_cache_requests_total{result="hit"}')).toBeGreaterThan(0);

    const ws = await connect(`${base.replace("http", "ws")}/ws`);
    m = await scrape();
    expect(m.get("tokenpool_ws_connections")).toBe(1);
    ws.close();
    await until("the connection to close", async () => (await scrape()).get("tokenpool_ws_connections") === 0, 5_000);

    // 12 per minute: the 8 requests and the upgrade above took 9; 3 more pass, then 429s.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${base}/health`)).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    m = await scrape();
    expect(m.get("tokenpool_http_rate_limited_total")).toBe(3);
    // Process metrics come along.
    expect(m.get("tokenpool_process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("is not served on the public port, and only GET /metrics is served on its own", async () => {
    const pub = await fetch(`${base}/metrics`);
    expect([404, 429]).toContain(pub.status);
    expect(((await pub.json()) as { success: boolean }).success).toBe(false);
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("METRICS_PORT must be a port; METRICS_HOST defaults to 127.0.0.1", () => {
    expect(() => loadConfig({ METRICS_PORT: "x" })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9100" })).toMatchObject({ metricsPort: 9100, metricsHost: "127.0.0.1" });
  });

  it.skipIf(!services.redisUrl)(`the backfill queue depth on REDIS_URL, read at each scrape${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
    const at = { redisUrl: services.redisUrl!, prefix: `tokenpool-metrics-${Date.now()}` };
    const q = openQueue(at);
    try {
      const metrics = new IndexerMetrics(undefined, () => q.queue.getJobCounts("waiting", "active", "delayed", "failed", "completed"));
      const read = async () => parseMetrics(await metrics.registry.metrics());
      expect((await read()).get('tokenpool_backfill_queue_jobs{state="waiting"}')).toBe(0);
      await enqueueChunks(q.queue, [{ from: 1, to: 10 }, { from: 11, to: 20 }, { from: 21, to: 30 }]);
      expect((await read()).get('tokenpool_backfill_queue_jobs{state="waiting"}')).toBe(3);
    } finally {
      await q.queue.obliterate({ force: true });
      await q.close();
    }
  });
});

describe("the metrics server's shutdown", () => {
  it("is not held open by a scraper that never finishes its request", async () => {
    const { startMetricsServer } = await import("../../shared/metrics.js");
    const net = await import("node:net");
    const metrics = await startMetricsServer([], 0, "127.0.0.1");
    const socket = net.connect(metrics.port, "127.0.0.1");
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    // One write: a whole request, then one whose headers never end. The answer to the first shows
    // the server has read the write, so the connection holds a request in progress (not idle).
    socket.write("GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await until("the answer to the first request", () => answer.startsWith("HTTP/1.1 404 ") && answer.includes("not found: GET /metrics") && answer.endsWith("\r\n0\r\n\r\n"), 5_000);
    const started = Date.now();
    await metrics.close();
    const took = Date.now() - started;
    // Held by the unfinished request, then cut (an idle connection would close at once).
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3_000);
    await until("the server to cut the connection", () => socket.destroyed, 2_000);
    socket.destroy();
  });
});

describe("request metrics counted in plain numbers", () => {
  it("expose the same text prom-client's own Counter and Histogram give for the same requests", async () => {
    const { ApiMetrics } = await import("../../shared/metrics.js");
    const { Counter, Histogram, Registry } = await import("prom-client");
    const ours = new ApiMetrics();
    const reference = new Registry();
    const requests = new Counter({ name: "tokenpool_http_requests_total", help: "x", labelNames: ["method", "route", "status"], registers: [reference] });
    const latency = new Histogram({ name: "tokenpool_http_request_duration_seconds", help: "x", labelNames: ["method", "route"], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [reference] });
    // Bucket edges (exactly 0.005 counts in le="0.005"), past the last bucket, an unknown method.
    const seen: Array<[string, string, number, number]> = [
      ["GET", "/pool/stats", 200, 0.003],
      ["GET", "/pool/stats", 200, 0.005],
      ["GET", "/pool/stats", 304, 7],
      ["HEAD", "/pool/stats", 200, 0.0004],
      ["GET", "/oracle/value/:id", 404, 0.02],
      ["BREW", "/oracle/value/:id", 405, 0.001],
    ];
    for (const [method, route, status, seconds] of seen) {
      ours.observe(method, route, status, seconds);
      const m = method === "BREW" ? "OTHER" : method;
      requests.inc({ method: m, route, status: String(status) });
      latency.observe({ method: m, route }, seconds);
    }
    const lines = (text: string) => text.split("\n").filter((l) => l.startsWith("tokenpool_http_request")).sort();
    const expected = lines(await reference.metrics());
    expect(expected.length).toBe(4 * 15 + 5); // 4 (method, route) histograms of 12 buckets, +Inf, sum, count; 5 counter series
    expect(lines(await ours.registry.metrics())).toEqual(expected);
  });
});
