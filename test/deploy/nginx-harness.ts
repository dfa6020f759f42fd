/**
 * The shipped deploy/nginx.conf in the real nginx (Debian's package), as the compose stack runs
 * it: only the upstream's `server` line (one per address given) and the listen port are
 * rewritten, and the rest is checked to be the shipped file line for line. Around it, the shipped
 * deploy/nginx-main.conf (workers, logs), with only its paths and `user` rewritten. Debian's nginx 1.22
 * has no `resolve` (nginx ≥ 1.27.3, the image compose pins): the rewritten lines keep every other
 * parameter of the shipped one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { freePort } from "../support/port.js";
import { until } from "../support/wait.js";

export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));

/** The file under test: deploy/nginx.conf, or NGINX_CONF (to run the suite once against another version of it). */
export function shippedConf(): string {
  return readFileSync(process.env.NGINX_CONF ?? "deploy/nginx.conf", "utf8");
}

const SERVER_LINE = /^\s*server [\w.-]+:3000\b[^;]*;\s*$/;
const LISTEN_LINE = /^\s*listen 80;\s*$/;

/** The shipped site with its replicas at `upstreams` (127.0.0.1) and its listen port at `listen`. */
export function siteFor(shipped: string, listen: number, upstreams: number[]): string {
  const lines = shipped.split("\n");
  const servers = lines.filter((l) => SERVER_LINE.test(l));
  expect(servers.length, "the shipped upstream's server lines").toBeGreaterThan(0);
  const params = servers[0]!.trim().replace(/^server \S+/, "").replace(/;$/, "").replace(/\bresolve\b/, "").replace(/\s+/g, " ").trimEnd();
  const out: string[] = [];
  for (const line of lines) {
    if (SERVER_LINE.test(line)) {
      // The first server line becomes one line per replica; any other (the file before this one named two) goes.
      if (line === servers[0]) for (const port of upstreams) out.push(`  server 127.0.0.1:${port}${params}; # test`);
    } else if (LISTEN_LINE.test(line)) out.push(`  listen 127.0.0.1:${listen}; # test`);
    else out.push(line);
  }
  expect(out.filter((l) => !l.endsWith("# test")), "everything but the rewritten lines is the shipped file").toEqual(lines.filter((l) => !SERVER_LINE.test(l) && !LISTEN_LINE.test(l)));
  return out.join("\n");
}

/** The shipped main configuration (deploy/nginx-main.conf, or NGINX_MAIN_CONF). */
export function shippedMain(): string {
  return readFileSync(process.env.NGINX_MAIN_CONF ?? "deploy/nginx-main.conf", "utf8");
}

/**
 * The shipped main configuration in the scratch prefix `dir`: its pid, logs and `user` (the
 * image's account; here the master runs workers as its default) rewritten, and the site and the
 * test's own http directives where it includes conf.d. Everything else is checked to be the
 * shipped file line for line.
 */
export function mainFor(main: string, dir: string, http: string): string {
  const rewrites: [RegExp, (line: string) => string][] = [
    [/^user\s+\S+;$/, () => ""],
    [/^pid\s+\S+;$/, () => `pid ${dir}/nginx.pid;`],
    [/^error_log\s+\S+/, (l) => l.replace(/^error_log\s+\S+/, `error_log ${dir}/error.log`)],
    [/^\s*access_log\s+\S+/, (l) => l.replace(/access_log\s+\S+/, `access_log ${dir}/access.log`)],
    [/^\s*include\s+\/etc\/nginx\/conf\.d\/\*\.conf;$/, () => http],
  ];
  const lines = main.split("\n");
  const out: string[] = [];
  let rewritten = 0;
  for (const line of lines) {
    const rule = rewrites.find(([re]) => re.test(line));
    if (rule) rewritten++;
    out.push(rule ? `${rule[1](line)} # test` : line);
  }
  expect(rewritten, "the shipped main conf's user, pid, logs and include").toBe(rewrites.length);
  return out.join("\n");
}

export interface Nginx {
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/**
 * nginx with the shipped site in front of `upstreams`, in a scratch prefix. `http` is added to
 * the http block before the site (the tests' own directives, e.g. realip to play IPv6 clients).
 */
export async function startNginx(shipped: string, upstreams: number[], http = ""): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), "tokenpool-nginx-"));
  chmodSync(dir, 0o755);
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
  for (const t of temps) mkdirSync(path.join(dir, t));
  const port = await freePort();
  const conf = mainFor(shippedMain(), dir, `${temps.map((t) => `  ${t}_temp_path ${dir}/${t};`).join("\n")}\n${http}\n${siteFor(shipped, port, upstreams)}`);
  writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child: ChildProcess = spawn(NGINX!, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "inherit", "inherit"] });
  let exited = false;
  child.once("exit", () => (exited = true));
  // Never outlives the test process, however it ends.
  process.once("exit", () => child.kill("SIGKILL"));
  await until("nginx listening", async () => {
    if (exited) throw new Error(`nginx exited: ${readFileSync(path.join(dir, "error.log"), "utf8").slice(-1000)}`);
    // A TCP connection, not a request: a request would reach the replicas and count there.
    return new Promise<boolean>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port }, () => resolve(true)).once("error", () => resolve(false));
      socket.once("connect", () => socket.destroy());
    });
  }, 15_000);
  return {
    port,
    dir,
    async stop() {
      if (!exited) {
        child.kill("SIGQUIT");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Ask {
  path: string;
  /** The loopback address the request comes from (nginx sees it as the client). */
  from: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

/** One request on a connection of its own. */
export function answer(port: number, ask: Ask): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { connection: "close", ...ask.headers, ...(ask.body !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(ask.body)) } : {}) };
    const req = httpRequest({ host: "127.0.0.1", port, path: ask.path, method: ask.method ?? "GET", localAddress: ask.from, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(ask.timeoutMs ?? 15_000, () => req.destroy(new Error(`timeout: ${ask.method ?? "GET"} ${ask.path}`)));
    req.end(ask.body);
  });
}

/** The body of an error answer: { code, message }, or undefined when it is not the API's error body. */
export function errorOf(a: Answer): { code: string; message: string } | undefined {
  try {
    const parsed = JSON.parse(a.body) as { success?: boolean; error?: { code: string; message: string } };
    return parsed.success === false ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** The messages of nginx's own error answers in the file under test (`return NNN '{…}'`). */
function edgeMessages(): Set<string> {
  const messages = [...shippedConf().matchAll(/return \d{3} '(\{.*\})';/g)].map((m) => (JSON.parse(m[1]!) as { error: { message: string } }).error.message);
  return new Set(messages);
}
const EDGE = edgeMessages();

/**
 * Whether nginx answered this itself rather than passing on a replica's answer: one of its error
 * bodies, or a 5xx that is not the API's error body (nginx's default page, in the file before).
 */
export function fromEdge(a: Answer): boolean {
  const error = errorOf(a);
  if (error) return EDGE.has(error.message);
  return a.status >= 500 || a.status === 0;
}
