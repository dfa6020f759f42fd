/**
 * The indexer's heartbeat as /health reads it: a stored checkpoint says what was indexed, not
 * that anyone still indexes. A heartbeat older than the threshold makes /health "stale" (still
 * 200: the API serves), with its age; a newer head seen with it moves chain.finalized and the
 * lag. (The follower writing it: operations.test.ts; `tokenpool status`: cli.test.ts.)
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { OpenAPIHono } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { getHeartbeat, replaceSkippedEvents, setTask, type Database } from "../../db/index.js";
import { healthRoutes } from "../../api/routes/health.js";
import { createLogger } from "../../shared/logger.js";
import { buildApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { HEAD_BLOCK, seedMarket } from "../support/fixtures.js";

interface HealthBody {
  status: string;
  chain: { finalized: number | null };
  indexer: { block: number | null; lag: number | null; heartbeatAge?: number; skippedEvents: number };
}

const age = (db: Database, seconds: number) => db.execute(sql`update indexer_tasks set updated_at = now() - make_interval(secs => ${seconds}) where name = 'heartbeat'`);

describeDb("the indexer's heartbeat in /health", (ctx) => {
  it("no heartbeat on record (no indexer has run here): ok, and no heartbeatAge", async () => {
    await seedMarket(ctx.db);
    const body = (await (await buildApp(ctx.db).get("/health")).json()) as HealthBody;
    expect(body).toMatchObject({ status: "ok", chain: { finalized: HEAD_BLOCK + 3 }, indexer: { block: HEAD_BLOCK, lag: 3 } });
    expect("heartbeatAge" in body.indexer).toBe(false);
  });

  it("a fresh heartbeat: ok, its age, and the head it saw when newer than the checkpoint's", async () => {
    await seedMarket(ctx.db);
    await setTask(ctx.db, "heartbeat", { finalized: HEAD_BLOCK + 9, block: HEAD_BLOCK });
    const body = (await (await buildApp(ctx.db).get("/health")).json()) as HealthBody;
    expect(body).toMatchObject({ status: "ok", chain: { finalized: HEAD_BLOCK + 9 }, indexer: { block: HEAD_BLOCK, lag: 9 } });
    expect(body.indexer.heartbeatAge).toBeGreaterThanOrEqual(0);
    expect(body.indexer.heartbeatAge).toBeLessThanOrEqual(5);
  });

  it("a heartbeat older than the threshold: stale (over degraded), still 200, as the OpenAPI document says", async () => {
    await seedMarket(ctx.db);
    await setTask(ctx.db, "heartbeat", { finalized: HEAD_BLOCK + 3, block: HEAD_BLOCK });
    await age(ctx.db, 61);
    expect((await getHeartbeat(ctx.db))!.ageSeconds).toBeGreaterThan(60);
    await replaceSkippedEvents(ctx.db, [HEAD_BLOCK], [{ blockNumber: HEAD_BLOCK, eventIndex: 4, event: "assetConversion.SwapExecuted", reason: "no known pool for hop 0 (10 → 0)" }]);
    const t = buildApp(ctx.db);
    const res = await t.get("/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as HealthBody;
    expect(body).toMatchObject({ status: "stale", chain: { finalized: HEAD_BLOCK + 3 }, indexer: { block: HEAD_BLOCK, lag: 3, skippedEvents: 1 } });
    expect(body.indexer.heartbeatAge).toBeGreaterThanOrEqual(61);

    const doc = (await (await t.get("/openapi.json")).json()) as any;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "openapi", components: doc.components });
    const schema = JSON.parse(JSON.stringify(doc.paths["/health"].get.responses["200"].content["application/json"].schema).replaceAll('"#/components/', '"openapi#/components/'));
    const validate = ajv.compile(schema);
    expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    expect(doc.components.schemas.Health.properties.status.enum).toEqual(["ok", "degraded", "stale"]);
  });

  it("the threshold is the route's to set", async () => {
    await seedMarket(ctx.db);
    await setTask(ctx.db, "heartbeat", { finalized: HEAD_BLOCK + 3, block: HEAD_BLOCK });
    await age(ctx.db, 90);
    const routes = (staleAfterSeconds?: number) => new OpenAPIHono().route("/", healthRoutes({ db: ctx.db, ping: async () => {}, logger: createLogger("silent"), staleAfterSeconds }));
    const status = async (staleAfterSeconds?: number) => ((await (await routes(staleAfterSeconds).request("/health")).json()) as HealthBody).status;
    expect(await status()).toBe("stale");
    expect(await status(600)).toBe("ok");
    expect(await status(30)).toBe("stale");
  });

  it("a re-read under way (state that changed without events) is shown with its block, scope and reasons, as the OpenAPI document says", async () => {
    await seedMarket(ctx.db);
    const t = buildApp(ctx.db);
    expect(((await (await t.get("/health")).json()) as any).indexer.reread).toBeNull();
    const reasons = [`block ${HEAD_BLOCK}: accounts of token(s) 10 destroyed (AccountsDestroyed names none)`];
    await setTask(ctx.db, "reread", { block: HEAD_BLOCK, hash: "0x01", scope: [10, 18], reasons, index: 1, lastKey: "0x02", rows: 7 });
    const body = (await (await t.get("/health")).json()) as any;
    expect(body.indexer.reread).toEqual({ block: HEAD_BLOCK, scope: "tokens", tokens: [10, 18], tokenCount: 2, rows: 7, reasons });
    const doc = (await (await t.get("/openapi.json")).json()) as any;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "openapi", components: doc.components });
    const validate = ajv.compile(JSON.parse(JSON.stringify(doc.paths["/health"].get.responses["200"].content["application/json"].schema).replaceAll('"#/components/', '"openapi#/components/')));
    expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    await setTask(ctx.db, "reread", { block: HEAD_BLOCK, hash: "0x01", scope: "all", reasons: ["runtime upgrade"], index: 0, lastKey: null, rows: 0 });
    expect(((await (await t.get("/health")).json()) as any).indexer.reread).toEqual({ block: HEAD_BLOCK, scope: "all", tokens: [], tokenCount: 0, rows: 0, reasons: ["runtime upgrade"] });
    // A long list is bounded in the answer: the first 20 tokens, the count, the last five reasons.
    const many = Array.from({ length: 500 }, (_, i) => i + 1);
    await setTask(ctx.db, "reread", { block: HEAD_BLOCK, hash: "0x01", scope: many, reasons: many.map((i) => `reason ${i}`), index: 0, lastKey: null, rows: 0 });
    const long = ((await (await t.get("/health")).json()) as any).indexer.reread;
    expect([long.tokens, long.tokenCount, long.reasons]).toEqual([many.slice(0, 20), 500, ["reason 496", "reason 497", "reason 498", "reason 499", "reason 500"]]);
  });
});
