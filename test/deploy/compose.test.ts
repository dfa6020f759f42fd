/**
 * docker-compose.yml as Docker Compose itself resolves it (`docker compose config`, or the
 * standalone `docker-compose config` where the plugin is missing): the stack the README's
 * "Run at scale" section promises, wired by env vars, with health checks; its secrets and the
 * chain's address from an env file, a missing one refused by name; one scalable API service;
 * Redis on an append-only volume.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
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
  volumes?: Array<string | { type: string; source: string; target: string }>;
  build?: unknown;
  deploy?: { replicas?: number };
  container_name?: string;
  logging?: { driver?: string; options?: Record<string, string> };
  ulimits?: { nofile?: number | { soft: number; hard: number } };
}

/** The variables the file requires (`${VAR:?…}`), as an operator's .env would set them. */
const REQUIRED = { POSTGRES_PASSWORD: "pg-Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE", JWT_SECRET: "jwt-Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE", WS_URL: "ws://devnet:9944" };
/** Every variable the file reads, kept out of what the tests pass (the machine's environment may set some). */
const READS = [...Object.keys(REQUIRED), "PORT", "LOG_LEVEL", "USD_STABLECOINS", "MONITORING_HOST", "PROMETHEUS_PORT", "GRAFANA_PORT"];

// An empty env file of our own: Compose would otherwise read a developer's .env in the checkout.
const scratch = mkdtempSync(path.join(tmpdir(), "tokenpool-compose-"));
const envFile = path.join(scratch, "empty.env");
writeFileSync(envFile, "");

/** `config` of the file with exactly `vars` set: stdout parsed, or the failure's exit code and stderr. */
async function config(vars: Record<string, string>, args: string[] = []): Promise<{ services: Record<string, Service>; volumes: Record<string, unknown> } | { code: number; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, ...vars };
  for (const name of READS) if (!(name in vars)) delete env[name];
  try {
    const { stdout } = await run(compose![0]!, [...compose!.slice(1), "--env-file", envFile, ...args, "config"], { env });
    return parse(stdout) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

async function resolved(vars: Record<string, string>, args: string[] = []) {
  const out = await config(vars, args);
  if ("code" in out) throw new Error(`compose config failed (${out.code}): ${out.stderr}`);
  return out;
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!compose)(`docker-compose.yml${compose ? "" : " (skipped: neither `docker compose` nor `docker-compose` is installed)"}`, () => {
  it("is accepted by `config` and resolves to the whole stack, each service with a health check", async () => {
    const { services: all } = await resolved(REQUIRED, ["--profile", "devnet"]);
    // Debian's docker-compose (v1) lists the services of every profile in `config`; the plugin
    // only the active ones. The stack is the services of no profile or of "devnet".
    const services = Object.fromEntries(Object.entries(all).filter(([, s]) => !s.profiles || s.profiles.includes("devnet")));
    expect(Object.keys(services).sort()).toEqual(["api", "devnet", "indexer", "postgres", "proxy", "redis", "worker"]);
    for (const [name, s] of Object.entries(services)) expect(s.healthcheck?.test.length, name).toBeGreaterThan(0);

    expect(services.indexer!.command).toEqual(["indexer"]);
    expect(services.worker!.command?.[0]).toBe("worker");
    const api = services.api!;
    expect(api.command).toEqual(["api"]);
    expect(api.environment).toMatchObject({ REDIS_URL: "redis://redis:6379", TRUST_PROXY: "1", PORT: "3000" });
    expect(api.depends_on).toMatchObject({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
    for (const name of ["indexer", "worker"]) expect(services[name]!.environment).toMatchObject({ REDIS_URL: "redis://redis:6379", WS_URL: "ws://devnet:9944" });
    // The indexer's health includes its heartbeat (status exits 1 when stale); the worker's does not.
    expect(services.indexer!.healthcheck!.test).toEqual(["CMD", "node", "bin/tokenpool.mjs", "status"]);
    expect(services.worker!.healthcheck!.test).toEqual(["CMD", "node", "bin/tokenpool.mjs", "status", "--stale-after", "0"]);
    // One published port, on the proxy in front of the replicas; the replicas publish none.
    const published = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(published.map(([n]) => n)).toEqual(["proxy"]);
    expect(JSON.stringify(services.proxy!.ports)).toContain("3000");
    expect(services.proxy!.depends_on).toMatchObject({ api: { condition: "service_healthy" } });
    expect(services.devnet!.profiles).toEqual(["devnet"]);
    // The devnet runs the image's devnet target; the others the default one, which leaves it out.
    expect(services.devnet!.build).toMatchObject({ target: "devnet" });
    for (const name of ["api", "indexer", "worker"]) expect((services[name]!.build as { target?: string } | undefined)?.target, name).toBeUndefined();
    // Metrics on their own port inside the network, published nowhere.
    for (const name of ["indexer", "api"]) expect(services[name]!.environment).toMatchObject({ METRICS_PORT: "9100", METRICS_HOST: "0.0.0.0" });
  });

  it("one API service that scales (`--scale api=N`): two replicas by default, no fixed name, no published port, no volume of its own; nginx and Prometheus find the replicas by that name", async () => {
    const { services } = await resolved(REQUIRED);
    const replicaServices = Object.entries(services).filter(([, s]) => s.command?.[0] === "api");
    expect(replicaServices.map(([n]) => n)).toEqual(["api"]);
    const api = services.api!;
    expect(api.deploy?.replicas).toBe(2);
    expect(api.container_name).toBeUndefined();
    expect(api.ports ?? []).toEqual([]);
    expect(api.volumes ?? []).toEqual([]);
    const nginx = readFileSync("deploy/nginx.conf", "utf8");
    expect(nginx).toMatch(/^\s*server api:3000 resolve\b/m);
    expect(nginx).toMatch(/^resolver 127\.0\.0\.11 valid=\d+s/m);
    // `resolve` needs nginx ≥ 1.27.3.
    const [major, minor] = services.proxy!.image!.match(/^nginx:(\d+)\.(\d+)/)!.slice(1).map(Number);
    expect(major! * 1000 + minor!).toBeGreaterThanOrEqual(1028);
    expect(readFileSync("deploy/prometheus.yml", "utf8")).toMatch(/names: \["api"\]/);
  });

  it("each required variable missing stops `config` at once, naming it; set, it reaches the services", async () => {
    const names = Object.keys(REQUIRED);
    const without = (name: string) => Object.fromEntries(Object.entries(REQUIRED).filter(([k]) => k !== name));
    // Unset, and set but blank: both are missing.
    const [outs, blanks, { services }] = await Promise.all([
      Promise.all(names.map((name) => config(without(name)))),
      Promise.all(names.map((name) => config({ ...without(name), [name]: "" }))),
      resolved(REQUIRED),
    ]);
    names.forEach((name, i) => {
      for (const out of [outs[i]!, blanks[i]!]) {
        expect("code" in out, name).toBe(true);
        if ("code" in out) expect(out.stderr, name).toMatch(new RegExp(`set ${name} in \\.env`));
      }
    });
    expect(services.postgres!.environment?.POSTGRES_PASSWORD).toBe(REQUIRED.POSTGRES_PASSWORD);
    expect(services.api!.environment?.DATABASE_URL).toBe(`postgres://tokenpool:${REQUIRED.POSTGRES_PASSWORD}@postgres:5432/tokenpool`);
    expect(services.api!.environment?.JWT_SECRET).toBe(REQUIRED.JWT_SECRET);
    for (const name of ["indexer", "worker"]) expect(services[name]!.environment?.DATABASE_URL).toBe(services.api!.environment?.DATABASE_URL);
  }, 90_000);

  it("no password or secret is written in the file: each is a required variable; .env.example lists them, empty", () => {
    const text = readFileSync("docker-compose.yml", "utf8");
    // Every value of a key naming a password, secret or token is a `${VAR:?…}` reference.
    const secretKeys = [...text.matchAll(/^\s*([A-Z_]*(?:PASSWORD|SECRET|TOKEN)[A-Z_]*):\s*(.*)$/gm)];
    expect(secretKeys.map((m) => m[1])).toEqual(expect.arrayContaining(["POSTGRES_PASSWORD", "JWT_SECRET"]));
    for (const [, key, value] of secretKeys) expect(value, key).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
    // Connection URLs with a user carry their password by reference only.
    const passwords = [...text.matchAll(/[a-z]+:\/\/[\w.-]+:(.+?)@[\w.-]+:\d+/g)].map((m) => m[1]);
    expect(passwords.length).toBeGreaterThan(0);
    for (const password of passwords) expect(password).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
    const example = readFileSync(".env.example", "utf8");
    for (const name of Object.keys(REQUIRED)) expect(example).toMatch(new RegExp(`^${name}=$`, "m"));
    expect(readFileSync(".gitignore", "utf8").split("\n")).toEqual(expect.arrayContaining([".env", "!.env.example"]));
  });

  it("Redis appends every write to a named volume, so queued jobs survive a restart; Postgres keeps its own", async () => {
    const { services, volumes } = await resolved(REQUIRED);
    const redis = services.redis!;
    expect(redis.command?.join(" ")).toMatch(/--appendonly yes/);
    const mounts = (s: Service) => (s.volumes ?? []).map((v) => (typeof v === "string" ? v.split(":").slice(0, 2).join(":") : `${v.source}:${v.target}`));
    expect(mounts(redis)).toContain("redisdata:/data");
    expect(mounts(services.postgres!)).toContain("pgdata:/var/lib/postgresql/data");
    expect(Object.keys(volumes)).toEqual(expect.arrayContaining(["pgdata", "redisdata"]));
  });

  it("the monitoring profile adds Prometheus and Grafana, each with a health check", async () => {
    const { services } = await resolved(REQUIRED, ["--profile", "monitoring"]);
    expect(Object.keys(services)).toEqual(expect.arrayContaining(["prometheus", "grafana"]));
    for (const name of ["prometheus", "grafana"]) {
      expect(services[name]!.profiles).toEqual(["monitoring"]);
      expect(services[name]!.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    expect(JSON.stringify(services.grafana!.ports)).toContain("3001");
    // Published on the loopback interface only, unless MONITORING_HOST says otherwise.
    for (const name of ["prometheus", "grafana"]) expect(JSON.stringify(services[name]!.ports), name).toContain("127.0.0.1");
  });

  it("the proxy overwrites X-Forwarded-For with the client address", () => {
    expect(readFileSync("deploy/nginx.conf", "utf8")).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
  });

  it("every service's log is rotated: json-file, at most 10 MB a file and 5 files (Docker's default grows without bound)", async () => {
    const { services } = await resolved(REQUIRED, ["--profile", "devnet", "--profile", "monitoring"]);
    expect(Object.keys(services)).toEqual(expect.arrayContaining(["api", "devnet", "indexer", "postgres", "proxy", "redis", "worker", "prometheus", "grafana"]));
    for (const [name, s] of Object.entries(services)) {
      expect(s.logging?.driver, name).toBe("json-file");
      const size = /^(\d+)m$/.exec(s.logging?.options?.["max-size"] ?? "");
      expect(Number(size?.[1]) * Number(s.logging?.options?.["max-file"]), `${name}: MB kept`).toBeLessThanOrEqual(50);
    }
  });

  it("nginx runs the shipped main configuration, with as many open files as its workers may take", async () => {
    const { services } = await resolved(REQUIRED);
    const proxy = services.proxy!;
    const mounts = (proxy.volumes ?? []).map((v) => (typeof v === "string" ? v : `${v.source}:${v.target}`));
    expect(mounts.some((m) => /deploy\/nginx-main\.conf:\/etc\/nginx\/nginx\.conf\b/.test(m)), JSON.stringify(mounts)).toBe(true);
    const rlimit = Number(/^worker_rlimit_nofile (\d+);/m.exec(readFileSync("deploy/nginx-main.conf", "utf8"))?.[1]);
    const nofile = proxy.ulimits?.nofile;
    expect(typeof nofile === "object" ? Math.min(nofile.soft, nofile.hard) : nofile).toBeGreaterThanOrEqual(rlimit);
  });

  it("WS_URL and PORT from the environment reach the services", async () => {
    const { services } = await resolved({ ...REQUIRED, WS_URL: "wss://kusama-asset-hub-rpc.polkadot.io", PORT: "8080" });
    expect(services.indexer!.environment?.WS_URL).toBe("wss://kusama-asset-hub-rpc.polkadot.io");
    expect(JSON.stringify(services.proxy!.ports)).toContain("8080");
  });
});
