import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { historyCoverage, planStages, replaceSkippedEvents, setTask, startBackfillRun, updateBackfillRun } from "../../db/index.js";
import { describeDb, memoryStore } from "../support/db.js";
import { buildApp, expectError } from "../support/app.js";
import { HEAD_BLOCK, seedMarket } from "../support/fixtures.js";

describeDb("error paths", (ctx) => {
  it("unknown routes are 404 NOT_FOUND in the error body", async () => {
    const t = buildApp(ctx.db);
    for (const path of ["/nope", "/oracle/value", "/oracle/history", "/pool/stats/1", "/pool/stats/1/2/3", "/pools/1", "/ws/x"]) {
      await expectError(await t.get(path), 404, "NOT_FOUND");
    }
  });

  it("CORS for browsers: requests with Origin get the headers (and a preflight answer), others do not need them", async () => {
    const t = buildApp(ctx.db);
    const cross = await t.get("/pool/stats", { Origin: "https://wallet.example" });
    expect(cross.headers.get("access-control-allow-origin")).toBe("*");
    expect(cross.headers.get("access-control-expose-headers")).toContain("ETag");
    const preflight = await t.request("/assets/metadata/1", { method: "OPTIONS", headers: { Origin: "https://wallet.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/i);
    const plain = await t.get("/pool/stats");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a wrong method is 405 with an Allow header", async () => {
    const t = buildApp(ctx.db);
    const del = await t.request("/pool/stats", { method: "DELETE" });
    expect(del.headers.get("allow")).toBe("GET, HEAD");
    await expectError(del, 405, "METHOD_NOT_ALLOWED");
    const get = await t.get("/auth/login");
    expect(get.headers.get("allow")).toBe("POST");
    await expectError(get, 405, "METHOD_NOT_ALLOWED");
    await expectError(await t.request("/oracle/value/1", { method: "PUT", body: "{}", headers: { "Content-Type": "application/json" } }), 405, "METHOD_NOT_ALLOWED");
    // Uncommon methods too (they were 404).
    for (const method of ["PROPFIND", "PURGE", "LINK"]) {
      const res = await t.request("/pool/stats", { method });
      expect(res.headers.get("allow"), method).toBe("GET, HEAD");
      await expectError(res, 405, "METHOD_NOT_ALLOWED");
    }
  });

  it("bodies: malformed JSON 400, wrong or missing content type 415, over 16 KiB 413 — and nothing is created", async () => {
    const t = buildApp(ctx.db);
    const post = (body: string, headers: Record<string, string>) => t.request("/auth/register", { method: "POST", body, headers });
    const valid = JSON.stringify({ email: "ada@example.com", password: "correct horse battery" });
    const malformed = await expectError(await post('{"email": "ada@example.com",', { "Content-Type": "application/json" }), 400, "VALIDATION_ERROR");
    expect(malformed).toContain("not valid JSON");
    await expectError(await post("", { "Content-Type": "application/json" }), 400, "VALIDATION_ERROR");
    await expectError(await post(valid, { "Content-Type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(await post(valid, {}), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(await post(valid, { "Content-Type": "application/x-www-form-urlencoded" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    const big = JSON.stringify({ email: "ada@example.com", password: "correct horse battery", name: "x".repeat(17 * 1024) });
    await expectError(await post(big, { "Content-Type": "application/json" }), 413, "PAYLOAD_TOO_LARGE");
    // None of the above registered the user.
    const login = await t.post("/auth/login", { email: "ada@example.com", password: "correct horse battery" });
    await expectError(login, 401, "INVALID_CREDENTIALS");
    // A charset parameter is fine.
    expect((await post(valid, { "Content-Type": "application/json; charset=utf-8" })).status).toBe(200);
  });

  it("an unexpected exception is 500 INTERNAL_ERROR without a stack trace; a closed store is 503", async () => {
    const broken = await memoryStore();
    await broken.db.execute(sql`drop table "pools" cascade`);
    const t = buildApp(broken.db);
    const res = await t.get("/pool/stats");
    const text = await res.clone().text();
    await expectError(res, 500, "INTERNAL_ERROR");
    expect(text).not.toMatch(/at .*\.(ts|js)|Error:|pools|relation/i);
    await broken.close();
    const closed = await t.get("/pool/stats");
    expect(closed.headers.get("retry-after")).toBe("5");
    expect(await expectError(closed, 503, "SERVICE_UNAVAILABLE")).not.toMatch(/PGlite|closed/);
  });

  it("/health reports the checkpoint, and 503 with the error body when the store is down", async () => {
    const t = buildApp(ctx.db, { ping: ctx.handle.ping });
    const empty = await t.get("/health");
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ status: "ok", chain: { finalized: null }, indexer: { block: null, lag: null, skippedEvents: 0, bootstrap: null, history: null, backfill: null, reread: null, verification: null }, db: "ok" });
    await seedMarket(ctx.db);
    expect(await (await t.get("/health")).json()).toEqual({ status: "ok", chain: { finalized: HEAD_BLOCK + 3 }, indexer: { block: HEAD_BLOCK, lag: 3, skippedEvents: 0, bootstrap: null, history: null, backfill: null, reread: null, verification: null }, db: "ok" });

    // An event the indexer handles but could not decode turns it degraded (still 200: it serves),
    // until a block's re-indexing replaces its record.
    await replaceSkippedEvents(ctx.db, [HEAD_BLOCK], [{ blockNumber: HEAD_BLOCK, eventIndex: 4, event: "assetConversion.SwapExecuted", reason: "no known pool for hop 0 (10 → 0)" }]);
    const degraded = await t.get("/health");
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toMatchObject({ status: "degraded", indexer: { block: HEAD_BLOCK, skippedEvents: 1 } });
    await replaceSkippedEvents(ctx.db, [HEAD_BLOCK], []);
    expect(await (await t.get("/health")).json()).toMatchObject({ status: "ok", indexer: { skippedEvents: 0 } });

    // The verification sweep's position and last pass, and an upgrade whose pass is owed, as the indexer stores them.
    const lastPass = { pass: 3, startBlock: 90, endBlock: 99, startedAt: "2026-11-27T10:00:00.000Z", endedAt: "2026-11-27T10:14:00.000Z", seconds: 840, checked: 3_400_000, found: 2, upgrade: null };
    await setTask(ctx.db, "sweep", { pass: 4, passStartedAt: "2026-11-27T10:14:00.000Z", passStartBlock: 99, phase: "chain", chain: { map: 0, lastKey: "0x01" }, store: null, block: HEAD_BLOCK, checked: 12_000, found: 1, repaired: { "holders.ghost": 2, "pools.wrong": 1 }, upgrade: null, lastPass });
    await setTask(ctx.db, "sweep-upgrade", { block: HEAD_BLOCK - 1, specName: "statemine", specVersion: 1_009_004 });
    expect(((await (await t.get("/health")).json()) as { indexer: { verification: unknown } }).indexer.verification).toEqual({
      pass: 4,
      phase: "chain",
      block: HEAD_BLOCK,
      passStartedAt: "2026-11-27T10:14:00.000Z",
      checked: 12_000,
      found: 1,
      repaired: { "holders.ghost": 2, "pools.wrong": 1 },
      lastPass,
      upgrade: { block: HEAD_BLOCK - 1, specName: "statemine", specVersion: 1_009_004 },
    });
    await ctx.db.execute(sql`delete from indexer_tasks where name in ('sweep', 'sweep-upgrade')`);

    // A `tokenpool backfill` run as it records itself, and the store's coverage; silent for long, it is stalled.
    const run = await startBackfillRun(ctx.db, { fromBlock: 1, toBlock: 9_000, runtimes: 3, chunksTotal: 9, chunksDone: 2, blocksTotal: 9_000, blocksDone: 2_000 });
    await updateBackfillRun(ctx.db, run, { chunksDone: 4, blocksDone: 4_500, blocksPerSecond: 250 });
    const coverage = await historyCoverage(ctx.db);
    expect(coverage.historyFrom).not.toBeNull();
    const backfill = async () => ((await (await t.get("/health")).json()) as { indexer: { backfill: unknown } }).indexer.backfill;
    expect(await backfill()).toEqual({
      from: 1,
      to: 9_000,
      runtimes: 3,
      chunksDone: 4,
      chunksTotal: 9,
      blocksDone: 4_500,
      blocksTotal: 9_000,
      blocksPerSecond: 250,
      etaSeconds: 18,
      state: "running",
      error: null,
      startedAt: expect.any(String),
      updatedAt: expect.any(String),
      ...coverage,
      bulkLoading: [],
    });
    // A partition loading in bulk: its blocks are not held until it is attached, and /health says which.
    await planStages(ctx.db, [{ from: 7_000_001, to: 7_000_010 }], 1);
    expect(await backfill()).toMatchObject({ ...coverage, bulkLoading: [{ partitionStart: 7_000_000, fromBlock: 7_000_001, toBlock: 7_000_010 }] });
    await ctx.db.execute(sql`delete from transfer_stages`);
    await ctx.db.execute(sql`drop table transfers_s7`);
    await ctx.db.execute(sql`update backfill_runs set updated_at = now() - interval '5 minutes'`);
    expect(await backfill()).toMatchObject({ state: "stalled", etaSeconds: null });
    await updateBackfillRun(ctx.db, run, { chunksDone: 9, blocksDone: 9_000, blocksPerSecond: 240, state: "done" });
    expect(await backfill()).toMatchObject({ state: "done", chunksDone: 9, blocksDone: 9_000, etaSeconds: null });

    const down = buildApp(ctx.db, { ping: () => Promise.reject(new Error("connection refused")) });
    const res = await down.get("/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      success: false,
      error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) },
      status: "down",
      chain: { finalized: null },
      indexer: { block: null, lag: null, skippedEvents: null, bootstrap: null, history: null, backfill: null, reread: null, verification: null },
      db: "down",
    });
  });

  it("serves the OpenAPI document and the docs page", async () => {
    const t = buildApp(ctx.db);
    const doc: any = await (await t.get("/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/accounts/{address}",
      "/accounts/{address}/balances/{id}",
      "/accounts/{address}/lp-balances/{lpTokenId}",
      "/accounts/{address}/swaps",
      "/accounts/{address}/transfers",
      "/assets",
      "/assets/holders/{id}",
      "/assets/lp/{lpTokenId}/transfers",
      "/assets/metadata/{id}",
      "/assets/{id}/history",
      "/assets/{id}/transfers",
      "/auth/login",
      "/auth/register",
      "/dexscreener/asset",
      "/dexscreener/events",
      "/dexscreener/latest-block",
      "/dexscreener/pair",
      "/health",
      "/oracle/history/{id}",
      "/oracle/value/{id}",
      "/oracle/values",
      "/pool/stats",
      "/pool/stats/{tokenA}/{tokenB}",
      "/pools",
      "/pools/{tokenA}/{tokenB}/ohlcv",
      "/pools/{tokenA}/{tokenB}/swaps",
      "/snapshots",
      "/snapshots/{id}",
      "/snapshots/{id}/holders",
      "/snapshots/{id}/holders.csv",
    ]);
    const page = await t.get("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("<title>TokenPool");
    const docs = await t.get("/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
    const init = await t.get("/docs/assets/init.js");
    expect(init.headers.get("content-type")).toContain("text/javascript");
    expect(await init.text()).toContain("/openapi.json");
  });

  it("runs no inline script on either page: script-src 'self' only, every <script> a file of this origin", async () => {
    const t = buildApp(ctx.db);
    for (const path of ["/", "/docs"]) {
      const res = await t.get(path);
      const policy = res.headers.get("content-security-policy")!;
      const scriptSrc = /script-src ([^;]*)/.exec(policy)![1]!;
      expect(scriptSrc, path).toBe("'self'");
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(body!.trim(), `${path}: inline script`).toBe("");
        const src = /src="([^"]+)"/.exec(attrs!)![1]!;
        expect(src.startsWith("/"), src).toBe(true);
        expect((await t.get(src)).status, src).toBe(200);
      }
      expect(html, path).not.toMatch(/\son[a-z]+=/i);
    }
    // The dashboard's style too: no inline style allowed, none in the page or its script's markup.
    const page = await t.get("/");
    expect(/style-src ([^;]*)/.exec(page.headers.get("content-security-policy")!)![1]).toBe("'self'");
    expect(await (await t.get("/dashboard/app.js")).text()).not.toMatch(/style="/);
  });
});
