/**
 * The monitoring profile's files, without Docker: Prometheus scrapes the services' METRICS_PORT,
 * Grafana is provisioned with that Prometheus and the dashboard, and every metric a dashboard
 * panel queries is one the code registers (a renamed metric would leave a panel empty).
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ApiMetrics, IndexerMetrics, processRegistry } from "../../shared/metrics.js";

describe("monitoring (deploy/)", () => {
  it("every metric of every dashboard panel is registered by the API, the indexer or the process", async () => {
    const registered = new Set<string>();
    for (const registry of [new ApiMetrics().registry, new IndexerMetrics().registry, processRegistry]) {
      for (const m of await registry.getMetricsAsJSON()) registered.add(m.name);
    }
    const dashboard = JSON.parse(await readFile("deploy/grafana/dashboards/tokenpool.json", "utf8")) as { uid: string; panels: { title: string; targets: { expr: string }[] }[] };
    expect(dashboard.uid).toBe("tokenpool");
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    const used = new Set<string>();
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const t of panel.targets) for (const name of t.expr.match(/tokenpool_[a-z0-9_]+/g) ?? []) used.add(name.replace(/_(bucket|count|sum)$/, ""));
    }
    for (const name of used) expect(registered, name).toContain(name);
    for (const wanted of ["tokenpool_indexer_lag_blocks", "tokenpool_indexer_blocks_total", "tokenpool_rpc_request_duration_seconds", "tokenpool_http_requests_total", "tokenpool_http_rate_limited_total", "tokenpool_cache_requests_total", "tokenpool_ws_connections"]) {
      expect(used, wanted).toContain(wanted);
    }
  });

  it("Prometheus scrapes the indexer and every API replica (found by the service name) on METRICS_PORT; Grafana has it as data source and loads the dashboard folder", async () => {
    type Scrape = { job_name: string; static_configs?: { targets: string[] }[]; dns_sd_configs?: { names: string[]; type: string; port: number }[] };
    const prometheus = parse(await readFile("deploy/prometheus.yml", "utf8")) as { scrape_configs: Scrape[] };
    const targets = prometheus.scrape_configs.flatMap((c) => [
      ...(c.static_configs ?? []).flatMap((s) => s.targets),
      ...(c.dns_sd_configs ?? []).flatMap((d) => d.names.map((n) => `${d.type} ${n}:${d.port}`)),
    ]);
    expect(targets.sort()).toEqual(["A api:9100", "indexer:9100"]);
    const datasource = parse(await readFile("deploy/grafana/provisioning/datasources/prometheus.yml", "utf8")) as { datasources: { uid: string; url: string }[] };
    expect(datasource.datasources[0]).toMatchObject({ uid: "prometheus", url: "http://prometheus:9090" });
    const provider = parse(await readFile("deploy/grafana/provisioning/dashboards/tokenpool.yml", "utf8")) as { providers: { options: { path: string } }[] };
    expect(provider.providers[0]!.options.path).toBe("/var/lib/grafana/dashboards");
    const compose = parse(await readFile("docker-compose.yml", "utf8")) as { "x-tokenpool": { environment: Record<string, string> }; services: Record<string, { profiles?: string[]; volumes?: string[] }> };
    expect(compose["x-tokenpool"].environment).toMatchObject({ METRICS_PORT: "9100", METRICS_HOST: "0.0.0.0" });
    expect(compose.services.prometheus!.profiles).toEqual(["monitoring"]);
    expect(compose.services.grafana!.profiles).toEqual(["monitoring"]);
    expect(compose.services.grafana!.volumes).toContain("./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro");
  });
});
