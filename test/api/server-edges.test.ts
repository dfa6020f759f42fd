/**
 * The HTTP server's own edges, over raw sockets against a real server: requests that
 * @hono/node-server or Node refuse before any route sees them (a bad Host or request target, a
 * missing Host, an Expect other than 100-continue) answer with the API's JSON error body, and
 * shutdown always completes — idle connections closed at once, requests in flight given a grace
 * period, whatever is left (a body that never finishes, a /ws peer that never answers the close
 * frame) cut after it.
 */
import { randomBytes } from "node:crypto";
import net from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer, type ApiServerOptions } from "../../api/server.js";
import { type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { memoryStore } from "../support/db.js";

const SECRET = randomBytes(32).toString("base64url");

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Status codes of the interim (1xx) answers before this one. */
  interim: number[];
}

/**
 * Reads one HTTP/1.1 answer (after any 1xx) from `socket`: by Content-Length, by chunks, or up to
 * the close. Rejects after `timeoutMs` without a complete answer.
 */
function readResponse(socket: net.Socket, timeoutMs = 3_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let buf = "";
    const interim: number[] = [];
    const done = (err: Error | undefined, res?: RawResponse) => {
      clearTimeout(timer);
      socket.off("data", onData).off("close", onClose);
      if (err) reject(err);
      else resolve(res!);
    };
    const parse = (closed: boolean): boolean => {
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return false;
        const [statusLine, ...lines] = buf.slice(0, end).split("\r\n");
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(":");
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const rest = buf.slice(end + 4);
        if (status >= 100 && status < 200 && status !== 101) {
          interim.push(status);
          buf = rest;
          continue;
        }
        if (headers["content-length"] !== undefined) {
          const length = Number(headers["content-length"]);
          if (Buffer.byteLength(rest) < length) return false;
          done(undefined, { status, headers, body: rest.slice(0, length), interim });
          return true;
        }
        if (headers["transfer-encoding"] === "chunked") {
          let body = "";
          let at = 0;
          for (;;) {
            const lineEnd = rest.indexOf("\r\n", at);
            if (lineEnd < 0) return false;
            const size = parseInt(rest.slice(at, lineEnd), 16);
            if (size === 0) {
              done(undefined, { status, headers, body, interim });
              return true;
            }
            if (rest.length < lineEnd + 2 + size + 2) return false;
            body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
          }
        }
        if (status === 101 || status === 304 || status === 204) {
          done(undefined, { status, headers, body: "", interim });
          return true;
        }
        if (!closed) return false;
        done(undefined, { status, headers, body: rest, interim });
        return true;
      }
    };
    const onData = (chunk: Buffer) => {
      buf += chunk.toString("latin1");
      parse(false);
    };
    const onClose = () => {
      if (!parse(true)) done(new Error(`connection closed without a complete answer: ${JSON.stringify(buf.slice(0, 200))}`));
    };
    const timer = setTimeout(() => done(new Error(`no complete answer within ${timeoutMs} ms: ${JSON.stringify(buf.slice(0, 200))}`)), timeoutMs);
    socket.on("data", onData).on("close", onClose);
  });
}

/** A connected raw socket (errors swallowed: the server may cut it). */
function open(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.off("error", reject);
      socket.on("error", () => {});
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Sends `request` on a new connection and reads the answer. */
async function raw(port: number, request: string): Promise<RawResponse> {
  const socket = await open(port);
  try {
    const answer = readResponse(socket);
    socket.write(request);
    return await answer;
  } finally {
    socket.destroy();
  }
}

/** Resolves once `text` has arrived on `socket` (from the listener's attachment on). */
function received(socket: net.Socket, text: string): Promise<void> {
  return new Promise((resolve) => {
    let buf = "";
    const onData = (chunk: Buffer) => {
      buf += chunk.toString("latin1");
      if (!buf.includes(text)) return;
      socket.off("data", onData);
      resolve();
    };
    socket.on("data", onData);
  });
}

const closed = (socket: net.Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

/** `promise`, or a rejection naming `what` after `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function expectErrorBody(res: RawResponse, status: number, code = "VALIDATION_ERROR"): void {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as unknown;
  expect(body).toEqual({ success: false, error: { code, message: expect.any(String) } });
  expect((body as { error: { message: string } }).error.message.length).toBeGreaterThan(0);
}

describe("the API server's edges", () => {
  let handle: DbHandle;
  let server: ApiServer;
  let port: number;
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: SECRET, RATE_LIMIT_MAX: "0" });

  /** A server of its own on the shared store (shutdown is one-way), and the log lines it writes. */
  async function startOwn(options: ApiServerOptions = {}): Promise<{ server: ApiServer; logs: string[] }> {
    const logs: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(chunk.toString());
        callback();
      },
    });
    const own = await startApiServer(config, createLogger("warn", "api", destination), { shared: handle, ...options });
    return { server: own, logs };
  }

  beforeAll(async () => {
    handle = await memoryStore();
    server = await startApiServer(config, createLogger("silent"), { shared: handle });
    port = server.port;
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  describe("requests refused before any route answer with the JSON error body", () => {
    const malformed: [string, string][] = [
      ["a Host with a space", "GET /health HTTP/1.1\r\nHost: a b\r\n\r\n"],
      ["a Host with a path", "GET /health HTTP/1.1\r\nHost: evil.com/x\r\n\r\n"],
      ["a Host with userinfo", "GET /health HTTP/1.1\r\nHost: a@b\r\n\r\n"],
      ["a Host with a port over 65535", "GET /health HTTP/1.1\r\nHost: a:99999\r\n\r\n"],
      ["a Host that is half an IPv6 literal", "GET /health HTTP/1.1\r\nHost: [\r\n\r\n"],
      ["an HTTP/1.1 request without Host", "GET /health HTTP/1.1\r\n\r\n"],
      ["an HTTP/1.1 POST without Host", "POST /auth/login HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"],
      ["a backslash in the path", "GET /oracle\\value/0 HTTP/1.1\r\nHost: a\r\n\r\n"],
      ["the asterisk form", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n"],
      ["an absolute-form target with a port over 65535", "GET http://a:99999/health HTTP/1.1\r\nHost: a\r\n\r\n"],
      ["an absolute-form target of another scheme", "GET ftp://a/health HTTP/1.1\r\nHost: a\r\n\r\n"],
      ["a bad Host on an Upgrade answered as HTTP", "GET /health HTTP/1.1\r\nHost: a b\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"],
    ];
    for (const [what, request] of malformed) {
      it(`${what}: 400`, async () => {
        expectErrorBody(await raw(port, request), 400);
      });
    }

    it("an Expect other than 100-continue: 417 with the error body; 100-continue still works", async () => {
      const refused = await raw(port, "GET /health HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n");
      expectErrorBody(refused, 417);
      expect(refused.interim).toEqual([]);
      const body = JSON.stringify({ email: "nobody@example.com", password: "correct horse battery" });
      const continued = await raw(port, `POST /auth/login HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      expect(continued.interim).toEqual([100]);
      expectErrorBody(continued, 401, "INVALID_CREDENTIALS");
    });

    it("well-formed requests are unchanged, and the server serves after all of the above", async () => {
      for (const request of [
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: EXAMPLE.com:8080\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: [::1]:3000\r\n\r\n",
        "GET http://a/health HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /health HTTP/1.0\r\n\r\n", // HTTP/1.0 needs no Host
      ]) {
        const res = await raw(port, request);
        expect(res.status, request).toBe(200);
        expect(JSON.parse(res.body)).toMatchObject({ status: "ok", db: "ok" });
      }
      const unknown = await raw(port, "GET /oracle/value/abc HTTP/1.1\r\nHost: a\r\n\r\n");
      expectErrorBody(unknown, 400);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    });
  });

  describe("shutdown", () => {
    it("cuts a request whose body never finishes after the grace period, logging how many connections it cut", async () => {
      const { server: own, logs } = await startOwn({ shutdownGraceMs: 300 });
      const slow = await open(own.port);
      try {
        // Expect: 100-continue makes Node answer 100 as it hands the request to the route: the
        // proof that the request is in flight (not an idle connection) before shutdown starts.
        const taken = received(slow, "HTTP/1.1 100 Continue\r\n\r\n");
        slow.write("POST /auth/login HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
        await within(3_000, "the 100 Continue of the slow request", taken);
        const started = Date.now();
        await within(5_000, "shutdown", own.close());
        const took = Date.now() - started;
        expect(took).toBeGreaterThanOrEqual(250);
        expect(took).toBeLessThan(3_000);
        await within(1_000, "the slow connection's close", closed(slow));
        const cut = logs.map((l) => JSON.parse(l) as { msg: string; connections?: number }).filter((l) => /cut/.test(l.msg));
        expect(cut).toHaveLength(1);
        expect(cut[0]).toMatchObject({ connections: 1 });
        expect(cut[0]!.msg).toMatch(/\b1 connection\b/);
      } finally {
        slow.destroy();
      }
    });

    it("closes idle keep-alive connections at once and lets a request in flight finish, then completes without waiting out the grace period", async () => {
      const { server: own, logs } = await startOwn({ shutdownGraceMs: 5_000 });
      const idle = await open(own.port);
      const busy = await open(own.port);
      try {
        const first = readResponse(idle);
        idle.write("GET /health HTTP/1.1\r\nHost: a\r\n\r\n");
        expect((await first).status).toBe(200); // and the connection is kept alive, idle

        const body = JSON.stringify({ email: "nobody@example.com", password: "correct horse battery" });
        const answer = readResponse(busy);
        const taken = received(busy, "HTTP/1.1 100 Continue\r\n\r\n");
        busy.write(`POST /auth/login HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
        await within(3_000, "the 100 Continue of the busy request", taken); // it is in flight, not idle

        const started = Date.now();
        const shutdown = own.close();
        await within(1_000, "the idle connection's close", closed(idle));
        busy.write(body.slice(5)); // the request in flight finishes, and is answered
        expectErrorBody(await answer, 401, "INVALID_CREDENTIALS");
        await within(2_000, "shutdown", shutdown);
        expect(Date.now() - started).toBeLessThan(2_000);
        await within(1_000, "the busy connection's close", closed(busy));
        expect(logs.filter((l) => /cut/.test(l))).toEqual([]);
      } finally {
        idle.destroy();
        busy.destroy();
      }
    });

    it("cuts a /ws peer that never answers the close frame after the grace period", async () => {
      const { server: own, logs } = await startOwn({ shutdownGraceMs: 300 });
      const peer = await open(own.port);
      try {
        const upgraded = readResponse(peer);
        peer.write("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
        expect((await upgraded).status).toBe(101);
        expect(own.live.connections()).toBe(1);
        // The peer reads nothing and answers nothing from here on.
        const started = Date.now();
        await within(5_000, "shutdown", own.close());
        expect(Date.now() - started).toBeLessThan(3_000);
        await within(1_000, "the /ws connection's close", closed(peer));
        expect(logs.some((l) => /cut/.test(l) && /"connections":1\b/.test(l))).toBe(true);
      } finally {
        peer.destroy();
      }
    });
  });
});
