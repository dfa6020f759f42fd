/**
 * Holder snapshots (POST /snapshots, GET /snapshots/{id}[/holders[.csv]]) on a store written the
 * way the indexer writes it: 300 accounts over 12 blocks, balances moving, dropping to zero and
 * coming back, in batches of several blocks. Every snapshot's ranked list — pages, cursor walk
 * and CSV alike — equals the balances this test wrote at that block; a job stopped between
 * batches resumes to the same list; what cannot be answered is refused, and queues are bounded.
 */
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { acceptsCsv } from "../../api/middleware/cache.js";
import { CHAIN_TASK, failSnapshot, getSnapshot, pruneHistory, recordBalances, requestSnapshot, rowsOf, setTask, snapshotTaken, upsertPools } from "../../db/index.js";
import { Batch } from "../../indexer/writer.js";
import { createLogger } from "../../shared/logger.js";
import { runSnapshot, startSnapshotRunner, type SnapshotRunner } from "../../api/snapshot-runner.js";
import { authHeader, buildApp, expectError, noRequestLimit, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { ACCOUNTS, ranked, time, TOKEN, truth, writeSnapshotStore } from "../support/snapshot-store.js";
import { until } from "../support/wait.js";

describeDb("holder snapshots", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  let runner: SnapshotRunner;

  beforeEach(async () => {
    truth.clear();
    await setTask(ctx.db, CHAIN_TASK, { ss58: 2, genesisHash: "0x" + "00".repeat(32), specName: "statemine" });
    await writeSnapshotStore(ctx.db);
    // Batches of 37 accounts: each snapshot takes several steps.
    runner = await startSnapshotRunner(ctx.db, createLogger("silent"), { batch: 37 });
    // The per-IP request limit is not under test here (rate-limit.test.ts): the first test alone
    // makes ~80 requests plus one status poll per 25 ms, which on a slow machine passed 100/min.
    t = buildApp(ctx.db, { snapshots: runner, snapshotLimits: { queued: 4, perUser: 2 }, csv: { current: { queueMs: 300 } }, rateLimit: noRequestLimit() });
    auth = await authHeader(t);
  });
  afterEach(async () => {
    await runner.close();
  });

  async function done(id: number) {
    for (let i = 0; i < 400; i++) {
      const view = (await (await t.get(`/snapshots/${id}`, auth)).json()) as { state: string; progress: { fraction: string } };
      if (view.state === "done" || view.state === "failed") return view;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`snapshot ${id} did not finish`);
  }

  it("at every block from the floor to the head, pages, the cursor walk and the CSV equal the balances written there", async () => {
    for (const n of [100, 102, 106, 108, 111]) {
      const res = await t.post("/snapshots", { tokenId: TOKEN, block: n }, auth);
      expect(res.status, await res.clone().text()).toBe(202);
      const { id } = (await res.json()) as { id: number };
      const view = await done(id);
      const want = ranked(n);
      expect(view).toMatchObject({ state: "done", blockNumber: n, timestamp: time(n), holders: want.length, progress: { fraction: "1" } });
      // Pages of 50 by number.
      const byPage: string[] = [];
      for (let p = 1; p <= Math.ceil(want.length / 50); p++) {
        const page = (await (await t.get(`/snapshots/${id}/holders?page=${p}&limit=50`, auth)).json()) as { holders: Array<{ rank: number; address: string; balance: string }>; totalHolders: number };
        expect(page.totalHolders).toBe(want.length);
        byPage.push(...page.holders.map((h) => `${h.rank},${h.address},${h.balance}`));
      }
      expect(byPage, `pages at ${n}`).toEqual(want);
      // The cursor walk, 64 at a time.
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page = (await (await t.get(`/snapshots/${id}/holders?limit=64${cursor ? `&cursor=${cursor}` : ""}`, auth)).json()) as { holders: Array<{ rank: number; address: string; balance: string }>; nextCursor: string | null };
        walked.push(...page.holders.map((h) => `${h.rank},${h.address},${h.balance}`));
        cursor = page.nextCursor;
      } while (cursor);
      expect(walked, `cursor walk at ${n}`).toEqual(want);
      // The CSV, by Accept and by .csv: a header row, then exactly the list.
      for (const [path, headers] of [[`/snapshots/${id}/holders`, { ...auth, Accept: "text/csv" }], [`/snapshots/${id}/holders.csv`, auth]] as const) {
        const csv = await t.get(path, headers);
        expect(csv.status).toBe(200);
        expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
        // What the file is, in its name and headers (an airdrop file says its token and block).
        expect([csv.headers.get("content-disposition"), csv.headers.get("x-token-id"), csv.headers.get("x-block-number")]).toEqual([`attachment; filename="holders-${TOKEN}-at-${n}.csv"`, String(TOKEN), String(n)]);
        const text = await csv.text();
        expect(text.split("\n")).toEqual(["rank,address,balance", ...want, ""]);
        // How much there is, before the first byte (set by the job): the data rows, and the exact size.
        expect([csv.headers.get("x-row-count"), csv.headers.get("content-length")]).toEqual([String(want.length), String(Buffer.byteLength(text))]);
      }
      const head = await t.request(`/snapshots/${id}/holders.csv`, { method: "HEAD", headers: auth });
      const bytes = Buffer.byteLength(["rank,address,balance", ...want, ""].join("\n"));
      expect([head.status, head.headers.get("x-block-number"), head.headers.get("x-row-count"), head.headers.get("content-length")]).toEqual([200, String(n), String(want.length), String(bytes)]);
    }
  });

  it("an LP token's snapshot lists the pool's providers at the block, apart from the token of the same id; its CSV says it is an LP token's", async () => {
    // LP token 1984 (PoolAssets ids are their own space: the same number as the snapshot store's token).
    await upsertPools(ctx.db, [{ token0Id: 0, token1Id: TOKEN, lpTokenId: TOKEN, account: "pool", lpFeePpm: 3000, createdBlock: 100, blockNumber: 100 }]);
    const [a, b, c] = ACCOUNTS;
    await recordBalances(ctx.db, [
      { lp: true, tokenId: TOKEN, account: a!, blockNumber: 100, balance: "700" },
      { lp: true, tokenId: TOKEN, account: b!, blockNumber: 100, balance: "300" },
      { lp: true, tokenId: TOKEN, account: c!, blockNumber: 104, balance: "900" },
      { lp: true, tokenId: TOKEN, account: a!, blockNumber: 106, balance: "0" }, // a left the pool
    ]);
    await snapshotTaken(ctx.db, "lp", 100);
    const providers = { 103: [`1,${a},700`, `2,${b},300`], 110: [`1,${c},900`, `2,${b},300`] };
    for (const [n, want] of Object.entries(providers)) {
      const res = await t.post("/snapshots", { lpTokenId: TOKEN, block: Number(n) }, auth);
      expect(res.status, await res.clone().text()).toBe(202);
      const view: any = await res.json();
      expect(view).toMatchObject({ tokenId: null, lpTokenId: TOKEN, blockNumber: Number(n) });
      expect(await done(view.id)).toMatchObject({ state: "done", holders: 2, totalBalance: n === "103" ? "1000" : "1200" });
      const page: any = await (await t.get(`/snapshots/${view.id}/holders`, auth)).json();
      expect(page).toMatchObject({ tokenId: null, lpTokenId: TOKEN, totalHolders: 2 });
      expect(page.holders.map((h: any) => `${h.rank},${h.address},${h.balance}`)).toEqual(want);
      const csv = await t.get(`/snapshots/${view.id}/holders.csv`, auth);
      expect([csv.headers.get("content-disposition"), csv.headers.get("x-lp-token-id"), csv.headers.get("x-token-id")]).toEqual([`attachment; filename="lp-holders-${TOKEN}-at-${n}.csv"`, String(TOKEN), null]);
      expect((await csv.text()).split("\n")).toEqual(["rank,address,balance", ...want, ""]);
    }
    // The token of the same id at the same block is another snapshot, of its own holders.
    const token: any = await (await t.post("/snapshots", { tokenId: TOKEN, block: 103 }, auth)).json();
    expect(token).toMatchObject({ tokenId: TOKEN, lpTokenId: null });
    expect(((await done(token.id)) as { holders?: number }).holders).toBe(ranked(103).length);
    // Refused: both ids or neither, an LP token no pool has, a block before its pool.
    for (const body of [{ tokenId: TOKEN, lpTokenId: TOKEN, block: 103 }, { block: 103 }]) await expectError(await t.post("/snapshots", body, auth), 400, "VALIDATION_ERROR");
    await expectError(await t.post("/snapshots", { lpTokenId: 4242, block: 103 }, auth), 404, "TOKEN_NOT_FOUND");
    await ctx.db.execute(sql`update pools set created_block = 105 where lp_token_id = ${TOKEN}`);
    await expectError(await t.post("/snapshots", { lpTokenId: TOKEN, block: 104 }, auth), 404, "TOKEN_NOT_FOUND");
  });

  it("the same token and block is one snapshot, computed once; atTime and no block pick theirs", async () => {
    const first = (await (await t.post("/snapshots", { tokenId: TOKEN, block: 104 }, auth)).json()) as { id: number };
    await done(first.id);
    const again = await t.post("/snapshots", { tokenId: TOKEN, block: 104 }, auth);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(first.id);
    const byTime = (await (await t.post("/snapshots", { tokenId: TOKEN, atTime: time(104) + 7 }, auth)).json()) as { id: number; blockNumber: number };
    expect(byTime).toMatchObject({ id: first.id, blockNumber: 104 });
    const head = (await (await t.post("/snapshots", { tokenId: TOKEN }, auth)).json()) as { blockNumber: number };
    expect(head.blockNumber).toBe(111);
    expect(rowsOf<{ n: number }>(await ctx.db.execute(sql`select count(*)::int as n from holder_snapshots`))[0]!.n).toBe(2);
  });

  it("a job stopped between batches resumes where it was and ends with the same list", async () => {
    const { snapshot } = await requestSnapshot(ctx.db, TOKEN, 107, null);
    const stop = new AbortController();
    let steps = 0;
    const partial = await runSnapshot(ctx.db, snapshot.id, { batch: 23, signal: stop.signal, onProgress: () => (++steps === 3 ? stop.abort() : undefined) });
    expect(partial.state).toBe("running");
    expect(partial.accountsDone).toBe(46);
    const resumed = await runSnapshot(ctx.db, snapshot.id, { batch: 23 });
    expect(resumed).toMatchObject({ state: "done", holders: ranked(107).length, accountsDone: ACCOUNTS.length });
    const csv = await t.get(`/snapshots/${snapshot.id}/holders.csv`, auth);
    expect((await csv.text()).split("\n")).toEqual(["rank,address,balance", ...ranked(107), ""]);
    expect((await getSnapshot(ctx.db, snapshot.id))!.resumeAfter).toBeNull();
  });

  it("refuses what it cannot answer: before the floor, after the head, an unknown token, bad bodies, no token, unknown and unfinished snapshots", async () => {
    expect(await expectError(await t.post("/snapshots", { tokenId: TOKEN, block: 99 }, auth), 404, "BLOCK_BEFORE_HISTORY")).toContain("starts at block 100");
    expect(await expectError(await t.post("/snapshots", { tokenId: TOKEN, block: 112 }, auth), 404, "BLOCK_NOT_INDEXED")).toContain("111");
    await expectError(await t.post("/snapshots", { tokenId: 424242, block: 105 }, auth), 404, "TOKEN_NOT_FOUND");
    for (const body of [{}, { tokenId: "1984" }, { tokenId: TOKEN, block: -1 }, { tokenId: TOKEN, block: 1.5 }, { tokenId: TOKEN, block: 105, atTime: time(105) }, { tokenId: TOKEN, extra: 1 }, [], "x"]) {
      await expectError(await t.post("/snapshots", body, auth), 400, "VALIDATION_ERROR");
    }
    await expectError(await t.request("/snapshots", { method: "POST", body: "tokenId=1", headers: { ...auth, "Content-Type": "text/plain" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(await t.post("/snapshots", { tokenId: TOKEN }), 401, "UNAUTHORIZED");
    await expectError(await t.get("/snapshots/1"), 401, "UNAUTHORIZED");
    await expectError(await t.get("/snapshots/987654", auth), 404, "SNAPSHOT_NOT_FOUND");
    await expectError(await t.get("/snapshots/0", auth), 400, "VALIDATION_ERROR");
    await expectError(await t.get("/snapshots/abc/holders", auth), 400, "VALIDATION_ERROR");
    const { snapshot } = await requestSnapshot(ctx.db, TOKEN, 101, null); // queued, no job: never runs here
    expect(await expectError(await t.get(`/snapshots/${snapshot.id}/holders`, auth), 409, "SNAPSHOT_NOT_READY")).toContain("queued");
    await expectError(await t.get(`/snapshots/${snapshot.id}/holders.csv`, auth), 409, "SNAPSHOT_NOT_READY");
    for (const q of ["cursor=abc", "cursor=r0", "cursor=r01", "page=1&cursor=r5", "limit=1001", "page=0"]) {
      const { id } = (await (await t.post("/snapshots", { tokenId: TOKEN, block: 100 }, auth)).json()) as { id: number };
      await done(id);
      await expectError(await t.get(`/snapshots/${id}/holders?${q}`, auth), 400, "VALIDATION_ERROR");
    }
  });

  it("bounds the queue (per user and in all) and CSV downloads at once (per user: the next one waits for a place, then 429)", async () => {
    // A runner that holds every job: the queue only fills.
    await runner.close();
    const held: number[] = [];
    const t2 = buildApp(ctx.db, { snapshots: { enqueue: async (id) => void held.push(id), close: async () => {} }, snapshotLimits: { queued: 3, perUser: 2 }, csv: { snapshot: { queueMs: 300 } } });
    const a = await authHeader(t2, "a@example.com");
    const b = await authHeader(t2, "b@example.com");
    expect((await t2.post("/snapshots", { tokenId: TOKEN, block: 101 }, a)).status).toBe(202);
    expect((await t2.post("/snapshots", { tokenId: TOKEN, block: 102 }, a)).status).toBe(202);
    const third = await t2.post("/snapshots", { tokenId: TOKEN, block: 103 }, a);
    expect(await expectError(third, 429, "TOO_MANY_SNAPSHOTS")).toContain("at most 2");
    // …but the same one again is no new work, and is answered.
    expect((await t2.post("/snapshots", { tokenId: TOKEN, block: 102 }, a)).status).toBe(202);
    expect((await t2.post("/snapshots", { tokenId: TOKEN, block: 103 }, b)).status).toBe(202);
    const fourth = await t2.post("/snapshots", { tokenId: TOKEN, block: 104 }, b);
    expect(await expectError(fourth, 429, "TOO_MANY_SNAPSHOTS")).toContain("at most 3");
    expect(fourth.headers.get("retry-after")).toBe("30");
    // Concurrent requests cannot both take the last place.
    const burst = await Promise.all([105, 106, 107, 108].map((n) => t2.post("/snapshots", { tokenId: TOKEN, block: n }, b)));
    expect(burst.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    expect(held).toHaveLength(3);
    // CSV: two at once per user; a third waits for a place, and gets it when one ends.
    const { snapshot } = await requestSnapshot(ctx.db, TOKEN, 110, null);
    await runSnapshot(ctx.db, snapshot.id);
    const path = `/snapshots/${snapshot.id}/holders.csv`;
    const open = [await t2.get(path, a), await t2.get(path, a)];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const waiting = t2.get(path, a);
    await open[0]!.body!.cancel();
    const waited = await waiting;
    expect(waited.status).toBe(200);
    expect((await waited.text()).split("\n")).toEqual(["rank,address,balance", ...ranked(110), ""]);
    // One that finds no place within its wait (300 ms here, 5 s by default) is 429 with Retry-After.
    const other = await t2.get(path, a);
    const late = await t2.get(path, a);
    expect(await expectError(late, 429, "RATE_LIMITED")).toContain("within");
    expect(late.headers.get("retry-after")).toBe("1");
    await open[1]!.text();
    await other.text();
    const after = await t2.get(path, a);
    expect(after.status).toBe(200);
    expect((await after.text()).split("\n")).toEqual(["rank,address,balance", ...ranked(110), ""]);
  });

  it("the current holder list as CSV: the head's list, one transaction, bounded, never a cached JSON answer", async () => {
    const csv = await t.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("x-block-number")).toBe("111");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="holders-${TOKEN}-at-111.csv"`); // named by its block
    const text = await csv.text();
    expect(text.split("\n")).toEqual(["rank,address,balance", ...ranked(111), ""]);
    expect([csv.headers.get("x-row-count"), csv.headers.get("content-length")]).toEqual([String(ranked(111).length), String(Buffer.byteLength(text))]);
    // JSON first in Accept, or no Accept: the page, as before (and cached as before).
    for (const accept of ["application/json, text/csv", "*/*"]) {
      const json = await t.get(`/assets/holders/${TOKEN}?limit=3`, { ...auth, Accept: accept });
      expect(json.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await json.json()) as { holders: Array<{ address: string }> }).holders.map((h) => h.address)).toEqual(ranked(111).slice(0, 3).map((l) => l.split(",")[1]));
    }
    const again = await t.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" });
    expect(again.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await again.text()).split("\n")).toHaveLength(ranked(111).length + 2);
    const head = await t.request(`/assets/holders/${TOKEN}`, { method: "HEAD", headers: { ...auth, Accept: "text/csv" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-block-number")).toBe("111"); // the block a GET now reads
    expect(head.headers.get("content-disposition")).toBe(`attachment; filename="holders-${TOKEN}-at-111.csv"`);
    expect(head.headers.get("content-type")).toMatch(/^text\/csv/);
    // Refusals: the page parameters, an unknown token, no token, a third download at once of one user.
    await expectError(await t.get(`/assets/holders/${TOKEN}?limit=5`, { ...auth, Accept: "text/csv" }), 400, "VALIDATION_ERROR");
    await expectError(await t.get("/assets/holders/424242", { ...auth, Accept: "text/csv" }), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get(`/assets/holders/${TOKEN}`, { Accept: "text/csv" }), 401, "UNAUTHORIZED");
    const open = [await t.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" }), await t.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" })];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    // Both read the one file dumped at the head (single flight), sized up front.
    expect(open[0]!.headers.get("content-length")).toBe(String(Buffer.byteLength(["rank,address,balance", ...ranked(111), ""].join("\n"))));
    // A user's third waits for a place (300 ms here), then 429.
    await expectError(await t.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" }), 429, "RATE_LIMITED");
    await open[1]!.body!.cancel();
    await open[0]!.body!.cancel();
    await until("the download's place is free", async () => (await t.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" }).then(async (r) => (await r.text(), r.status))) === 200);
  });

  it("keeps the newest SNAPSHOTS_KEEP finished snapshots: an older one is deleted, rows and all, when a new one finishes", async () => {
    await runner.close();
    runner = await startSnapshotRunner(ctx.db, createLogger("silent"), { batch: 50, keep: 2 });
    const t2 = buildApp(ctx.db, { snapshots: runner, rateLimit: noRequestLimit() });
    const ids: number[] = [];
    for (const n of [100, 101, 102]) {
      ids.push(((await (await t2.post("/snapshots", { tokenId: TOKEN, block: n }, auth)).json()) as { id: number }).id);
      await done(ids[ids.length - 1]!);
    }
    await until("the oldest snapshot deleted", async () => (await t2.get(`/snapshots/${ids[0]}`, auth)).status === 404);
    expect(rowsOf<{ n: number }>(await ctx.db.execute(sql`select count(*)::int as n from snapshot_holders where snapshot_id = ${ids[0]!}`))[0]!.n).toBe(0);
    for (const id of ids.slice(1)) expect(((await (await t2.get(`/snapshots/${id}`, auth)).json()) as { state: string }).state).toBe("done");
    // Asked for again, the deleted one is computed again (a new id), and equals the list it had.
    const again = ((await (await t2.post("/snapshots", { tokenId: TOKEN, block: 100 }, auth)).json()) as { id: number }).id;
    expect(again).not.toBe(ids[0]);
    await done(again);
    expect((await (await t2.get(`/snapshots/${again}/holders.csv`, auth)).text()).split("\n")).toEqual(["rank,address,balance", ...ranked(100), ""]);
  });

  it("review fixes: a foreign asset's 2^40 id, a failed snapshot asked again, history pruned while it ran, a step that fails once, Accept spellings", async () => {
    // A token id past 2^32 (foreign assets' derived ids) is a token like any other.
    const BIG = 2 ** 40 + 7;
    const batch = new Batch();
    batch.token({ id: BIG, name: "Foreign", symbol: "FRN", decimals: 6, supply: "5", owner: null, blockNumber: 111 });
    batch.holder({ tokenId: BIG, account: ACCOUNTS[0]!, balance: "5", blockNumber: 111, free: null, reserved: null, frozen: null, transferable: null, status: null });
    batch.blocks.push({ number: 111, hash: "0x6f", timestamp: time(111) });
    await batch.commit(ctx.db, { blockNumber: 111, blockHash: "0x6f", chainFinalized: 111 });
    const big = await t.post("/snapshots", { tokenId: BIG, block: 111 }, auth);
    expect(big.status, await big.clone().text()).toBe(202);
    expect(await done(((await big.json()) as { id: number }).id)).toMatchObject({ state: "done", holders: 1 });
    // A failed snapshot asked for again is computed again (same id), counted as new work.
    const { snapshot } = await requestSnapshot(ctx.db, TOKEN, 103, null);
    await failSnapshot(ctx.db, snapshot.id, "the computation failed 5 times; ask for it again to retry");
    const shown = (await (await t.get(`/snapshots/${snapshot.id}`, auth)).json()) as { state: string; error: string };
    expect(shown).toMatchObject({ state: "failed", error: "the computation failed 5 times; ask for it again to retry" });
    const retried = await t.post("/snapshots", { tokenId: TOKEN, block: 103 }, auth);
    expect(retried.status).toBe(202);
    expect(((await retried.json()) as { id: number }).id).toBe(snapshot.id);
    expect(await done(snapshot.id)).toMatchObject({ state: "done", holders: ranked(103).length });
    // History pruned past the block while the job ran: refused (failed, saying why), not a list missing accounts.
    const early = (await requestSnapshot(ctx.db, TOKEN, 101, null)).snapshot;
    const stop = new AbortController();
    await runSnapshot(ctx.db, early.id, { batch: 40, signal: stop.signal, onProgress: () => stop.abort() });
    await pruneHistory(ctx.db, 105);
    const refused = await runSnapshot(ctx.db, early.id, { batch: 40 });
    expect(refused.state).toBe("failed");
    expect(refused.error).toMatch(/pruned while this snapshot ran/);
    // A step that fails once (a dropped connection) is retried: the snapshot ends done, and exact.
    const flaky = (await requestSnapshot(ctx.db, TOKEN, 108, null)).snapshot;
    let failures = 0;
    const db = new Proxy(ctx.db, {
      get(target, prop, receiver) {
        if (prop === "transaction" && failures === 0) {
          return async () => {
            failures += 1;
            throw Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    expect(await runSnapshot(db, flaky.id, { batch: 60 })).toMatchObject({ state: "done", holders: ranked(108).length });
    expect(failures).toBe(1);
    // Accept: case, q=0, look-alikes, order against JSON.
    for (const [accept, csv] of [["text/csv", true], ["TEXT/CSV", true], ["text/csv;q=0", false], ["text/csv; q=0.5, application/json", true], ["application/json, text/csv", false], ["text/csvfoo", false], ["application/json;q=0, text/csv", true], ["*/*", false]] as const) {
      expect(acceptsCsv(accept), accept).toBe(csv);
    }
  });

  it("a current-holders CSV below its minimum rate is cut (an error, never a short list passed as whole) and gives its place back", async () => {
    const t2 = buildApp(ctx.db, { csv: { pace: { minBytesPerSecond: 1_000_000, graceMs: 100 }, current: { perUser: 1, queueMs: 200 } } });
    const slow = await t2.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" });
    expect(slow.status).toBe(200);
    await new Promise((r) => setTimeout(r, 400)); // the client reads nothing past the grace: below any rate
    await expect(slow.text()).rejects.toThrow(/minimum rate/);
    const next = await t2.get(`/assets/holders/${TOKEN}`, { ...auth, Accept: "text/csv" });
    expect(next.status).toBe(200);
    expect((await next.text()).split("\n")).toHaveLength(ranked(111).length + 2);
  });
});
