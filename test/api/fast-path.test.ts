/**
 * Cache hits answered before the router (api/fast-path.ts), over real HTTP: the same answer the
 * app gives, with the rate limit, bearer auth and conditional GETs still applied, and everything
 * the fast path must not take left to the app.
 */
import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createTokenIssuer } from "../../api/auth/tokens.js";
import { createFastPath } from "../../api/fast-path.js";
import { entryOf, ResponseCache } from "../../api/middleware/cache.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { announceBlocks, insertBlocks, insertPrices, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { HEAD_BLOCK, HEAD_TIME, seedMarket, KSM, USDT } from "../support/fixtures.js";
import { captureLog } from "../support/log.js";
import { memoryStore } from "../support/db.js";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly the headers given (fetch adds its own, and cannot send some). */
function raw(port: number, target: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: target, method, headers: { host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The headers a client sees, without the ones that differ per response by nature. */
function comparable(headers: Raw["headers"]): Record<string, unknown> {
  const { date: _date, "ratelimit-remaining": _remaining, "ratelimit-reset": _reset, "keep-alive": _ka, connection: _conn, ...rest } = headers;
  return rest;
}

describe("cache hits before the router", () => {
  let handle: DbHandle;
  let server: ApiServer;
  let token: string;
  const logs = captureLog();

  async function start(env: Record<string, string> = {}) {
    await server?.close();
    server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", JWT_SECRET: randomBytes(32).toString("base64url"), ...env }), logs.logger, { shared: handle });
    const reg = await fetch(`http://127.0.0.1:${server.port}/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `fast${Date.now()}${Math.random()}@example.com`, password: "correct horse battery" }) });
    token = ((await reg.json()) as { data: { token: string } }).data.token;
  }

  beforeAll(async () => {
    handle = await memoryStore();
    await seedMarket(handle.db);
    await start({ RATE_LIMIT_MAX: "1000" });
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  it("answers a repeated read from the pre-built entry: same status, body and headers as the app's answer", async () => {
    const port = server.port;
    for (const target of [`/oracle/value/${KSM}`, "/pool/stats", `/pool/stats/${KSM}/${USDT}`, "/pools?limit=5", "/assets?sort=marketCap&limit=3"]) {
      const before = server.cache!.fastHits;
      const first = await raw(port, target); // a miss: the app computes and keeps it
      expect(first.status, target).toBe(200);
      expect(server.cache!.fastHits, target).toBe(before);
      const second = await raw(port, target);
      expect(server.cache!.fastHits, `${target} taken by the fast path`).toBe(before + 1);
      expect(second.status).toBe(200);
      expect(second.body).toBe(first.body);
      expect(comparable(second.headers)).toEqual(comparable(first.headers));
      expect(Number(second.headers["ratelimit-remaining"])).toBe(Number(first.headers["ratelimit-remaining"]) - 1);
    }
  });

  it("keys the query canonically: another order or empty pairs hit the same entry", async () => {
    const first = await raw(server.port, "/assets?limit=3&sort=holders");
    const before = server.cache!.fastHits;
    const second = await raw(server.port, "/assets?&sort=holders&&limit=3");
    expect(server.cache!.fastHits).toBe(before + 1);
    expect(second.body).toBe(first.body);
  });

  it("serves /assets/* hits only to a valid token, and leaves every refusal to the app: a 401 looks the same cached or not", async () => {
    const target = `/assets/metadata/${USDT}`;
    const uncachedTarget = `/assets/holders/${USDT}?limit=3`;
    const good = await raw(server.port, target, { authorization: `Bearer ${token}` });
    expect(good.status).toBe(200);
    const before = server.cache!.fastHits;
    const none = await raw(server.port, target);
    const noneUncached = await raw(server.port, uncachedTarget);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: "Missing access token: send Authorization: Bearer <token>." } });
    // Nothing tells an anonymous client whether someone looked this up in this block.
    expect(Object.keys(none.headers)).toEqual(Object.keys(noneUncached.headers));
    expect(comparable(none.headers)).toEqual(comparable(noneUncached.headers));
    expect(none.body).toBe(noneUncached.body);
    const [h, p] = token.split(".");
    const forged = await raw(server.port, target, { authorization: `Bearer ${h}.${p}.AAAA` });
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body).error.message).toBe("The access token is invalid or expired.");
    // A bad header on a public path is a 401 as well, hit or not.
    await raw(server.port, "/pool/stats");
    expect((await raw(server.port, "/pool/stats", { authorization: "Bearer nope" })).status).toBe(401);
    expect(server.cache!.fastHits).toBe(before + 1); // only /pool/stats without a header was taken
    const again = await raw(server.port, target, { authorization: `Bearer ${token}` });
    expect(again.status).toBe(200);
    expect(again.body).toBe(good.body);
    expect(server.cache!.fastHits).toBe(before + 2);
  });

  it("leaves odd Hosts and repeated Authorization lines to the app, which refuses them", async () => {
    await raw(server.port, "/pool/stats");
    const before = server.cache!.fastHits;
    for (const host of ["a:99999", "[:::]", "[1::2::3]", "[::1]:70000"]) expect((await raw(server.port, "/pool/stats", { host })).status, host).toBe(400);
    const twice = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: server.port, path: `/assets/metadata/${USDT}`, headers: [["Host", `127.0.0.1:${server.port}`], ["Authorization", `Bearer ${token}`], ["Authorization", `Bearer ${token}`]] as unknown as Record<string, string> }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.end();
    });
    expect(twice).toBe(401);
    expect(server.cache!.fastHits).toBe(before);
  });

  it("prewarms by demand that was served: refused requests do not pick what is computed every block", async () => {
    const secret = `/assets/holders/${USDT}?limit=2`;
    await raw(server.port, secret, { authorization: `Bearer ${token}` });
    for (let i = 0; i < 10; i++) expect((await raw(server.port, secret)).status).toBe(401);
    for (let i = 0; i < 3; i++) await raw(server.port, `/pool/stats/${KSM}/${USDT}`);
    expect(server.cache!.hotKeys(1)).toEqual([`/pool/stats/${KSM}/${USDT}`]);
  });

  it("answers If-None-Match with a bodiless 304 carrying the ETag", async () => {
    const first = await raw(server.port, "/pool/stats");
    const etag = first.headers.etag as string;
    const cond = await raw(server.port, "/pool/stats", { "if-none-match": `"other", W/${etag}` });
    expect(cond.status).toBe(304);
    expect(cond.body).toBe("");
    expect(cond.headers.etag).toBe(etag);
    expect(cond.headers["ratelimit-limit"]).toBe("1000");
  });

  it("leaves to the app what it must not take: Origin (CORS), percent-escapes, a bad Host, unknown parameters", async () => {
    await raw(server.port, "/pool/stats");
    const before = server.cache!.fastHits;
    const cors = await raw(server.port, "/pool/stats", { origin: "https://wallet.example" });
    expect(cors.headers["access-control-allow-origin"]).toBe("*");
    expect((await raw(server.port, "/p%6Fol/stats")).status).toBe(200);
    expect((await raw(server.port, "/pool/stats", { host: "a b" })).status).toBe(400);
    expect((await raw(server.port, "/pool/stats?x=1")).status).toBe(400);
    expect((await raw(server.port, "/assets?limit=%zz")).status).toBe(400);
    expect(server.cache!.fastHits).toBe(before);
  });

  it("counts hits in the rate limit: the request past the limit is 429 with Retry-After, hit or not", async () => {
    await start({ RATE_LIMIT_MAX: "3" }); // the register in start() is the first of the 3
    try {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await raw(server.port, "/pool/stats"));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429, 429]);
      expect(server.cache!.fastHits).toBe(1); // the second, a hit; the refusals are the app's
      expect(JSON.parse(answers[2]!.body).error.code).toBe("RATE_LIMITED");
      expect(Number(answers[2]!.headers["retry-after"])).toBeGreaterThan(0);
      expect(answers[2]!.headers["ratelimit-remaining"]).toBe("0");
    } finally {
      await start({ RATE_LIMIT_MAX: "1000" });
    }
  });

  it("logs and counts its answers like the app's, under the route's pattern", async () => {
    await raw(server.port, `/pool/stats/${KSM}/${USDT}`);
    logs.lines.length = 0;
    await raw(server.port, `/pool/stats/${KSM}/${USDT}`);
    expect(logs.records().some((l) => l.msg === "request" && l.path === `/pool/stats/${KSM}/${USDT}` && l.status === 200)).toBe(true);
    const text = await server.metrics.registry.metrics();
    expect(text).toMatch(/tokenpool_http_requests_total\{method="GET",route="\/pool\/stats\/:tokenA\/:tokenB",status="200"\} \d+/);
    expect(text).toMatch(/tokenpool_cache_prebuilt_answers_total [1-9]/);
  });

  it("a block switch computes the hot answers ahead: the first request after the block is a hit with the new block's data", async () => {
    const port = server.port;
    const hot = `/oracle/value/${KSM}`;
    const secured = `/assets/metadata/${USDT}`; // computed ahead without a token, served only with one
    for (let i = 0; i < 3; i++) await raw(port, hot);
    for (let i = 0; i < 3; i++) await raw(port, secured, { authorization: `Bearer ${token}` });
    const oldPrice = JSON.parse((await raw(port, hot)).body).valueUsd as string;
    const logged = () => logs.records().filter((l) => l.msg === "request").length;
    const before = { prewarmed: server.cache!.prewarmed, logged: logged() };
    const block = { number: HEAD_BLOCK + 1, hash: `0x${"77".repeat(32)}`, timestamp: HEAD_TIME + 12 };
    await handle.db.transaction(async (tx) => {
      const t = tx as unknown as typeof handle.db;
      await insertBlocks(t, [block]);
      await insertPrices(t, [{ tokenId: KSM, blockNumber: block.number, priceUsd: "31.5" }]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
    });
    for (let i = 0; i < 100 && server.hub.head !== block.number; i++) await new Promise((r) => setTimeout(r, 20));
    expect(server.hub.head).toBe(block.number);
    expect(server.cache!.prewarmed).toBeGreaterThan(before.prewarmed);
    expect(logged()).toBe(before.logged); // computing ahead is not a client's request
    const fast = server.cache!.fastHits;
    const after = JSON.parse((await raw(port, hot)).body) as { valueUsd: string; blockNumber: number };
    expect(server.cache!.fastHits).toBe(fast + 1); // served from the answer computed ahead
    expect(oldPrice).not.toBe("31.5");
    expect(after).toMatchObject({ valueUsd: "31.5", blockNumber: block.number });
    expect((await raw(port, secured, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect(server.cache!.fastHits).toBe(fast + 2);
    expect((await raw(port, secured)).status).toBe(401);
  });

  it("a block announcement ends the entries: the next request computes again", async () => {
    await raw(server.port, "/pool/stats");
    server.cache!.clear();
    const before = server.cache!.fastHits;
    expect((await raw(server.port, "/pool/stats")).status).toBe(200);
    expect(server.cache!.fastHits).toBe(before);
  });

  it("with RESPONSE_CACHE_MB=0 there is no cache and nothing is taken before the router", async () => {
    await start({ RESPONSE_CACHE_MB: "0" });
    try {
      expect(server.cache).toBeUndefined();
      const a = await raw(server.port, "/pool/stats");
      const b = await raw(server.port, "/pool/stats", { "if-none-match": a.headers.etag as string });
      expect(a.status).toBe(200);
      expect(b.status).toBe(304);
    } finally {
      await start({ RATE_LIMIT_MAX: "1000" });
    }
  });
});

describe("the fast path with a shared (asynchronous) limit store, as with Redis", () => {
  async function serve(hit: () => Promise<{ allowed: boolean; count: number; resetMs: number }>) {
    const cache = new ResponseCache();
    // With a header the route set that the entry keeps (a deprecation notice: api/routes/transfers.ts).
    cache.set("/pool/stats", entryOf('{"totalPools":1}', "/pool/stats", ["Deprecation", "@1795824000"]), cache.current);
    const log = captureLog();
    let fellBack = 0;
    const fallback = (_req: IncomingMessage, res: ServerResponse) => {
      fellBack += 1;
      res.writeHead(429, { "content-type": "application/json" });
      res.end('{"from":"app"}');
    };
    const store = { hit, undo: async () => {}, close: async () => {} };
    const fast = createFastPath({ cache, tokens: createTokenIssuer("t".repeat(32), Date.now), rateLimit: { store, max: 5, windowMs: 60_000 }, trustProxy: 0, logger: log.logger }, fallback);
    const server = createServer((req, res) => {
      if (!fast(req, res)) fallback(req, res);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const answer = await raw(port, "/pool/stats");
      return { answer, fellBack: () => fellBack, log, fastHits: cache.fastHits };
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  it("serves an allowed hit with the limit's headers", async () => {
    const { answer, fellBack, fastHits } = await serve(async () => ({ allowed: true, count: 2, resetMs: 30_000 }));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"totalPools":1}');
    expect(answer.headers.deprecation).toBe("@1795824000");
    expect(answer.headers["ratelimit-remaining"]).toBe("3");
    expect(answer.headers["ratelimit-reset"]).toBe("30");
    expect(fellBack()).toBe(0);
    expect(fastHits).toBe(1);
  });

  it("hands a refused request to the app (which counts it again: refusals are not counted) instead of answering it", async () => {
    const { answer, fellBack, fastHits } = await serve(async () => ({ allowed: false, count: 5, resetMs: 1_000 }));
    expect(answer.status).toBe(429);
    expect(answer.body).toBe('{"from":"app"}');
    expect(fellBack()).toBe(1);
    expect(fastHits).toBe(0);
  });

  it("serves without counting when the store is down, and says so in the log (as the app does)", async () => {
    const { answer, log } = await serve(async () => {
      throw new Error("ECONNREFUSED");
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["ratelimit-limit"]).toBeUndefined();
    expect(log.records().some((r) => r.msg === "rate-limit store unavailable; request not counted")).toBe(true);
  });
});
