/**
 * DATABASE_READ_URL on a real streaming replica: a private primary cluster and a physical
 * replica of it (pg_basebackup -R, Debian's binaries) that applies every commit 1.5 s late.
 * A block committed on the primary is announced (NOTIFY) at once, but the API must neither
 * cache nor push an answer older than the block it announces: the push carries the new value,
 * and every HTTP answer is a consistent (block, value) pair that reaches the new block.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { announceBlocks, createDb, insertBlocks, insertPrices, latestBlock, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { HEAD_BLOCK, HEAD_TIME, KSM, seedMarket } from "../support/fixtures.js";
import { postgresBin, startPgCluster, startReplica, type PgCluster } from "../support/pg-cluster.js";
import { until } from "../support/wait.js";
import { connect, notificationsFor } from "../support/ws.js";

const bin = postgresBin();
const LAG_MS = 1_500;

describe.skipIf(!bin)(`a streaming read replica${bin ? "" : " (skipped: no PostgreSQL server binaries under /usr/lib/postgresql)"}`, () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let writer: DbHandle;
  let reader: DbHandle;
  let server: ApiServer;
  let base: string;

  beforeAll(async () => {
    primary = await startPgCluster();
    writer = await createDb({ databaseUrl: primary.url });
    await writer.migrate();
    await seedMarket(writer.db);
    replica = await startReplica(primary, LAG_MS);
    reader = await createDb({ databaseUrl: replica.url });
    await until("the replica to have the fixtures", async () => ((await latestBlock(reader.db).catch(() => undefined))?.number ?? 0) >= HEAD_BLOCK, 30_000);
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url, JWT_SECRET: randomBytes(32).toString("base64url"), RATE_LIMIT_MAX: "0" });
    server = await startApiServer(config, createLogger("silent"));
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await reader?.close();
    await writer?.close();
    await replica?.destroy();
    await primary?.destroy();
  }, 60_000);

  it("a block announced before the replica has it is neither cached nor pushed with the older value", async () => {
    const get = async () => (await (await fetch(`${base}/oracle/value/${KSM}`)).json()) as { valueUsd: string; blockNumber: number };
    expect(await get()).toMatchObject({ valueUsd: "12.5", blockNumber: HEAD_BLOCK });
    const c = await connect(`${base.replace("http", "ws")}/ws`);
    const sub = await c.call("subscribe", { topic: `oracle.value:${KSM}` });
    expect(sub.result.result).toMatchObject({ valueUsd: "12.5", blockNumber: HEAD_BLOCK });

    const number = HEAD_BLOCK + 1;
    const committed = Date.now();
    await writer.db.transaction(async (tx) => {
      const t = tx as unknown as typeof writer.db;
      const block = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + 12 };
      await insertBlocks(t, [block]);
      await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: "13" }]);
      await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
    });
    // Every answer meanwhile is one block's, whole; the old one until the replica has the new.
    const seen: { valueUsd: string; blockNumber: number; ms: number }[] = [];
    await until(
      "the API to answer the new block",
      async () => {
        const a = await get();
        seen.push({ valueUsd: a.valueUsd, blockNumber: a.blockNumber, ms: Date.now() - committed });
        return a.blockNumber === number;
      },
      20_000,
    );
    for (const a of seen) expect([`${HEAD_BLOCK}:12.5`, `${number}:13`]).toContain(`${a.blockNumber}:${a.valueUsd}`);
    expect(seen.filter((a) => a.blockNumber === HEAD_BLOCK).length).toBeGreaterThan(0);
    expect(seen.at(-1)!.ms).toBeGreaterThanOrEqual(LAG_MS - 200);

    await until("the push", () => notificationsFor(c, sub.result.subscription).length === 1, 20_000);
    const [pushed] = notificationsFor(c, sub.result.subscription);
    expect(pushed.params).toMatchObject({ block: number, result: { valueUsd: "13", blockNumber: number } });
    c.close();
  }, 60_000);

  it("blocks committed in a burst while the replica lags are announced together once it has the newest", async () => {
    const c = await connect(`${base.replace("http", "ws")}/ws`);
    const sub = await c.call("subscribe", { topic: `oracle.value:${KSM}` });
    const prices = { [HEAD_BLOCK + 2]: "14", [HEAD_BLOCK + 3]: "15", [HEAD_BLOCK + 4]: "16" } as Record<number, string>;
    for (const [n, price] of Object.entries(prices).map(([n, p]) => [Number(n), p] as const)) {
      await writer.db.transaction(async (tx) => {
        const t = tx as unknown as typeof writer.db;
        const block = { number: n, hash: `0x${n.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + (n - HEAD_BLOCK) * 12 };
        await insertBlocks(t, [block]);
        await insertPrices(t, [{ tokenId: KSM, blockNumber: n, priceUsd: price }]);
        await announceBlocks(t, [{ ...block, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
      });
    }
    const last = HEAD_BLOCK + 4;
    await until("the push of the newest block", () => notificationsFor(c, sub.result.subscription).some((m) => m.params.block === last), 20_000);
    // Every push is labelled with the block its value is from.
    for (const m of notificationsFor(c, sub.result.subscription)) {
      expect(m.params.result.blockNumber).toBe(m.params.block);
      expect(m.params.result.valueUsd).toBe(prices[m.params.block]);
    }
    expect(notificationsFor(c, sub.result.subscription).at(-1)!.params.result).toMatchObject({ valueUsd: "16", blockNumber: last });
    expect(await (await fetch(`${base}/oracle/value/${KSM}`)).json()).toMatchObject({ valueUsd: "16", blockNumber: last });
    c.close();
  }, 60_000);
});
