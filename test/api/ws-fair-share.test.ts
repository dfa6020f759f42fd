/**
 * /ws topics charged per user, per address and per IPv6 /48, priced by what they compute, with a
 * share kept for newcomers and the heaviest giving way first (issue 38, finding 3). Before: 55
 * addresses × 20 `accounts:<random>` on one bearer token filled the server's 6,000 in 10 s, and
 * every new `accounts:`, `transfers:` or `assets.holders:` subscription was refused with -32002,
 * the dashboard's live account page's too.
 *
 * Clients are told apart by X-Forwarded-For (TRUST_PROXY=1).
 */
import { randomBytes } from "node:crypto";
import { encodeAddress } from "@polkadot/util-crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer, type ApiServerOptions } from "../../api/server.js";
import { announceBlocks, insertBlocks, upsertHolders, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { ALICE, HEAD_BLOCK, HEAD_TIME, LONELY, TEN, seedMarket } from "../support/fixtures.js";
import { until } from "../support/wait.js";
import { seedWhales } from "../support/whales.js";
import { connect, type Client } from "../support/ws.js";
import { memoryStore } from "../support/db.js";

const SECRET = randomBytes(32).toString("base64url");
const random = () => `accounts:${encodeAddress(randomBytes(32), 2)}`;
const unsubscribedOf = (c: Client) => c.messages.filter((m) => m.method === "unsubscribed").map((m) => m.params);

describe("/ws budgets per user, address and /48", () => {
  let handle: DbHandle;
  let server: ApiServer | undefined;
  let url: string;
  let whales: string[];
  const clients: Client[] = [];

  async function start(options: ApiServerOptions = {}) {
    await server?.close();
    server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: SECRET, TRUST_PROXY: "1", RATE_LIMIT_MAX: "100000" }), createLogger("silent"), { shared: handle, shutdownGraceMs: 200, ...options });
    url = `ws://127.0.0.1:${server.port}/ws`;
  }
  /** A new user (one at a time: the login queue turns a burst of registrations away). */
  async function register(ip: string): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${server!.port}/auth/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify({ email: `fair-${randomBytes(6).toString("hex")}@example.com`, password: "correct horse battery" }) });
    return ((await res.json()) as { data: { token: string } }).data.token;
  }
  async function client(ip: string, token: string): Promise<Client> {
    const c = await connect(url, { authorization: `Bearer ${token}`, "x-forwarded-for": ip });
    clients.push(c);
    return c;
  }
  /**
   * Subscribes `n` topics in turn, each as soon as the last is answered (Client.call polls every
   * 200 ms: too slow for floods); answers the refusals.
   */
  async function subscribeMany(c: Client, n: number, topic: () => string = random): Promise<any[]> {
    const refusals: any[] = [];
    for (let i = 0; i < n; i++) {
      const id = `many-${randomBytes(6).toString("hex")}`;
      const answer = await new Promise<any>((resolve) => {
        const listener = (data: Buffer) => {
          const m = JSON.parse(data.toString());
          if (m.id !== id) return;
          c.ws.off("message", listener);
          resolve(m);
        };
        c.ws.on("message", listener);
        c.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method: "subscribe", params: { topic: topic() } }));
      });
      if (answer.error) refusals.push(answer.error);
    }
    return refusals;
  }

  beforeAll(async () => {
    handle = await memoryStore();
    await seedMarket(handle.db);
    whales = await seedWhales(handle.db, 12);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    if (server) await until("every topic released", () => server!.hub.topicCount === 0 && server!.hub.totalCost === 0, 10_000);
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  it("issue 38's attack, 55 addresses × 20 accounts:<random> on one bearer token, locks no one out: the token's user holds at most 120", async () => {
    await start();
    const shared = await register("192.0.2.1");
    const refusals = (await Promise.all(Array.from({ length: 55 }, async (_, i) => subscribeMany(await client(`203.0.113.${i + 1}`, shared), 20)))).flat();
    // Empty accounts cost 1 once computed (6 while computing): the user holds at most 120, and
    // every other subscribe is refused for the user's budget.
    expect(server!.hub.totalCost).toBeLessThanOrEqual(120);
    expect(server!.hub.topicCount).toBe(1_100 - refusals.length);
    expect(refusals.length).toBeGreaterThanOrEqual(1_100 - 120);
    expect(refusals[0]).toMatchObject({ code: -32002, message: expect.stringMatching(/^This user's subscriptions would cost \d+ queries a block; at most 120/), data: { code: "RATE_LIMITED", budget: "user" } });
    expect(refusals.every((e) => e.data.budget === "user")).toBe(true);
    // A newcomer gets the dashboard's live account page (its accounts: and transfers: topics) and a holders page.
    const newcomer = await client("192.0.2.77", await register("192.0.2.77"));
    for (const topic of [`accounts:${ALICE}`, `transfers:${ALICE}`, `assets.holders:${TEN}`]) {
      expect((await newcomer.call("subscribe", { topic })).result, topic).toMatchObject({ topic });
    }
  }, 240_000);

  it("the same 55 addresses with a user each, the server's budget at what they hold (1,000): the newcomer still gets in, and the heaviest make room for it", async () => {
    await start({ hub: { maxCost: 1_000 } });
    const tokens: string[] = [];
    for (let i = 0; i < 55; i++) tokens.push(await register(`203.0.113.${i + 1}`));
    const attackers = await Promise.all(tokens.map((t, i) => client(`203.0.113.${i + 1}`, t)));
    const refusals = (await Promise.all(attackers.map((c) => subscribeMany(c, 20)))).flat();
    // The others stop at 800: a fifth stays for clients holding nothing, and equals do not push each other out.
    expect(server!.hub.totalCost).toBeLessThanOrEqual(800);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((e) => e.data.code === "SERVICE_UNAVAILABLE" && e.data.budget === "server")).toBe(true);
    expect(attackers.flatMap(unsubscribedOf)).toEqual([]);

    const newcomer = await client("192.0.2.78", await register("192.0.2.78"));
    // The last: 6 more, past what the share and the attackers' last refusals (at ≥ 795) leave.
    for (const topic of [`accounts:${ALICE}`, `transfers:${ALICE}`, `assets.holders:${TEN}`, `accounts:${whales[0]}`]) {
      expect((await newcomer.call("subscribe", { topic })).result, topic).toMatchObject({ topic });
    }
    // Past the newcomers' share, room was made by ending the newest topics of the heaviest, who were told why.
    const ended = attackers.flatMap(unsubscribedOf);
    expect(ended.length).toBeGreaterThan(0);
    for (const e of ended) expect(e).toMatchObject({ topic: expect.stringMatching(/^accounts:/), reason: expect.stringContaining("a lighter client's subscription took its place") });
    expect(server!.hub.evicted).toBe(ended.length);
    // The attackers, heavier than the newcomer, cannot take it back.
    await Promise.all(attackers.map((c) => subscribeMany(c, 2)));
    expect(unsubscribedOf(newcomer)).toEqual([]);
    expect(server!.hub.totalCost).toBeLessThanOrEqual(1_000);
  }, 240_000);

  it("a share of the server's budget stays free for clients holding nothing yet; past it, the heaviest give way to the lightest, never equals to each other", async () => {
    await start({ hub: { maxCost: 60 } }); // others may fill 48 of it
    const heavy = [];
    for (let i = 0; i < 4; i++) heavy.push(await client(`198.51.100.${i + 1}`, await register(`198.51.100.${i + 1}`)));
    for (const [i, c] of heavy.entries()) for (const n of [0, 1]) expect((await c.call("subscribe", { topic: `accounts:${whales[2 * i + n]}` })).result).toBeDefined();
    expect(server!.hub.totalCost).toBe(48);
    const full = await heavy[0]!.call("subscribe", { topic: "pool.stats" });
    expect(full.error).toMatchObject({ code: -32002, data: { code: "SERVICE_UNAVAILABLE", budget: "server" } });
    // Two newcomers fit in the share, ending nothing.
    for (const n of [8, 9]) expect((await (await client(`192.0.2.${n}`, await register(`192.0.2.${n}`))).call("subscribe", { topic: `accounts:${whales[n]}` })).result).toBeDefined();
    expect(server!.hub.totalCost).toBe(60);
    expect(heavy.flatMap(unsubscribedOf)).toEqual([]);
    // A third is lighter than the heaviest (12 each): the newest of their topics goes.
    const third = await client("192.0.2.10", await register("192.0.2.10"));
    expect((await third.call("subscribe", { topic: `accounts:${whales[10]}` })).result).toBeDefined();
    expect(heavy.flatMap(unsubscribedOf)).toEqual([{ subscription: "s2", topic: `accounts:${whales[7]}`, reason: expect.stringContaining("a lighter client's subscription took its place") }]);
    expect(unsubscribedOf(heavy[3]!)).toHaveLength(1);
    // The one that lost it would be back at 12, as heavy as the heaviest: equals do not push each other out.
    expect((await heavy[3]!.call("subscribe", { topic: `accounts:${whales[7]}` })).error).toMatchObject({ data: { budget: "server" } });
    expect(server!.hub.totalCost).toBe(60);
    expect(server!.hub.evicted).toBe(1);
    // Counted for operators.
    expect(await server!.metrics.registry.getSingleMetricAsString("tokenpool_ws_subscriptions_evicted_total")).toMatch(/^tokenpool_ws_subscriptions_evicted_total 1$/m);
  });

  it("a topic the heavy hold from several connections is no shelter: it is taken from all of them", async () => {
    await start({ hub: { maxCost: 40 } }); // others may fill 32 of it
    // Two heavy clients hold each of their topics from two connections: every topic is shared.
    const heavy: Client[][] = [];
    for (const [i, ip] of ["198.51.100.41", "198.51.100.42"].entries()) {
      const token = await register(ip);
      const pair = [await client(ip, token), await client(ip, token)];
      heavy.push(pair);
      for (const n of [0, 1]) for (const c of pair) expect((await c.call("subscribe", { topic: `accounts:${whales[2 * i + n]}` })).result).toBeDefined();
    }
    expect(server!.hub.totalCost).toBe(24);
    for (const n of [4, 5]) expect((await (await client(`192.0.2.4${n}`, await register(`192.0.2.4${n}`))).call("subscribe", { topic: `accounts:${whales[n]}` })).result).toBeDefined();
    expect(server!.hub.totalCost).toBe(36);
    const late = await client("192.0.2.46", await register("192.0.2.46"));
    expect((await late.call("subscribe", { topic: `accounts:${whales[6]}` })).result).toBeDefined();
    // The newest of the heaviest topics (24 of 120 each, against the late client's 6) went from both its subscribers.
    expect(heavy[1]!.flatMap(unsubscribedOf)).toEqual([
      { subscription: "s2", topic: `accounts:${whales[3]}`, reason: expect.stringContaining("lighter client") },
      { subscription: "s2", topic: `accounts:${whales[3]}`, reason: expect.stringContaining("lighter client") },
    ]);
    expect(heavy[0]!.flatMap(unsubscribedOf)).toEqual([]);
    expect(server!.hub.totalCost).toBe(36);
  });

  it("many users on one address share the address's budget", async () => {
    await start();
    const refusals: any[] = [];
    for (let u = 0; u < 6; u++) refusals.push(...(await subscribeMany(await client("198.51.100.60", await register("198.51.100.60")), 25)));
    expect(server!.hub.totalCost).toBe(115);
    expect(refusals).toHaveLength(150 - 115);
    expect(refusals[0]).toMatchObject({ message: expect.stringMatching(/^This client's subscriptions would cost 121 queries a block; at most 120/), data: { code: "RATE_LIMITED", budget: "address" } });
    // Another address is not affected.
    expect(await subscribeMany(await client("198.51.100.61", await register("198.51.100.61")), 5)).toEqual([]);
  });

  it("one user on many addresses has one budget over all of them", async () => {
    await start();
    const token = await register("198.51.100.70");
    const refusals: any[] = [];
    for (let a = 0; a < 10; a++) refusals.push(...(await subscribeMany(await client(`198.51.100.${70 + a}`, token), 15)));
    expect(server!.hub.totalCost).toBe(115);
    expect(refusals).toHaveLength(150 - 115);
    expect(refusals.every((e) => e.data.budget === "user")).toBe(true);
  });

  it("many /64s of one IPv6 /48 share the /48's budget of 240; another /48 and IPv4 clients are not affected", async () => {
    await start();
    const refusals: any[] = [];
    for (let n = 1; n <= 10; n++) refusals.push(...(await subscribeMany(await client(`2001:db8:48:${n.toString(16)}::1`, await register(`2001:db8:48:${n}::1`)), 30)));
    expect(server!.hub.totalCost).toBe(235);
    expect(refusals).toHaveLength(300 - 235);
    expect(refusals[0]).toMatchObject({ message: expect.stringMatching(/^This client's IPv6 \/48's subscriptions would cost 241 queries a block; at most 240/), data: { code: "RATE_LIMITED", budget: "prefix" } });
    expect(await subscribeMany(await client("2001:db8:49:1::1", await register("2001:db8:49:1::1")), 5)).toEqual([]);
    expect(await subscribeMany(await client("198.51.100.90", await register("198.51.100.90")), 5)).toEqual([]);
  });

  it("a topic is priced by what its answer computed: an empty account 1, a portfolio of 500 tokens 6; a price that rises past a budget ends the newest subscription", async () => {
    await start({ live: { maxTopicCostPerIp: 9 } });
    const c = await client("198.51.100.95", await register("198.51.100.95"));
    const held = () => server!.hub.totalCost;
    const empty = encodeAddress(randomBytes(32), 2);
    await c.call("subscribe", { topic: `accounts:${empty}` });
    expect(held()).toBe(1);
    await c.call("subscribe", { topic: `transfers:${empty}` });
    await c.call("subscribe", { topic: `assets.holders:${LONELY}` }); // no holders: an empty page
    expect(held()).toBe(3);
    const whale = (await c.call("subscribe", { topic: `accounts:${whales[11]}` })).result.subscription;
    expect(held()).toBe(9);
    // A block gives the empty account 150 tokens: its topic now costs 3, the client 11 of its 9.
    const number = HEAD_BLOCK + 60;
    await handle.db.transaction(async (tx) => {
      const t = tx as unknown as typeof handle.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + 60 * 12 };
      await insertBlocks(t, [block]);
      await upsertHolders(t, Array.from({ length: 150 }, (_, i) => ({ tokenId: 700_000 + i, account: empty, balance: "5", blockNumber: number })));
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 0, reserves: 0, holders: 150, tokens: 0 } }]);
    });
    await until("the newest subscription ended", () => unsubscribedOf(c).length > 0, 10_000);
    expect(unsubscribedOf(c)).toEqual([{ subscription: whale, topic: `accounts:${whales[11]}`, reason: expect.stringContaining("past their budget of 9") }]);
    expect(held()).toBe(5);
  });
});
