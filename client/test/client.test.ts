/**
 * The typed client against the real app (startApiServer on PGlite, the test market): auth and
 * re-login, keyset iterators, Retry-After on a 429 storm, and the /ws client across a dropped
 * connection and a token's expiry.
 */
import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { type DbHandle } from "../../db/index.js";
import { commitPriceBlock } from "../../test/support/blocks.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { HEAD_BLOCK, KSM, LONELY, seedMarket, TEN, USDT, ZERO } from "../../test/support/fixtures.js";
import { startRelay, type Relay } from "../../test/support/proxy.js";
import { until } from "../../test/support/wait.js";
import { TokenPool, TokenPoolError, type Push, type TopicResult } from "../src/index.js";
import { memoryStore } from "../../test/support/db.js";
import { describeCalls } from "./calls.js";

const SECRET = randomBytes(32).toString("base64url");
const PASSWORD = "correct horse battery";
// Node 20 has no global WebSocket; the client takes the `ws` package's as it is (no cast: its
// type must fit the client's, which tsc checks here).
const live = { WebSocket, backoff: { initialMs: 50, maxMs: 200 } };

describe("client/ against the real app", () => {
  let handle: DbHandle;
  let server: ApiServer;
  let base: string;
  let block = HEAD_BLOCK;

  /** Commits the next block with a new KSM price (the /ws pushes follow it). */
  async function commitBlock(): Promise<{ number: number; price: string }> {
    const number = ++block;
    const price = await commitPriceBlock(handle.db, number);
    return { number, price };
  }

  const start = (env: Record<string, string> = {}) =>
    startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: SECRET, RATE_LIMIT_MAX: "100000", ...env }), createLogger("silent"), { shared: handle, shutdownGraceMs: 200 });

  beforeAll(async () => {
    handle = await memoryStore();
    await seedMarket(handle.db);
    server = await start();
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  it("registers, keeps the token for protected routes, and throws the API's error as TokenPoolError", async () => {
    const anonymous = new TokenPool({ baseUrl: base });
    const refused = await anonymous.assetMetadata(USDT).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TokenPoolError);
    expect(refused).toMatchObject({ status: 401, code: "UNAUTHORIZED" });

    const client = new TokenPool({ baseUrl: base });
    const reg = await client.register({ email: "typed@example.com", password: PASSWORD });
    expect(reg.data.expiresIn).toBe(86_400);
    expect(client.token).toBe(reg.data.token);
    const meta = await client.assetMetadata(USDT);
    expect(meta).toMatchObject({ tokenId: USDT, symbol: "USDt", decimals: 6 });
    // The same answer as the route, field for field.
    expect(meta).toEqual(await (await fetch(`${base}/assets/metadata/${USDT}`, { headers: { authorization: `Bearer ${client.token}` } })).json());

    expect(await client.assetMetadata(999).catch((e: unknown) => e)).toMatchObject({ status: 404, code: "TOKEN_NOT_FOUND" });
    expect(await client.holders(TEN, { limit: 0 }).catch((e: unknown) => e)).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(await new TokenPool({ baseUrl: "http://127.0.0.1:1" }).health().catch((e: unknown) => e)).toMatchObject({ status: 0, code: "SERVICE_UNAVAILABLE" });

    // A token that expired (here: forged) is sent only where one is asked for: public answers go on.
    const stale = new TokenPool({ baseUrl: base, token: "expired.or.forged" });
    expect((await stale.oracleValue(KSM)).tokenId).toBe(KSM);
    expect((await stale.pairStats("KSM", "USDt")).tokenA.symbol).toBe("KSM");
    expect(await stale.assetMetadata(USDT).catch((e: unknown) => e)).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("with credentials, logs in again when its token is refused (expired), once for a burst of requests", async () => {
    await new TokenPool({ baseUrl: base }).register({ email: "relogin@example.com", password: PASSWORD });
    let logins = 0;
    const counting: typeof fetch = async (input, init) => {
      if ((typeof input === "object" && "url" in input ? input.url : String(input)).endsWith("/auth/login")) logins++;
      return fetch(input, init);
    };
    const client = new TokenPool({ baseUrl: base, token: "expired.or.forged", credentials: { email: "relogin@example.com", password: PASSWORD }, fetch: counting });
    const pages = await Promise.all([client.holders(TEN), client.assetMetadata(TEN), client.holders(USDT)]);
    expect(pages[0].tokenId).toBe(TEN);
    expect(logins).toBe(1);
    expect(client.token).not.toBe("expired.or.forged");
  });

  it("iterates keyset-paged lists to their end, a page at a time, the same rows as one big page", async () => {
    const client = new TokenPool({ baseUrl: base });
    await client.register({ email: "pages@example.com", password: PASSWORD });
    const all = [];
    for await (const h of client.holdersAll(TEN, { limit: 2 })) all.push(h);
    const one = await client.holders(TEN, { limit: 1000 });
    expect(one.holders.length).toBeGreaterThan(2);
    expect(all).toEqual(one.holders);

    const trades = [];
    for await (const t of client.poolSwapsAll("KSM", "USDt", { limit: 1 })) trades.push(t);
    const page = await client.poolSwaps("KSM", "USDt", { limit: 500 });
    expect(page.trades.length).toBeGreaterThan(1);
    expect(trades).toEqual(page.trades);

    // A break stops fetching: only the pages the loop consumed were asked for.
    let requests = 0;
    const counted = new TokenPool({ baseUrl: base, token: client.token, fetch: (i, init) => (requests++, fetch(i, init)) });
    for await (const _ of counted.holdersAll(TEN, { limit: 1 })) break;
    expect(requests).toBe(1);
  });

  it("waits out Retry-After through a 429 storm: every request of the storm is answered", async () => {
    const limited = await start({ RATE_LIMIT_MAX: "4", RATE_LIMIT_WINDOW_MS: "1000" });
    try {
      const waits: number[] = [];
      const sleep = (ms: number) => (waits.push(ms), new Promise<void>((r) => setTimeout(r, ms)));
      const client = new TokenPool({ baseUrl: `http://127.0.0.1:${limited.port}`, sleep, retry: { maxRetries: 5 } });
      const answers = await Promise.all(Array.from({ length: 12 }, () => client.oracleValue(KSM)));
      expect(answers.every((a) => a.tokenId === KSM)).toBe(true);
      expect(waits.length).toBeGreaterThan(0);
      // The server's Retry-After (whole seconds of its 1 s window), not a guess.
      expect(waits.every((ms) => ms >= 0 && ms <= 1_000 && ms % 1_000 === 0)).toBe(true);

      // Without retries the 429 reaches the caller, with its Retry-After.
      const impatient = new TokenPool({ baseUrl: `http://127.0.0.1:${limited.port}`, retry: { maxRetries: 0 } });
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => impatient.oracleValue(KSM)));
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as TokenPoolError);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]).toMatchObject({ status: 429, code: "RATE_LIMITED" });
      expect(refused[0]!.retryAfter).toBeGreaterThanOrEqual(0);
    } finally {
      await limited.close();
    }
  });

  describe("the /ws client", () => {
    let relay: Relay;
    beforeAll(async () => {
      relay = await startRelay({ host: "127.0.0.1", port: server.port }, "http");
    });
    afterAll(() => relay?.close());

    it("subscribes with a typed push, survives a dropped connection (reconnects, resubscribes) and unsubscribes", async () => {
      const client = new TokenPool({ baseUrl: relay.url, live });
      const states: string[] = [];
      const ws = client.live({ onState: (s) => states.push(s) });
      try {
        const pushes: Push<TopicResult<`oracle.value:${number}`>>[] = [];
        const sub = await ws.subscribe(`oracle.value:${KSM}`, (p) => pushes.push(p));
        expect(pushes[0]!.result).toEqual(await client.oracleValue(KSM));
        expect(pushes[0]!.answer).toBe(true);
        const first = await commitBlock();
        await until("the push of the new block", () => pushes.some((p) => p.block === first.number), 5_000);
        expect(pushes.find((p) => p.block === first.number)).toMatchObject({ answer: false, result: { valueUsd: first.price, blockNumber: first.number } });

        relay.cut();
        await until("a reconnect", () => states.filter((s) => s === "open").length >= 2, 5_000);
        await until("the subscribe answer on the new connection", () => pushes.length >= 3, 5_000);
        const second = await commitBlock();
        await until("a push after the reconnect", () => pushes.some((p) => p.block === second.number), 5_000);
        expect(sub.last!.result).toMatchObject({ valueUsd: second.price });

        await sub.unsubscribe();
        const count = pushes.length;
        await commitBlock();
        await server.hub.idle();
        await new Promise((r) => setTimeout(r, 200));
        expect(pushes.length).toBe(count);
      } finally {
        ws.close();
      }
    });

    it("resubscribes 11 topics after a drop, a few at a time (the server takes 8 requests in flight): none is lost", async () => {
      const client = new TokenPool({ baseUrl: relay.url, live });
      await client.register({ email: "many@example.com", password: PASSWORD });
      const opened: string[] = [];
      const ws = client.live({ onState: (s) => opened.push(s) });
      try {
        const topics = [
          ...[KSM, USDT, TEN, ZERO, LONELY].map((id) => `oracle.value:${id}` as const),
          ...[KSM, USDT, TEN].map((id) => `assets.metadata:${id}` as const),
          "pool.stats" as const,
          "pool.pair:KSM/USDt" as const,
          "blocks" as const,
        ];
        const answers = new Map<string, number>();
        const ended: string[] = [];
        await Promise.all(topics.map((t) => ws.subscribe(t, (p) => p.answer && answers.set(t, (answers.get(t) ?? 0) + 1), (reason) => ended.push(`${t}: ${reason}`))));
        expect([...answers.values()].every((n) => n === 1)).toBe(true);
        relay.cut();
        await until("every topic answered again on the new connection", () => topics.every((t) => answers.get(t) === 2), 10_000);
        expect(ended).toEqual([]);
      } finally {
        ws.close();
      }
    });

    it("refuses a bad topic with the server's error, and ends a protected topic when the token expires (the unsubscribed notification)", async () => {
      const reg = await new TokenPool({ baseUrl: base }).register({ email: "live@example.com", password: PASSWORD });
      const userId = (JSON.parse(Buffer.from(reg.data.token.split(".")[1]!, "base64url").toString()) as { sub: string }).sub;
      const iat = Math.floor(Date.now() / 1000) - 86_400 + 2;
      const short = await new SignJWT({}).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setSubject(userId).setIssuedAt(iat).setExpirationTime(iat + 86_400).sign(new TextEncoder().encode(SECRET));
      const ws = new TokenPool({ baseUrl: base, token: short, live }).live();
      try {
        await expect(ws.subscribe("blocks", () => {}).then((s) => s.topic)).resolves.toBe("blocks");
        await expect(ws.subscribe(`oracle.value:${-1}`, () => {})).rejects.toMatchObject({ name: "LiveError", code: -32602 });
        // A topic whose route answers an error is subscribed, its result that error (typed: TopicError).
        const expired = await ws.subscribe(`oracle.value:${ZERO}`, () => {});
        const value = expired.last!.result;
        expect("error" in value && value.error.code).toBe("PRICE_UNAVAILABLE");
        let ended: string | undefined;
        const holders = await ws.subscribe(`assets.holders:${TEN}`, () => {}, (reason) => (ended = reason));
        expect(holders.last!.result).toMatchObject({ tokenId: TEN });
        await until("the expiry", () => ended !== undefined, 5_000);
        expect(ended).toBe("the access token expired");
      } finally {
        ws.close();
      }
    });
  });

  describe("methods named by operationId, per-call options, snapshots.wait and toArray", () => describeCalls(() => ({ base, handle })));

  it("a server message that is not JSON-RPC (null, a number) or a callback that throws ends nothing", async () => {
    const { WebSocketServer } = await import("ws");
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    wss.on("connection", (socket) => {
      socket.on("message", (data) => {
        const msg = JSON.parse(String(data)) as { id: number; params: { topic: string } };
        socket.send("null");
        socket.send("42");
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { subscription: "s1", topic: msg.params.topic, block: 1, result: { n: 1 } } }));
        socket.send(JSON.stringify({ jsonrpc: "2.0", method: "subscription", params: { subscription: "s1", topic: msg.params.topic, block: 2, result: { n: 2 } } }));
      });
    });
    await new Promise((r) => wss.once("listening", r));
    const errors: unknown[] = [];
    const ws = new TokenPool({ baseUrl: `http://127.0.0.1:${(wss.address() as { port: number }).port}`, live }).live({ onError: (e) => errors.push(e) });
    try {
      const blocks: (number | null)[] = [];
      await ws.subscribe("pool.stats", (p) => {
        blocks.push(p.block);
        throw new Error("a caller's bug");
      });
      await until("the push after the garbage", () => blocks.length === 2, 5_000);
      expect(blocks).toEqual([1, 2]);
      expect(errors).toHaveLength(2);
    } finally {
      ws.close();
      wss.close();
    }
  });
});
