/**
 * Holder snapshots under issue 38's attack (finding 4: 7 free accounts from one address filled
 * the queue of 20, and each job's rows grew the database without bound), each a regression:
 * unfinished jobs bounded per client key; rows per user and per client key over 24 hours,
 * charged from the estimate when asked and settled to what the snapshot holds; one shared
 * snapshot per token and block that costs its second asker nothing; the disk cap in rows (the
 * oldest finished go first, a job that cannot fit fails, a request that cannot fit is refused);
 * expiry by age. On the store of test/support/snapshot-store.ts (≈ 240 holders a block).
 */
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CHAIN_TASK, getSnapshot, requestSnapshot, rowsOf, setTask, snapshotEstimate, type Database } from "../../db/index.js";
import { createLogger } from "../../shared/logger.js";
import { runSnapshot, startSnapshotRunner, type SnapshotRunner } from "../../api/snapshot-runner.js";
import { authHeader, buildApp, expectError, noRequestLimit } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { ranked, TOKEN, truth, writeSnapshotStore } from "../support/snapshot-store.js";
import { until } from "../support/wait.js";

const count = async (db: Database, query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string | number }>(await db.execute(query))[0]!.n);
const keptRows = (db: Database) => count(db, sql`select coalesce(sum(holders), 0) as n from holder_snapshots where state = 'done'`);
const listRows = (db: Database) => count(db, sql`select count(*) as n from snapshot_holders`);

describeDb("holder snapshot budgets", (ctx) => {
  let runner: SnapshotRunner | undefined;
  /** A runner that holds every job: the queue only fills. */
  const held: number[] = [];
  const holding: SnapshotRunner = { enqueue: async (id) => void held.push(id), close: async () => {} };

  beforeEach(async () => {
    truth.clear();
    held.length = 0;
    await setTask(ctx.db, CHAIN_TASK, { ss58: 2, genesisHash: "0x" + "00".repeat(32), specName: "statemine" });
    await writeSnapshotStore(ctx.db);
  });
  afterEach(async () => {
    await runner?.close();
    runner = undefined;
  });

  it("7 free accounts from one address cannot fill the queue of 20: 5 per address, and another address still gets its place", async () => {
    const t = buildApp(ctx.db, { snapshots: holding, rateLimit: noRequestLimit() });
    const statuses: number[] = [];
    for (let u = 0; u < 7; u++) {
      const auth = await authHeader(t, `free${u}@example.com`);
      for (let k = 0; k < 3; k++) {
        // 21 requests over the 11 blocks 100-110: some ask again for one already queued.
        const res = await t.request("/snapshots", { method: "POST", body: JSON.stringify({ tokenId: TOKEN, block: 100 + ((u * 3 + k) % 11) }), headers: { ...auth, "Content-Type": "application/json" }, ip: "198.51.100.7" });
        statuses.push(res.status);
        if (res.status === 429) expect(await expectError(res, 429, "TOO_MANY_SNAPSHOTS")).toContain("at most 5 per address");
      }
    }
    expect(held).toHaveLength(5);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(5); // the queued ones, asked for again, are answered
    const other = await authHeader(t, "bystander@example.com");
    const res = await t.request("/snapshots", { method: "POST", body: JSON.stringify({ tokenId: TOKEN, block: 111 }), headers: { ...other, "Content-Type": "application/json" }, ip: "203.0.113.9" });
    expect(res.status).toBe(202);
    expect(held).toHaveLength(6);
  });

  it("four /64s of one IPv6 /48 cannot fill the queue of 20: 8 per /48 (5 per /64), and another /48 still gets its place", async () => {
    const t = buildApp(ctx.db, { snapshots: holding, rateLimit: noRequestLimit() });
    let block = 100;
    const users = new Map<string, Record<string, string>>();
    const ask = async (email: string, ip: string) => {
      const auth = users.get(email) ?? (await authHeader(t, email));
      users.set(email, auth);
      return t.request("/snapshots", { method: "POST", body: JSON.stringify({ tokenId: TOKEN, block: block++ }), headers: { ...auth, "Content-Type": "application/json" }, ip });
    };
    // The first /64: 5 (two users), its own bound.
    for (const email of ["a1@example.com", "a1@example.com", "a1@example.com", "a2@example.com", "a2@example.com"]) expect((await ask(email, "2001:db8:1:a::1")).status).toBe(202);
    // A second /64 of the same /48: 3 more, then the /48 is full.
    for (const email of ["b1@example.com", "b1@example.com", "b1@example.com"]) expect((await ask(email, "2001:db8:1:b::7")).status).toBe(202);
    expect(await expectError(await ask("b2@example.com", "2001:db8:1:b::7"), 429, "TOO_MANY_SNAPSHOTS")).toContain("8 holder snapshots asked for from your network (2001:db8:1::/48) are queued or running (at most 8 per IPv6 /48)");
    expect(await expectError(await ask("c1@example.com", "2001:db8:1:ffff::1"), 429, "TOO_MANY_SNAPSHOTS")).toContain("at most 8 per IPv6 /48");
    expect(held).toHaveLength(8);
    // Another /48 is served.
    expect((await ask("d1@example.com", "2001:db8:2:a::1")).status).toBe(202);
    expect(held).toHaveLength(9);
  });

  it("a user's rows per day: charged from the estimate when asked, refused past it with the numbers and Retry-After, settled to what the snapshot holds", async () => {
    // The estimate is the token's holder count as of the block; without stats, its count now.
    await ctx.db.execute(sql`delete from token_stats where token_id = ${TOKEN}`);
    const estimate = await snapshotEstimate(ctx.db, TOKEN, 100);
    expect(estimate).toBe(ranked(111).length);
    const h100 = ranked(100).length;
    expect(h100).toBeLessThan(estimate);
    const budget = h100 + estimate; // once 100 is settled, one more fits; while it is charged at the estimate, not

    const t = buildApp(ctx.db, { snapshots: holding, rateLimit: noRequestLimit(), snapshotLimits: { rowsPerUserDay: budget } });
    const a = await authHeader(t, "a@example.com");
    const { id } = (await (await t.post("/snapshots", { tokenId: TOKEN, block: 100 }, a)).json()) as { id: number };
    const refused = await t.post("/snapshots", { tokenId: TOKEN, block: 101 }, a);
    const message = await expectError(refused, 429, "TOO_MANY_SNAPSHOTS");
    expect(message).toContain(`would hold ≈ ${estimate} rows`);
    expect(message).toContain(`You have asked for ${estimate} of ${budget} snapshot rows in the last 24 hours`);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(86_000);
    expect(wait).toBeLessThanOrEqual(86_400);
    // Another user (from another address) has a budget of their own.
    const b = await authHeader(t, "b@example.com");
    expect((await t.request("/snapshots", { method: "POST", body: JSON.stringify({ tokenId: TOKEN, block: 101 }), headers: { ...b, "Content-Type": "application/json" }, ip: "203.0.113.99" })).status).toBe(202);
    // Finished, the charge is what the snapshot holds: now the next one fits.
    await runSnapshot(ctx.db, id, { batch: 50 });
    expect((await getSnapshot(ctx.db, id))!.holders).toBe(h100);
    expect(await count(ctx.db, sql`select rows as n from snapshot_charges where snapshot_id = ${id}`)).toBe(h100);
    const again = await t.post("/snapshots", { tokenId: TOKEN, block: 102 }, a);
    expect(again.status, await again.clone().text()).toBe(202);
  });

  it("rows per client key: users from one address share theirs; a shared snapshot costs its second asker nothing", async () => {
    const h = (n: number) => ranked(n).length;
    const t = buildApp(ctx.db, { snapshots: holding, rateLimit: noRequestLimit(), snapshotLimits: { rowsPerClientDay: h(100) + h(101) } });
    const [a, b] = [await authHeader(t, "a@example.com"), await authHeader(t, "b@example.com")];
    const ask = (auth: Record<string, string>, block: number) => t.request("/snapshots", { method: "POST", body: JSON.stringify({ tokenId: TOKEN, block }), headers: { ...auth, "Content-Type": "application/json" }, ip: "198.51.100.20" });
    expect((await ask(a, 100)).status).toBe(202);
    // b asks for the same one: shared, not charged.
    expect((await ask(b, 100)).status).toBe(202);
    expect(await count(ctx.db, sql`select count(*) as n from snapshot_charges`)).toBe(1);
    expect((await ask(b, 101)).status).toBe(202);
    const third = await ask(b, 102);
    expect(await expectError(third, 429, "TOO_MANY_SNAPSHOTS")).toContain(`Users from your address (198.51.100.20) have asked for ${h(100) + h(101)} of ${h(100) + h(101)} snapshot rows`);
    // Larger than a day's budget: refused for good (422), not "retry tomorrow".
    const t2 = buildApp(ctx.db, { snapshots: holding, rateLimit: noRequestLimit(), snapshotLimits: { rowsPerUserDay: 10 } });
    const c = await authHeader(t2, "c@example.com");
    expect(await expectError(await t2.post("/snapshots", { tokenId: TOKEN, block: 105 }, c), 422, "SNAPSHOT_TOO_LARGE")).toContain("tokenpool snapshot");
  });

  it("the disk cap holds: the kept snapshots' rows never pass it, the oldest go first, and what cannot fit is refused or fails", async () => {
    const h = (n: number) => ranked(n).length;
    // A finished list and the next being ranked (RANKING_COPIES = 3 times its rows: walk, ranking, list) fit; two lists and a ranking do not.
    const maxRows = Math.max(h(100) + 3 * h(101), h(101) + 3 * h(102), h(102) + 3 * h(103));
    runner = await startSnapshotRunner(ctx.db, createLogger("silent"), { batch: 37, maxRows });
    const t = buildApp(ctx.db, { snapshots: runner, rateLimit: noRequestLimit(), snapshotLimits: { maxRows } });
    const auth = await authHeader(t);
    const ids: number[] = [];
    for (const n of [100, 101, 102, 103]) {
      const res = await t.post("/snapshots", { tokenId: TOKEN, block: n }, auth);
      expect(res.status, await res.clone().text()).toBe(202);
      const { id } = (await res.json()) as { id: number };
      ids.push(id);
      await until(`snapshot at ${n}`, async () => (await getSnapshot(ctx.db, id))?.state === "done", 30_000);
      expect(await keptRows(ctx.db)).toBeLessThanOrEqual(maxRows);
      expect(await listRows(ctx.db)).toBe(await keptRows(ctx.db));
    }
    // Two fit at a time, the working copies of the next making room: the oldest went first.
    const kept = rowsOf<{ id: string | number }>(await ctx.db.execute(sql`select id from holder_snapshots where state = 'done' order by id`)).map((r) => Number(r.id));
    expect(kept).toEqual(ids.slice(2));
    // A request whose estimate alone passes the cap is refused, saying so.
    const small = buildApp(ctx.db, { snapshots: runner, rateLimit: noRequestLimit(), snapshotLimits: { maxRows: 50 } });
    expect(await expectError(await small.post("/snapshots", { tokenId: TOKEN, block: 104 }, auth), 422, "SNAPSHOT_TOO_LARGE")).toContain("SNAPSHOTS_MAX_ROWS = 50");
    // So is one that fits the cap but not three times over: it could never be ranked within it.
    const twice = buildApp(ctx.db, { snapshots: runner, rateLimit: noRequestLimit(), snapshotLimits: { maxRows: 2 * h(104) } });
    expect(await expectError(await twice.post("/snapshots", { tokenId: TOKEN, block: 104 }, auth), 422, "SNAPSHOT_TOO_LARGE")).toContain("a snapshot being ranked holds 3 copies of its rows");
    // A job that writes more than it was estimated at (no stats: estimated at 0) fails at the cap, never passing it.
    await ctx.db.execute(sql`delete from token_stats where token_id = ${TOKEN}`);
    await ctx.db.execute(sql`delete from holder_counts where token_id = ${TOKEN}`);
    const { snapshot } = await requestSnapshot(ctx.db, TOKEN, 105, null);
    // After each step: the finished lists' rows and the rows this job wrote, together.
    const onDisk = async () => (await keptRows(ctx.db)) + (await count(ctx.db, sql`select count(*) as n from snapshot_balances`));
    const sums: Array<Promise<number>> = [];
    const failed = await runSnapshot(ctx.db, snapshot.id, { batch: 37, maxRows: 100, onProgress: () => void sums.push(onDisk()) }).catch((err: Error) => err);
    expect(Math.max(...(await Promise.all(sums)))).toBeLessThanOrEqual(100);
    expect(String(failed)).toMatch(/passed \d+ rows, more than the disk cap/);
    const after = (await getSnapshot(ctx.db, snapshot.id))!;
    expect([after.state, after.reservedRows]).toEqual(["failed", 0]);
    expect(after.error).toContain("SNAPSHOTS_MAX_ROWS = 100");
    expect(await count(ctx.db, sql`select count(*) as n from snapshot_balances where snapshot_id = ${snapshot.id}`)).toBe(0);
    expect(await listRows(ctx.db)).toBe(0); // every finished one was deleted to make room, in vain
  });

  it("finished snapshots expire by age (SNAPSHOTS_MAX_AGE_HOURS) as well as by count", async () => {
    const ids: number[] = [];
    for (const n of [100, 101]) {
      const { snapshot } = await requestSnapshot(ctx.db, TOKEN, n, null);
      await runSnapshot(ctx.db, snapshot.id, { batch: 100 });
      ids.push(snapshot.id);
    }
    await ctx.db.execute(sql`update holder_snapshots set finished_at = now() - interval '169 hours' where id = ${ids[0]!}`);
    runner = await startSnapshotRunner(ctx.db, createLogger("silent"), { maxAgeHours: 168 });
    expect(await getSnapshot(ctx.db, ids[0]!)).toBeUndefined();
    expect(await count(ctx.db, sql`select count(*) as n from snapshot_holders where snapshot_id = ${ids[0]!}`)).toBe(0);
    expect((await getSnapshot(ctx.db, ids[1]!))?.state).toBe("done");
  });
});
