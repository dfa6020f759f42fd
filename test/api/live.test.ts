/**
 * GET /ws against a real server on a fixture market: subscriptions answer with the REST JSON,
 * a committed block announcement (NOTIFY, as the indexer sends it) pushes what changed, and
 * every bad input gets a JSON-RPC error or a refused upgrade — never a crash.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { announceBlocks, insertBlocks, insertPrices, insertTransfers, upsertHolders, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { ALICE, BOB, HEAD_BLOCK, HEAD_TIME, KSM, PUSDC, seedMarket, TEN, USDT } from "../support/fixtures.js";
import { until } from "../support/wait.js";
import { connect, notificationsFor, refused, type Client } from "../support/ws.js";
import { memoryStore } from "../support/db.js";

const SECRET = randomBytes(32).toString("base64url");


describe("GET /ws on a fixture market", () => {
  let handle: DbHandle;
  let server: ApiServer;
  let url: string;
  let base: string;
  let token: string;
  const clients: Client[] = [];
  const open = async (...args: Parameters<typeof connect>) => {
    const c = await connect(...args);
    clients.push(c);
    return c;
  };

  /** What the indexer does after a block: new rows, then the announcement in one transaction. */
  async function commitBlock(number: number, kswPrice: string) {
    await handle.db.transaction(async (tx) => {
      const t = tx as unknown as typeof handle.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + (number - HEAD_BLOCK) * 12 };
      await insertBlocks(t, [block]);
      await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: kswPrice }]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
    });
  }

  beforeAll(async () => {
    handle = await memoryStore();
    await seedMarket(handle.db);
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: SECRET });
    server = await startApiServer(config, createLogger("silent"), { shared: handle, live: { maxSubscriptions: 3, maxConnectionsPerIp: 4, pingIntervalMs: 300 } });
    base = `http://127.0.0.1:${server.port}`;
    url = `ws://127.0.0.1:${server.port}/ws`;
    const res = await fetch(`${base}/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "ws@example.com", password: "correct horse battery" }) });
    token = ((await res.json()) as { data: { token: string } }).data.token;
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await until("connections to close", () => server.hub.topicCount === 0, 5_000);
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  it("subscribe answers with the REST JSON; a committed block pushes the new value; unsubscribe stops it", async () => {
    const c = await open(url);
    const sub = await c.call("subscribe", { topic: `oracle.value:${KSM}` });
    const rest = await (await fetch(`${base}/oracle/value/${KSM}`)).json();
    expect(sub.result).toEqual({ subscription: expect.any(String), topic: `oracle.value:${KSM}`, block: null, result: rest });
    const stats = await c.call("subscribe", { topic: "pool.stats" });
    const blocks = await c.call("subscribe", { topic: "blocks" });

    await commitBlock(HEAD_BLOCK + 1, "13");
    await until("the new value", () => notificationsFor(c, sub.result.subscription).length === 1, 10_000);
    const [pushed] = notificationsFor(c, sub.result.subscription);
    expect(pushed.params).toEqual({
      subscription: sub.result.subscription,
      topic: `oracle.value:${KSM}`,
      block: HEAD_BLOCK + 1,
      result: await (await fetch(`${base}/oracle/value/${KSM}`)).json(),
    });
    expect(pushed.params.result).toMatchObject({ valueUsd: "13", blockNumber: HEAD_BLOCK + 1 });
    await until("the block", () => notificationsFor(c, blocks.result.subscription).length === 1, 5_000);
    expect(notificationsFor(c, blocks.result.subscription)[0].params.result).toMatchObject({ number: HEAD_BLOCK + 1, counts: { prices: 1 } });
    // /pool/stats moved too (TVL at the new KSM price).
    await until("pool stats", () => notificationsFor(c, stats.result.subscription).length === 1, 5_000);

    expect((await c.call("unsubscribe", { subscription: sub.result.subscription })).result).toBe(true);
    await commitBlock(HEAD_BLOCK + 2, "14");
    await until("the next block", () => notificationsFor(c, blocks.result.subscription).length === 2, 5_000);
    await server.hub.idle();
    expect(notificationsFor(c, sub.result.subscription)).toHaveLength(1);
    // A block that changes nothing a topic shows pushes nothing for it.
    const before = notificationsFor(c, stats.result.subscription).length;
    await handle.db.transaction(async (tx) => {
      await announceBlocks(tx as never, [{ number: HEAD_BLOCK + 2, hash: "0x", timestamp: 0, counts: { swaps: 0, liquidityEvents: 0, prices: 0, reserves: 0, holders: 0, tokens: 0 } }]);
    });
    await until("the repeated block", () => notificationsFor(c, blocks.result.subscription).length === 3, 5_000);
    await server.hub.idle();
    expect(notificationsFor(c, stats.result.subscription)).toHaveLength(before);
  });

  it("assets.* topics need the bearer token: in the upgrade header, or an auth call first", async () => {
    const anonymous = await open(url);
    const denied = await anonymous.call("subscribe", { topic: `assets.holders:${TEN}` });
    expect(denied.error).toMatchObject({ code: -32001, data: { code: "UNAUTHORIZED" } });
    expect((await anonymous.call("auth", { token: "not-a-jwt" })).error).toMatchObject({ code: -32001 });
    expect((await anonymous.call("auth", { token })).result).toEqual({ authenticated: true });
    const holders = await anonymous.call("subscribe", { topic: `assets.holders:${TEN}` });
    const rest = await (await fetch(`${base}/assets/holders/${TEN}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(holders.result.result).toEqual(rest);

    const withHeader = await open(url, { authorization: `Bearer ${token}` });
    expect((await withHeader.call("subscribe", { topic: `assets.metadata:${USDT}` })).result.result).toMatchObject({ tokenId: USDT, symbol: "USDt" });
    expect(await refused(url, { authorization: "Bearer nope" })).toEqual({ status: 401, body: { success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } } });
  });

  it("authorization lasts as long as the token: at its expiry, or after a failed auth, protected topics end with a notification", async () => {
    // A token of this server's key and shape that expires 1.5 s from now.
    const { SignJWT } = await import("jose");
    const userId = (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub: string }).sub;
    const iat = Math.floor(Date.now() / 1000) - 86_400 + 2;
    const short = await new SignJWT({}).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setSubject(userId).setIssuedAt(iat).setExpirationTime(iat + 86_400).sign(new TextEncoder().encode(SECRET));
    const c = await open(url);
    expect((await c.call("auth", { token: short })).result).toEqual({ authenticated: true });
    const holders = (await c.call("subscribe", { topic: `assets.holders:${TEN}` })).result.subscription;
    const stats = (await c.call("subscribe", { topic: "pool.stats" })).result.subscription;
    await until("the expiry notification", () => c.messages.some((m) => m.method === "unsubscribed"), 5_000);
    expect(c.messages.filter((m) => m.method === "unsubscribed").map((m) => m.params)).toEqual([{ subscription: holders, topic: `assets.holders:${TEN}`, reason: "the access token expired" }]);
    expect((await c.call("subscribe", { topic: `assets.holders:${TEN}` })).error).toMatchObject({ code: -32001 });
    expect((await c.call("unsubscribe", { subscription: stats })).result).toBe(true); // the public one lived on

    // A failed auth after a good one: the good one no longer counts.
    const d = await open(url, { authorization: `Bearer ${token}` });
    const meta = (await d.call("subscribe", { topic: `assets.metadata:${USDT}` })).result.subscription;
    expect((await d.call("auth", { token: "not-a-jwt" })).error).toMatchObject({ code: -32001 });
    expect(d.messages.find((m) => m.method === "unsubscribed")?.params).toEqual({ subscription: meta, topic: `assets.metadata:${USDT}`, reason: "a later auth failed" });
    expect((await d.call("subscribe", { topic: `assets.metadata:${USDT}` })).error).toMatchObject({ code: -32001 });
  });

  it("accounts:{address} pushes the portfolio when a committed block changes the account's balances", async () => {
    const c = await open(url, { authorization: `Bearer ${token}` });
    const sub = await c.call("subscribe", { topic: `accounts:${ALICE}` });
    const ten = (p: any) => p.tokens.find((x: any) => x.tokenId === TEN)?.balance;
    expect(ten(sub.result.result)).toBe("300000000000");
    const number = HEAD_BLOCK + 40;
    await handle.db.transaction(async (tx) => {
      const t = tx as unknown as typeof handle.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + 40 * 12 };
      await insertBlocks(t, [block]);
      await upsertHolders(t, [{ tokenId: TEN, account: ALICE, balance: "300000000001", blockNumber: number }]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 0, reserves: 0, holders: 1, tokens: 0 } }]);
    });
    await until("the portfolio push", () => notificationsFor(c, sub.result.subscription).length > 0, 10_000);
    const [push] = notificationsFor(c, sub.result.subscription);
    expect(push.params).toMatchObject({ topic: `accounts:${ALICE}`, block: number });
    expect(ten(push.params.result)).toBe("300000000001");
  });

  it("transfers:{address} pushes the account's newest transfers when a block brings it one, exactly the REST page", async () => {
    const c = await open(url, { authorization: `Bearer ${token}` });
    const sub = await c.call("subscribe", { topic: `transfers:${ALICE}` });
    expect(sub.result.result).toMatchObject({ address: ALICE, transfers: [] });
    const number = HEAD_BLOCK + 41;
    // A block that moves nothing of Alice's changes nothing: no push for it.
    await handle.db.transaction(async (tx) => {
      const t = tx as unknown as typeof handle.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + 41 * 12 };
      await insertBlocks(t, [block]);
      await insertTransfers(t, [
        { blockNumber: number, eventIndex: 3, extrinsicIndex: 1, timestamp: block.timestamp, tokenId: TEN, lpTokenId: null, fromAccount: BOB, toAccount: ALICE, amount: "5", kind: "transfer", event: "assets.Transferred", valueUsd: null },
      ]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 0, reserves: 0, holders: 0, tokens: 0, transfers: 1 } }]);
    });
    await until("the transfers push", () => notificationsFor(c, sub.result.subscription).length > 0, 10_000);
    const [push] = notificationsFor(c, sub.result.subscription);
    expect(push.params).toMatchObject({ topic: `transfers:${ALICE}`, block: number });
    const rest = await (await fetch(`${base}/accounts/${ALICE}/transfers`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(push.params.result).toEqual(rest);
    expect(push.params.result.transfers).toEqual([expect.objectContaining({ from: BOB, to: ALICE, amount: "5", direction: "in", blockNumber: number })]);
    expect((await c.call("subscribe", { topic: "transfers:nope" })).error).toMatchObject({ code: -32602, data: { code: "VALIDATION_ERROR" } });
  });

  it("answers bad messages with JSON-RPC errors and keeps the connection", async () => {
    const c = await open(url);
    c.ws.send("{not json");
    await until("a parse error", () => c.messages.some((m) => m.error?.code === -32700), 5_000);
    c.ws.send(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "subscribe" }]));
    await until("an invalid request", () => c.messages.some((m) => m.error?.code === -32600), 5_000);
    expect((await c.call("frobnicate")).error).toMatchObject({ code: -32601 });
    expect((await c.call("subscribe", { topic: "weather:paris" })).error).toMatchObject({ code: -32602, data: { code: "VALIDATION_ERROR" } });
    expect((await c.call("subscribe", { topic: "oracle.value:01" })).error).toMatchObject({ code: -32602 });
    expect((await c.call("subscribe", { topic: "oracle.value:4242" })).error).toMatchObject({ code: -32004, data: { code: "TOKEN_NOT_FOUND" } });
    expect((await c.call("subscribe", { topic: "pool.pair:KSM/TEN" })).error).toMatchObject({ code: -32004, data: { code: "POOL_NOT_FOUND" } });
    expect((await c.call("unsubscribe", { subscription: "s999" })).error).toMatchObject({ code: -32602 });
    // Still serving on the same connection.
    expect((await c.call("subscribe", { topic: `pool.pair:KSM/${USDT}` })).result.result).toMatchObject({ tokenA: { tokenId: KSM }, tokenB: { tokenId: USDT } });
    // Ids above 2^32: foreign assets and the aliased asset 0, answered with their kind.
    expect((await c.call("subscribe", { topic: `oracle.value:${PUSDC}` })).result.result).toMatchObject({ tokenId: PUSDC, kind: "foreign", location: { parents: 2 } });
    expect((await c.call("subscribe", { topic: "oracle.value:9007199254740992" })).error).toMatchObject({ code: -32602, data: { code: "VALIDATION_ERROR" } });
    // A plain GET /ws is an error body, not a crash.
    const plain = await fetch(`${base}/ws`);
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
  });

  it("enforces subscriptions per connection, connections per IP, and pings out dead peers", async () => {
    const c = await open(url);
    for (const topic of ["pool.stats", "blocks"]) expect((await c.call("subscribe", { topic })).result).toBeDefined();
    expect((await c.call("subscribe", { topic: "pool.stats" })).error).toMatchObject({ code: -32602 });
    expect((await c.call("subscribe", { topic: `oracle.value:${USDT}` })).result).toBeDefined();
    expect((await c.call("subscribe", { topic: `oracle.value:${KSM}` })).error).toMatchObject({ code: -32002 });

    for (let i = 0; i < 3; i++) await open(url);
    const over = await refused(url);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("RATE_LIMITED");

    // A peer that never answers pings is terminated within two intervals.
    for (const x of clients.splice(0)) x.close();
    await until("the slots to free up", () => server.hub.topicCount === 0, 5_000);
    const silent = await open(url, {}, { autoPong: false });
    const closed = new Promise<void>((resolve) => silent.ws.once("close", () => resolve()));
    await closed;
    expect(silent.ws.readyState).toBe(WebSocket.CLOSED);
  });

  it("drops a slow consumer instead of buffering without bound", async () => {
    const slow = await open(url);
    await slow.call("subscribe", { topic: "blocks" });
    // Stop reading: the server's send buffer for this peer grows with every announcement.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const closed = new Promise<void>((resolve) => slow.ws.once("close", () => resolve()));
    const big = "x".repeat(6_000);
    for (let n = 0; n < 40; n++) {
      await handle.db.transaction(async (tx) => {
        const many = Array.from({ length: 50 }, (_, i) => ({ number: 10_000 + n * 50 + i, hash: big, timestamp: 0, counts: { swaps: 0, liquidityEvents: 0, prices: 0, reserves: 0, holders: 0, tokens: 0 } }));
        await announceBlocks(tx as never, many);
      });
      if (slow.ws.readyState !== WebSocket.OPEN) break;
    }
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
    // The server itself is fine.
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  it("caches read answers per block: ETag, 304 on If-None-Match, cleared by the next committed block, auth still enforced", async () => {
    const first = await fetch(`${base}/oracle/value/${KSM}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const body = await first.text();
    const again = await fetch(`${base}/oracle/value/${KSM}`);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(body);
    const notModified = await fetch(`${base}/oracle/value/${KSM}`, { headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect(notModified.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);

    // Rows written without an announcement are not seen until the next block clears the cache…
    await insertPrices(handle.db, [{ tokenId: KSM, blockNumber: HEAD_BLOCK + 2, priceUsd: "15" }]);
    expect(await (await fetch(`${base}/oracle/value/${KSM}`)).text()).toBe(body);
    // …which a committed block does.
    await commitBlock(HEAD_BLOCK + 3, "16");
    await until("the cache to be cleared", async () => ((await (await fetch(`${base}/oracle/value/${KSM}`)).json()) as { valueUsd: string }).valueUsd === "16", 5_000);
    const fresh = await fetch(`${base}/oracle/value/${KSM}`, { headers: { "if-none-match": etag } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("etag")).not.toBe(etag);

    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${base}/assets/holders/${TEN}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${base}/assets/holders/${TEN}`)).status).toBe(401);
  });
});
