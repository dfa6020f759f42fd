/**
 * docker-compose.yml as Docker Compose itself resolves it (`docker compose config`, or the
 * standalone `docker-compose config` where the plugin is missing): the stack the README's
 * "Run at scale" section promises, wired by env vars, with health checks.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const run = promisify(execFile);

/** The first Compose that answers: the v2 plugin, else standalone docker-compose. */
async function findCompose(): Promise<string[] | undefined> {
  for (const cmd of [["docker", "compose"], ["docker-compose"]]) {
    try {
      await run(cmd[0]!, [...cmd.slice(1), "version"]);
      return cmd;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

const compose = await findCompose();

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: Array<string | { published: string | number; target: number }>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
  volumes?: unknown[];
  build?: unknown;
}

describe.skipIf(!compose)(`docker-compose.yml${compose ? "" : " (skipped: neither `docker compose` nor `docker-compose` is installed)"}`, () => {
  it("is accepted by `config` and resolves to the whole stack, each service with a health check", async () => {
    const env = { ...process.env, WS_URL: "", PORT: "", LOG_LEVEL: "" };
    const { stdout } = await run(compose![0]!, [...compose!.slice(1), "--profile", "devnet", "config"], { env });
    // Debian's docker-compose (v1) lists the services of every profile in `config`; the plugin
    // only the active ones. The stack is the services of no profile or of "devnet".
    const all = (parse(stdout) as { services: Record<string, Service> }).services;
    const services = Object.fromEntries(Object.entries(all).filter(([, s]) => !s.profiles || s.profiles.includes("devnet")));
    expect(Object.keys(services).sort()).toEqual(["api1", "api2", "devnet", "indexer", "postgres", "proxy", "redis", "worker"]);
    for (const [name, s] of Object.entries(services)) expect(s.healthcheck?.test.length, name).toBeGreaterThan(0);

    expect(services.indexer!.command).toEqual(["indexer"]);
    expect(services.worker!.command?.[0]).toBe("worker");
    for (const name of ["api1", "api2"]) {
      const api = services[name]!;
      expect(api.command).toEqual(["api"]);
      expect(api.environment).toMatchObject({ REDIS_URL: "redis://redis:6379", TRUST_PROXY: "1", PORT: "3000" });
      expect(api.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(api.depends_on).toMatchObject({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
    }
    for (const name of ["indexer", "worker"]) expect(services[name]!.environment).toMatchObject({ REDIS_URL: "redis://redis:6379", WS_URL: "ws://devnet:9944" });
    // The indexer's health includes its heartbeat (status exits 1 when stale); the worker's does not.
    expect(services.indexer!.healthcheck!.test).toEqual(["CMD", "node", "bin/tokenpool.mjs", "status"]);
    expect(services.worker!.healthcheck!.test).toEqual(["CMD", "node", "bin/tokenpool.mjs", "status", "--stale-after", "0"]);
    // One published port, on the proxy in front of both replicas; the replicas publish none.
    const published = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(published.map(([n]) => n)).toEqual(["proxy"]);
    expect(JSON.stringify(services.proxy!.ports)).toContain("3000");
    expect(services.proxy!.depends_on).toMatchObject({ api1: { condition: "service_healthy" }, api2: { condition: "service_healthy" } });
    expect(services.devnet!.profiles).toEqual(["devnet"]);
    // The devnet runs the image's devnet target; the others the default one, which leaves it out.
    expect(services.devnet!.build).toMatchObject({ target: "devnet" });
    for (const name of ["api1", "api2", "indexer", "worker"]) expect((services[name]!.build as { target?: string } | undefined)?.target, name).toBeUndefined();
    // Metrics on their own port inside the network, published nowhere.
    for (const name of ["indexer", "api1", "api2"]) expect(services[name]!.environment).toMatchObject({ METRICS_PORT: "9100", METRICS_HOST: "0.0.0.0" });
  });

  it("the monitoring profile adds Prometheus and Grafana, each with a health check", async () => {
    const env = { ...process.env, WS_URL: "", PORT: "", LOG_LEVEL: "" };
    const { stdout } = await run(compose![0]!, [...compose!.slice(1), "--profile", "monitoring", "config"], { env });
    const services = (parse(stdout) as { services: Record<string, Service> }).services;
    expect(Object.keys(services)).toEqual(expect.arrayContaining(["prometheus", "grafana"]));
    for (const name of ["prometheus", "grafana"]) {
      expect(services[name]!.profiles).toEqual(["monitoring"]);
      expect(services[name]!.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    expect(JSON.stringify(services.grafana!.ports)).toContain("3001");
    // Published on the loopback interface only, unless MONITORING_HOST says otherwise.
    for (const name of ["prometheus", "grafana"]) expect(JSON.stringify(services[name]!.ports), name).toContain("127.0.0.1");
  });

  it("the proxy balances over both replicas and overwrites X-Forwarded-For with the client address", async () => {
    const conf = await readFile("deploy/nginx.conf", "utf8");
    expect(conf).toMatch(/server api1:3000/);
    expect(conf).toMatch(/server api2:3000/);
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
  });

  it("WS_URL and PORT from the environment reach the services", async () => {
    const env = { ...process.env, WS_URL: "wss://kusama-asset-hub-rpc.polkadot.io", PORT: "8080" };
    const { stdout } = await run(compose![0]!, [...compose!.slice(1), "config"], { env });
    const services = (parse(stdout) as { services: Record<string, Service> }).services;
    expect(services.indexer!.environment?.WS_URL).toBe("wss://kusama-asset-hub-rpc.polkadot.io");
    expect(JSON.stringify(services.proxy!.ports)).toContain("8080");
  });
});
