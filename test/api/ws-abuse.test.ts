/**
 * /ws as an attacker uses it, against a real server on a fixture market: sockets reset during
 * refused upgrades, bursts in one tick against every limit, subscribes still computing when the
 * connection goes, floods past the shared HTTP window, and topics spelled many ways. After each,
 * the process serves and the per-block work (subscribed topics) is back to its baseline.
 *
 * Each test is its own client address (X-Forwarded-For behind TRUST_PROXY=1), so their rate
 * limit windows do not mix.
 */
import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { announceBlocks, insertBlocks, insertPrices, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { HEAD_BLOCK, HEAD_TIME, KSM, PUSDC, seedMarket, TEN, TREASURY, USDT, WETH, ZERO } from "../support/fixtures.js";
import { until } from "../support/wait.js";
import { connect, notificationsFor, refused, type Client } from "../support/ws.js";
import { memoryStore } from "../support/db.js";

const SECRET = randomBytes(32).toString("base64url");
const RATE_LIMIT = 60;

describe("/ws under abuse", () => {
  let handle: DbHandle;
  let server: ApiServer;
  let port: number;
  let url: string;
  let base: string;
  let token: string;
  let nextIp = 1;
  const clients: Client[] = [];
  /** A fresh client address for one test. */
  const ip = () => `198.51.100.${nextIp++}`;
  const open = async (from: string, headers: Record<string, string> = {}) => {
    const c = await connect(url, { "x-forwarded-for": from, ...headers });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    handle = await memoryStore();
    await seedMarket(handle.db);
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: SECRET, TRUST_PROXY: "1", RATE_LIMIT_MAX: String(RATE_LIMIT) });
    server = await startApiServer(config, createLogger("silent"), { shared: handle, live: { maxSubscriptions: 3, maxConnectionsPerIp: 4, maxInFlight: 64, pingIntervalMs: 400 }, http: { headersTimeout: 1_000, requestTimeout: 2_000, connectionsCheckingInterval: 200 } });
    port = server.port;
    base = `http://127.0.0.1:${port}`;
    url = `ws://127.0.0.1:${port}/ws`;
    const res = await fetch(`${base}/auth/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip() }, body: JSON.stringify({ email: "abuse@example.com", password: "correct horse battery" }) });
    token = ((await res.json()) as { data: { token: string } }).data.token;
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.ws.terminate();
    await until("every topic to be released", () => server.hub.topicCount === 0, 5_000);
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  /** Sends a raw upgrade request and resets the connection (RST) as soon as it is written. */
  function resetAfterUpgrade(path: string, headers: string[] = []): Promise<void> {
    return new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        const request = [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", ...headers, "", ""].join("\r\n");
        socket.write(request, () => socket.resetAndDestroy());
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve());
    });
  }

  it("survives sockets reset during refused upgrades, many times over", async () => {
    const from = ip();
    const attempts: Promise<void>[] = [];
    // 3 × 15 attempts: the 30 on /ws count against the window of 60, so the client below still fits.
    for (let i = 0; i < 15; i++) {
      attempts.push(resetAfterUpgrade("/not-ws", [`X-Forwarded-For: ${from}`]));
      attempts.push(resetAfterUpgrade("/ws", [`X-Forwarded-For: ${from}`, "Authorization: Bearer not-a-token"]));
      attempts.push(resetAfterUpgrade("/ws", [`X-Forwarded-For: ${from}`]));
    }
    await Promise.all(attempts);
    // Alive, and the connection slots of the reset sockets were all given back.
    await until("the reset sockets' slots to be given back", () => server.live.slotsOf(from) === 0, 5_000);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const c = await open(from);
    expect((await c.call("subscribe", { topic: "blocks" })).result.topic).toBe("blocks");
  });

  it("gives each connection slot back when its socket closes: the whole limit opens again, round after round", async () => {
    const from = ip();
    for (let round = 0; round < 2; round++) {
      const opened = await Promise.all(Array.from({ length: 4 }, () => open(from)));
      expect(server.live.slotsOf(from), `round ${round}`).toBe(4);
      for (const c of opened) c.close();
      await until(`round ${round}'s slots to be given back`, () => server.live.slotsOf(from) === 0, 5_000);
    }
  });

  it("reserves connection slots before the token check: a burst of upgrades opens at most the limit", async () => {
    const from = ip();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () =>
        new Promise<"open" | number>((resolve) => {
          const ws = new WebSocket(url, { headers: { "x-forwarded-for": from, authorization: `Bearer ${token}` } });
          ws.on("open", () => {
            clients.push({ ws, messages: [], call: async () => undefined, close: () => ws.close() });
            resolve("open");
          });
          ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
          ws.on("error", () => {});
        }),
      ),
    );
    expect(outcomes.filter((o) => o === "open")).toHaveLength(4);
    expect(outcomes.filter((o) => o === 429)).toHaveLength(8);
  });

  it("reserves subscription slots before computing: a burst in one tick subscribes at most the limit", async () => {
    const c = await open(ip());
    const topics = ["pool.stats", "blocks", ...[KSM, USDT, TEN, WETH, ZERO, PUSDC].map((id) => `oracle.value:${id}`)];
    topics.forEach((topic, i) => c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1000 + i, method: "subscribe", params: { topic } })));
    await until("every answer", () => c.messages.filter((m) => m.id >= 1000).length === topics.length, 10_000);
    const answers = c.messages.filter((m) => m.id >= 1000);
    expect(answers.filter((m) => m.result)).toHaveLength(3);
    expect(answers.filter((m) => m.error?.code === -32002)).toHaveLength(topics.length - 3);
  });

  it("releases subscribes still computing when the connection closes", async () => {
    // An open transaction holds PGlite's single connection: every answer computes until it ends.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holding = handle.db.transaction(async () => gate);
    for (let round = 0; round < 5; round++) {
      const c = await open(ip());
      for (const topic of ["pool.stats", `oracle.value:${KSM}`, `oracle.value:${USDT}`]) c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscribe", params: { topic } }));
      // Answered without the database, after the subscribes: the server has them all, computing.
      await c.call("frobnicate");
      c.ws.terminate();
    }
    // The server saw every connection go while their 15 subscribes were still computing.
    await until("the connections to close", () => server.live.connections() === 0, 10_000);
    expect(server.hub.reservedCost).toBeGreaterThan(0);
    release();
    await holding;
    // Every subscribe has finished computing (its reservation given back)…
    await until("the subscribes to finish", () => server.hub.reservedCost === 0, 10_000);
    // …and none of them stayed: nothing left to recompute per block.
    expect(server.hub.topicCount).toBe(0);
  });

  it("counts messages against the client's HTTP window: over it, both /ws and HTTP are limited; a flood is closed", async () => {
    const from = ip();
    for (let i = 0; i < 20; i++) expect((await fetch(`${base}/oracle/value/${KSM}`, { headers: { "x-forwarded-for": from } })).status).toBe(200);
    const c = await open(from); // the upgrade is request 21
    let answered = 0;
    for (let i = 0; i < RATE_LIMIT; i++) {
      const r = await c.call(i % 2 ? "unsubscribe" : "subscribe", i % 2 ? { subscription: "s1" } : { topic: "blocks" });
      if (r.error?.code === -32002) break;
      answered += 1;
    }
    expect(answered).toBe(RATE_LIMIT - 21);
    const over = await c.call("subscribe", { topic: "pool.stats" });
    expect(over.error).toMatchObject({ code: -32002, data: { code: "RATE_LIMITED", retryAfter: expect.any(Number) } });
    const http = await fetch(`${base}/pool/stats`, { headers: { "x-forwarded-for": from } });
    expect(http.status).toBe(429);
    expect(((await http.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    // New upgrades from the same client are refused while it is over.
    expect((await refused(url, { "x-forwarded-for": from })).status).toBe(429);

    // A client that keeps sending regardless is disconnected (1008), and the server is fine.
    const closed = new Promise<number>((resolve) => c.ws.once("close", (code) => resolve(code)));
    for (let i = 0; i < 500; i++) c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "subscribe", params: { topic: "blocks" } }));
    expect(await closed).toBe(1008);
    expect((await fetch(`${base}/health`, { headers: { "x-forwarded-for": ip() } })).status).toBe(200);
  });

  it("names pair topics by resolved ids: symbols, case and ids are one topic", async () => {
    const c = await open(ip());
    const first = await c.call("subscribe", { topic: `pool.pair:KSM/${USDT}` });
    expect(first.result.topic).toBe(`pool.pair:${KSM}/${USDT}`);
    for (const spelling of [`pool.pair:ksm/${USDT}`, `pool.pair:${KSM}/${USDT}`, "pool.pair:Ksm/usdt"]) {
      expect((await c.call("subscribe", { topic: spelling })).error).toMatchObject({ code: -32602, message: `Already subscribed to "pool.pair:${KSM}/${USDT}".` });
    }
    // The other orientation is another answer (price of USDt in KSM), so another topic.
    expect((await c.call("subscribe", { topic: `pool.pair:${USDT}/KSM` })).result.topic).toBe(`pool.pair:${USDT}/${KSM}`);
  });

  it("rejects control characters in topics with a validation error, never a server error", async () => {
    const c = await open(ip());
    for (const topic of ["pool.pair:\u0000/1984", "oracle.value:1\u0000", "pool.pair:KSM/\u001b[31m", "blocks\u007f"]) {
      expect((await c.call("subscribe", { topic })).error).toMatchObject({ code: -32602, data: { code: "VALIDATION_ERROR" } });
    }
    expect((await c.call("subscribe", { topic: "blocks" })).result.topic).toBe("blocks");
  });

  it("accounts topics: need the token; every spelling of one address is one topic, named in the chain's prefix; hostile addresses are validation errors", async () => {
    const anonymous = await open(ip());
    expect((await anonymous.call("subscribe", { topic: `accounts:${TREASURY}` })).error).toMatchObject({ code: -32001, data: { code: "UNAUTHORIZED" } });
    // The refusal names the topic asked for (review: a transfers: topic was named accounts:).
    expect((await anonymous.call("subscribe", { topic: `transfers:${TREASURY}` })).error).toMatchObject({ code: -32001, message: expect.stringContaining(`"transfers:`) });
    const c = await open(ip(), { authorization: `Bearer ${token}` });
    const first = await c.call("subscribe", { topic: "accounts:5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY" }); // generic prefix 42
    expect(first.result.topic).toBe(`accounts:${TREASURY}`);
    expect(first.result.result.address).toBe(TREASURY);
    for (const spelling of [TREASURY, "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d", "0xD43593C715FDD31C61141ABD04A99FD6822C8558854CCDE39A5684E7A56DA27D"]) {
      expect((await c.call("subscribe", { topic: `accounts:${spelling}` })).error.message, spelling).toContain("Already subscribed");
    }
    for (const bad of ["accounts:", "accounts:nope", "accounts:0x1234", `accounts:${TREASURY}\u0000`, `accounts:${"1".repeat(150)}`, "accounts:0x" + "zz".repeat(32)]) {
      expect((await c.call("subscribe", { topic: bad })).error, bad).toMatchObject({ code: -32602, data: { code: "VALIDATION_ERROR" } });
    }
    expect(server.hub.topicCount).toBe(1);
  });

  it("a campaign of oversized frames, silent peers, slow readers and floods: the server stays up, and every connection and topic goes with its client", async () => {
    const closes: Promise<number>[] = [];
    const closeOf = (c: Client) => new Promise<number>((resolve) => c.ws.once("close", (code) => resolve(code)));
    // Oversized frames: closed with 1009, however many.
    for (let i = 0; i < 3; i++) {
      const c = await open(ip());
      await c.call("subscribe", { topic: "pool.stats" });
      const closed = closeOf(c);
      c.ws.send("x".repeat(17 * 1024));
      closes.push(closed.then((code) => (expect(code).toBe(1009), code)));
    }
    // Half-open peers: subscribed, then silent (no pong) — terminated within two ping intervals.
    for (let i = 0; i < 3; i++) {
      const c = await connect(url, { "x-forwarded-for": ip() }, { autoPong: false });
      clients.push(c);
      await c.call("subscribe", { topic: `oracle.value:${KSM}` });
      closes.push(closeOf(c));
    }
    // Slow readers: subscribed, then they stop reading their socket.
    for (let i = 0; i < 2; i++) {
      const c = await open(ip());
      await c.call("subscribe", { topic: "blocks" });
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    }
    // Floods past the rate limit: closed with 1008.
    for (let i = 0; i < 2; i++) {
      const c = await open(ip());
      const closed = closeOf(c);
      for (let n = 0; n < 300; n++) c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: n, method: "subscribe", params: { topic: "blocks" } }));
      closes.push(closed.then((code) => (expect(code).toBe(1008), code)));
    }
    await Promise.all(closes);
    expect((await fetch(`${base}/health`, { headers: { "x-forwarded-for": ip() } })).status).toBe(200);
    // The slow readers leave too (their sockets simply go away).
    for (const c of clients.splice(0)) c.ws.terminate();
    await until("every topic released", () => server.hub.topicCount === 0, 5_000);
    await until("every connection gone", () => server.live.connections() === 0, 5_000);
  });

  it("cuts off half-open requests: an upgrade whose headers never end does not hold its socket", async () => {
    const started = Date.now();
    const sockets = Array.from({ length: 10 }, () =>
      new Promise<number>((resolve) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nX-Forwarded-For: ${ip()}\r\n`));
        socket.on("error", () => {});
        socket.on("close", () => resolve(Date.now() - started));
      }),
    );
    const closedAfter = await Promise.all(sockets);
    expect(Math.max(...closedAfter)).toBeLessThan(5_000);
    expect((await fetch(`${base}/health`, { headers: { "x-forwarded-for": ip() } })).status).toBe(200);
  });

  it("answers subscribes from the response cache a REST read filled", async () => {
    const from = ip();
    const rest = await fetch(`${base}/pool/stats/${KSM}/${USDT}`, { headers: { "x-forwarded-for": from } });
    const body = await rest.json();
    const hits = server.cache!.hits;
    const c = await open(from);
    const sub = await c.call("subscribe", { topic: `pool.pair:KSM/${USDT}` });
    expect(sub.result.result).toEqual(body);
    expect(server.cache!.hits).toBe(hits + 1);
  });
  /** Writes `lines` on a raw socket and reads until the server closes it (or 3 s). */
  function raw(lines: string[]): Promise<string> {
    return new Promise((resolve) => {
      let text = "";
      const socket = net.connect(port, "127.0.0.1", () => socket.write(lines.join("\r\n") + "\r\n\r\n"));
      socket.on("data", (d) => (text += d.toString()));
      socket.on("error", () => {});
      socket.on("close", () => resolve(text));
      setTimeout(() => socket.destroy(), 3_000);
    });
  }
  const upgradeHeaders = (from: string) => ["Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", `X-Forwarded-For: ${from}`];
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));

  it("a request target that URL parsing rejects, with an Upgrade header, is refused with the error body and the process lives", async () => {
    const from = ip();
    for (const target of ["//[", "//[/ws", "http://a:99999/ws", "http://%zz/ws", "http://[::1/ws", "*"]) {
      const answer = await raw([`GET ${target} HTTP/1.1`, ...upgradeHeaders(from)]);
      expect(answer, target).toMatch(/^HTTP\/1\.1 (400|404) /);
      expect(bodyOf(answer).success, target).toBe(false);
    }
    expect((await fetch(`${base}/health`, { headers: { "x-forwarded-for": ip() } })).status).toBe(200);
  });

  it("an Upgrade offered on a REST path (h2c, …) is ignored: the route answers as plain HTTP", async () => {
    const from = ip();
    const plain: any = await (await fetch(`${base}/pool/stats`, { headers: { "x-forwarded-for": from } })).json();
    const answer = await raw(["GET /pool/stats HTTP/1.1", "Host: 127.0.0.1", "Connection: Upgrade, HTTP2-Settings", "Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA", `X-Forwarded-For: ${from}`]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(bodyOf(answer)).toEqual(plain);
    // With a body it cannot be read off a detached socket: refused, with the error body.
    const post = await raw(["POST /auth/login HTTP/1.1", "Host: 127.0.0.1", "Connection: Upgrade", "Upgrade: h2c", "Content-Type: application/json", "Content-Length: 2", `X-Forwarded-For: ${from}`]);
    expect(post).toMatch(/^HTTP\/1\.1 404 /);
    expect(bodyOf(post).error.code).toBe("NOT_FOUND");
  });

  it("a handshake ws would refuse, or a query on /ws, is a 400 with the error body", async () => {
    const from = ip();
    const cases: string[][] = [
      ["GET /ws HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: short", `X-Forwarded-For: ${from}`],
      ["GET /ws HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 7", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", `X-Forwarded-For: ${from}`],
      ["GET /ws HTTP/1.1", "Host: 127.0.0.1", "Upgrade: foo", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", `X-Forwarded-For: ${from}`],
      ["GET /ws?x=1 HTTP/1.1", ...upgradeHeaders(from)],
    ];
    for (const lines of cases) {
      const answer = await raw(lines);
      expect(answer, lines.join(" | ")).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("subscribe, unsubscribe, subscribe again in one burst while computing: every request is answered and the live subscription gets pushes", async () => {
    const c = await open(ip());
    server.cache!.clear(); // a cold cache: the first subscribe computes
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holding = handle.db.transaction(async () => gate);
    const topic = `oracle.value:${KSM}`;
    c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 501, method: "subscribe", params: { topic } }));
    await c.call("frobnicate"); // answered without the database: the subscribe is computing
    c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 502, method: "unsubscribe", params: { subscription: "s1" } }));
    await until("the unsubscribe's answer", () => c.messages.some((m) => m.id === 502), 5_000);
    c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 503, method: "subscribe", params: { topic } }));
    // Answered in order after the subscribe was taken: 503 is in flight while 501 still computes.
    await c.call("frobnicate");
    expect(c.messages.some((m) => m.id === 501 || m.id === 503)).toBe(false);
    release();
    await holding;
    await until("both subscribes answered", () => c.messages.some((m) => m.id === 501) && c.messages.some((m) => m.id === 503), 5_000);
    expect(c.messages.find((m) => m.id === 501).error.message).toContain("unsubscribed before it was answered");
    expect(c.messages.find((m) => m.id === 503).result.subscription).toBe("s2");
    // A new price of KSM in a new block reaches s2.
    const number = HEAD_BLOCK + 50;
    await handle.db.transaction(async (tx) => {
      const t = tx as unknown as typeof handle.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + 50 * 12 };
      await insertBlocks(t, [block]);
      await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: "13.75" }]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
    });
    await until("a push to s2", () => notificationsFor(c, "s2").length > 0, 5_000);
    expect(notificationsFor(c, "s2")[0].params.result.valueUsd).toBe("13.75");
  });
});
