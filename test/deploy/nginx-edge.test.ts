/**
 * The shipped deploy/nginx.conf in the real nginx before stand-in replicas (small servers of this
 * test that answer 200, answer 503, drop the connection, answer late or send a large body), for
 * what the real API cannot be made to do on cue:
 *
 * - an answer of the app's (503) is passed on as it is, never replayed, and never takes the
 *   replica out (the file before replayed it and took the replica out: a full outage);
 * - a GET is tried on at most one more replica, a POST that was sent is never sent again, nor
 *   sent on a kept connection the app may be closing;
 * - a replica that could not be reached comes back once it answers again;
 * - the edge counts an IPv6 client by its /64, like the API;
 * - a large answer to a client that does not read is held back, never spooled to nginx's disk;
 * - an answer slower than the API's own deadline is still passed on;
 * - the edge's numbers are the API's.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CONNECTION_LIMITS } from "../../api/connection-budget.js";
import { DEFAULT_LIMITS } from "../../api/live/ws.js";
import { MAX_BODY_BYTES } from "../../api/app.js";
import { loadConfig } from "../../shared/config.js";
import { freePort } from "../support/port.js";
import { until } from "../support/wait.js";
import { answer, errorOf, fromEdge, NGINX, shippedConf, startNginx, type Nginx } from "./nginx-harness.js";

type Mode = "ok" | "unavailable" | "drop" | "closing" | { lateMs: number } | { bytes: number };

interface Stand {
  port: number;
  /** Requests it received (each attempt nginx made on it). */
  seen: string[];
  /** Bytes of a large answer written so far, and whether its socket is full (write returned false, no drain since). */
  written: number;
  blocked: boolean;
  close(): Promise<void>;
}

/** A stand-in replica on `port` (a fresh one when not given). */
async function stand(mode: Mode, port?: number): Promise<Stand> {
  const s: Stand = { port: port ?? (await freePort()), seen: [], written: 0, blocked: false, close: async () => {} };
  let server: Server | NetServer;
  if (mode === "drop") {
    // Reads the request, then closes the connection without a word: a replica that died on it.
    server = createNetServer((socket: Socket) => {
      let head = "";
      socket.on("data", (d) => {
        head += d.toString();
        if (head.includes("\r\n\r\n")) {
          s.seen.push(head.split("\r\n")[0]!);
          socket.destroy();
        }
      });
      socket.on("error", () => {});
    });
  } else {
    // "closing": a request that comes on a kept connection idle for 4.5 s or more meets the close
    // the app has begun (Node closes idle keep-alive connections after 5 s, and a request sent as
    // it does is lost): the connection is dropped.
    const idleSince = new WeakMap<object, number>();
    server = createHttpServer((req, res) => {
      s.seen.push(`${req.method} ${req.url}`);
      req.resume();
      const since = idleSince.get(req.socket);
      if (mode === "closing" && since !== undefined && Date.now() - since >= 4_500) return void req.socket.destroy();
      res.once("finish", () => idleSince.set(req.socket, Date.now()));
      if (mode === "ok" || mode === "closing") res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      else if (mode === "unavailable") res.writeHead(503, { "content-type": "application/json", "retry-after": "5" }).end('{"success":false,"error":{"code":"SERVICE_UNAVAILABLE","message":"The app refused this read."}}');
      else if ("lateMs" in mode) setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"late":true}'), mode.lateMs);
      else {
        res.writeHead(200, { "content-type": "text/csv", "content-length": String(mode.bytes) });
        const chunk = Buffer.alloc(64 * 1024, "x");
        const pump = (): void => {
          while (s.written < mode.bytes) {
            s.written += chunk.length;
            if (!res.write(chunk)) {
              s.blocked = true;
              res.once("drain", () => ((s.blocked = false), pump()));
              return;
            }
          }
          res.end();
        };
        pump();
      }
    });
  }
  if (mode === "closing") (server as Server).keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(s.port, "127.0.0.1", resolve));
  s.close = () => new Promise((resolve) => { (server as Server).closeAllConnections?.(); server.close(() => resolve()); });
  return s;
}

describe.skipIf(!NGINX)(`deploy/nginx.conf before stand-in replicas${NGINX ? "" : " (skipped: no nginx binary: apt-get install nginx)"}`, () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  async function edge(upstreams: Stand[], http = ""): Promise<Nginx> {
    open.push(...upstreams);
    const nginx = await startNginx(shippedConf(), upstreams.map((u) => u.port), http);
    open.push({ close: nginx.stop });
    return nginx;
  }

  it("an app's 503 is passed on as it is, never replayed on another replica, and never takes its replica out", async () => {
    const [unavailable, ok] = [await stand("unavailable"), await stand("ok")];
    const nginx = await edge([unavailable, ok]);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const a = await answer(nginx.port, { path: `/assets/holders/1?page=${i}`, from: "127.0.0.2" });
      statuses.push(a.status);
      if (a.status === 503) expect(errorOf(a)?.message).toBe("The app refused this read.");
    }
    // Round robin on: each replica took every other request, the one answering 503 included.
    expect(statuses.filter((s) => s === 503)).toHaveLength(10);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect([unavailable.seen.length, ok.seen.length]).toEqual([10, 10]);
  });

  it("a replica that drops the request: a GET is tried on one more replica at most, a POST never twice; the answer is the API's 503 body with Retry-After", async () => {
    const drops = [await stand("drop"), await stand("drop"), await stand("drop")];
    const nginx = await edge(drops);
    const seen = () => drops.reduce((n, d) => n + d.seen.length, 0);
    const get = await answer(nginx.port, { path: "/pool/stats", from: "127.0.0.2" });
    expect(seen()).toBe(2);
    expect(get.status).toBe(503);
    expect(errorOf(get)?.code).toBe("SERVICE_UNAVAILABLE");
    expect(fromEdge(get)).toBe(true);
    expect(get.headers["content-type"]).toMatch(/^application\/json/);
    expect(get.headers["retry-after"]).toBe("5");
    const post = await answer(nginx.port, { path: "/auth/login", method: "POST", from: "127.0.0.2", body: JSON.stringify({ email: "a@example.com", password: "correct horse battery" }) });
    expect(seen()).toBe(3);
    expect(post.status).toBe(503);
    expect(errorOf(post)?.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("a POST after 4.5 s of quiet is never sent on a kept connection the app may be closing (nginx lets idle ones go after 4 s, under Node's 5)", async () => {
    const closing = await stand("closing");
    const nginx = await edge([closing]);
    const post = () => answer(nginx.port, { path: "/auth/login", method: "POST", from: "127.0.0.2", body: "{}" });
    expect((await post()).status).toBe(200);
    // The idle time is the scenario (just past nginx's keepalive_timeout), not a bound.
    await new Promise((r) => setTimeout(r, 4_600));
    const second = await post();
    expect(second.status, second.body).toBe(200);
    expect(closing.seen).toHaveLength(2);
  }, 30_000);

  it("a replica that cannot be reached: requests go to the other (a POST too: it was never sent), and the replica is back once it answers again", async () => {
    const ok = await stand("ok");
    const downPort = await freePort();
    const nginx = await edge([ok, { port: downPort, seen: [], written: 0, blocked: false, close: async () => {} }]);
    for (let i = 0; i < 6; i++) {
      const method = i % 2 ? "POST" : "GET";
      const a = await answer(nginx.port, { path: "/auth/login", method, from: "127.0.0.2", ...(method === "POST" ? { body: "{}" } : {}) });
      expect(a.status, `${method} ${a.body}`).toBe(200);
    }
    const back = await stand("ok", downPort);
    open.push(back);
    // Out for fail_timeout (10 s) after its failures; then a live request tries it, and it is in again.
    await until("the replica answering again", async () => {
      await answer(nginx.port, { path: "/pool/stats", from: "127.0.0.2" });
      return back.seen.length > 0;
    }, 30_000);
  }, 45_000);

  it("counts an IPv6 client by its /64, like the API: a new address in the same /64 is no fresh budget", async () => {
    const ok = await stand("ok");
    // The test's clients all come from 127.0.0.1; realip (the test's own directives, outside the
    // shipped file) makes nginx take X-Real-IP as the client's address, as a real IPv6 peer's.
    const nginx = await edge([ok], "  set_real_ip_from 127.0.0.1;\n  real_ip_header X-Real-IP;");
    const from = (ip: string) => answer(nginx.port, { path: "/pool/stats", from: "127.0.0.1", headers: { "X-Real-IP": ip } });
    const statuses: number[] = [];
    for (let i = 1; i <= 110; i++) statuses.push((await from(`2001:db8:1:2::${i.toString(16)}`)).status);
    // 101 pass at once (a burst of 100 after the first), a few more as the bucket drains; then 429.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(101);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    const refused = await from("2001:db8:1:2:ffff:ffff:ffff:ffff");
    expect(refused.status).toBe(429);
    expect(fromEdge(refused)).toBe(true);
    expect(errorOf(refused)?.code).toBe("RATE_LIMITED");
    // Another /64, and IPv4 addresses, each their own budget.
    expect((await from("2001:db8:1:3::1")).status).toBe(200);
    expect((await from("198.51.100.7")).status).toBe(200);
  });

  it("the dashboard's page, script and style and /docs are outside the edge's request budget (the API keeps one of its own for them); the REST paths are not", async () => {
    const ok = await stand("ok");
    const nginx = await edge([ok]);
    const burst = (paths: string[], from: string) => Promise.all(Array.from({ length: 150 }, (_, i) => answer(nginx.port, { path: paths[i % paths.length]!, from })));
    const statics = await burst(["/", "/dashboard/app.js", "/dashboard/style.css", "/docs", "/docs/assets/swagger-ui-bundle.js"], "127.0.0.2");
    expect(statics.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    const rest = await burst(["/pool/stats", "/docs/other", "/dashboardx"], "127.0.0.3");
    expect(rest.filter((a) => a.status === 429 && fromEdge(a)).length).toBeGreaterThanOrEqual(40);
  });

  it("a large answer to a client that does not read is held back by the replica, never spooled onto nginx's disk", async () => {
    const bytes = 64 * 1024 * 1024;
    const big = await stand({ bytes });
    const nginx = await edge([big]);
    const socket = connect({ host: "127.0.0.1", port: nginx.port, localAddress: "127.0.0.2" });
    socket.pause();
    socket.write("GET /snapshots/1/csv HTTP/1.1\r\nHost: tokenpool\r\nConnection: close\r\n\r\n");
    // The replica's socket fills, and stays full: nginx reads no further than its memory buffers.
    let last = -1;
    let still = 0;
    await until("the replica held back, or done", () => {
      still = big.blocked && big.written === last ? still + 1 : 0;
      last = big.written;
      return still >= 5 || big.written >= bytes;
    }, 30_000);
    // What is in flight sits in socket buffers (a few MiB on loopback) and nginx's proxy_buffers;
    // spooled to a temporary file (the default: up to 1 GiB a request), it would be all of it.
    console.log(`a ${bytes / 2 ** 20} MiB answer, client not reading: the replica wrote ${(big.written / 2 ** 20).toFixed(1)} MiB`);
    expect(big.written).toBeLessThan(bytes / 2);
    // Once read, the whole answer arrives.
    let received = 0;
    socket.on("data", (d: Buffer) => (received += d.length));
    socket.resume();
    await new Promise((resolve) => socket.once("close", resolve));
    expect(received).toBeGreaterThan(bytes);
  }, 60_000);

  it("an answer slower than the API's own deadline (REQUEST_TIMEOUT_MS) is still passed on, not cut by nginx", async () => {
    const lateMs = loadConfig({}).requestTimeoutMs + 1_000;
    const late = await stand({ lateMs });
    const nginx = await edge([late]);
    const a = await answer(nginx.port, { path: "/pool/stats", from: "127.0.0.2", timeoutMs: lateMs + 10_000 });
    expect(a.status).toBe(200);
    expect(a.body).toBe('{"late":true}');
    expect(late.seen).toHaveLength(1);
  }, 30_000);

  it("the edge's budgets are the API's: 100 a minute, 256 connections, 20 /ws connections per client; bodies and deadlines within", () => {
    const conf = shippedConf();
    const config = loadConfig({});
    const one = (re: RegExp) => [...conf.matchAll(re)].map((m) => m[1]);
    expect(one(/zone=tokenpool_requests:\S+ rate=(\d+)r\/m;/g)).toEqual([String(config.rateLimitMax + 1)]);
    expect(new Set(one(/limit_req zone=tokenpool_requests burst=(\d+) nodelay;/g))).toEqual(new Set([String(config.rateLimitMax)]));
    expect(new Set(one(/limit_conn tokenpool_connections (\d+);/g))).toEqual(new Set([String(CONNECTION_LIMITS.perClient)]));
    expect(one(/limit_conn tokenpool_ws (\d+);/g)).toEqual([String(DEFAULT_LIMITS.maxConnectionsPerIp)]);
    expect(Number(one(/client_max_body_size (\d+)k;/g)[0]) * 1024).toBeGreaterThanOrEqual(MAX_BODY_BYTES);
    expect(Number(one(/^ {2}proxy_read_timeout (\d+)s;/gm)[0]) * 1000).toBeGreaterThan(config.requestTimeoutMs);
  });
});
