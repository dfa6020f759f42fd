/**
 * Block notifications missed while the API's LISTEN connection was down: once postgres.js
 * re-subscribes, the response cache is cleared and topics recomputed, so no answer older than
 * the store is served until some later block happens to be announced.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { insertBlocks, insertPrices } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { dbTargets, services, type DbTarget } from "../support/db.js";
import { HEAD_BLOCK, HEAD_TIME, KSM, seedMarket } from "../support/fixtures.js";
import { until } from "../support/wait.js";

const target = dbTargets.find((t) => t.name === "postgres")!;

describe.skipIf(target.skip)(`the API after its notification connection is lost${target.skip ? ` (skipped: ${target.skip})` : ""}`, () => {
  let store: Awaited<ReturnType<DbTarget["open"]>>;
  let server: ApiServer;
  beforeAll(async () => {
    store = await target.open();
    await seedMarket(store.db);
    server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATABASE_URL: store.url!, JWT_SECRET: randomBytes(32).toString("base64url") }), createLogger("silent"));
  });
  afterAll(async () => {
    await server?.close();
    await store?.drop();
  });

  it("clears the cache when LISTEN comes back, so a block committed unheard is served", async () => {
    const url = `http://127.0.0.1:${server.port}/oracle/value/${KSM}`;
    const before = (await (await fetch(url)).json()) as { valueUsd: string };
    // A block whose announcement is lost: committed with no NOTIFY at all.
    const number = HEAD_BLOCK + 7;
    await insertBlocks(store.db, [{ number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + 84 }]);
    await insertPrices(store.db, [{ tokenId: KSM, blockNumber: number, priceUsd: "99.5" }]);
    expect(await (await fetch(url)).json()).toEqual(before); // still the cached answer
    // The API's LISTEN connection dies; postgres.js reconnects and LISTENs again.
    const admin = postgres(services.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      const killed = await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${new URL(store.url!).pathname.slice(1)} and query ilike 'listen%'`;
      expect(killed.length).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await until("the new price to be served", async () => ((await (await fetch(url)).json()) as { valueUsd: string }).valueUsd === "99.5", 15_000);
  }, 40_000);
});
