/**
 * The client's methods as the document names them, against the real app that
 * client/test/client.test.ts starts (one server for both: its setup costs seconds): per-call
 * signal, timeout and headers over the client's, login with register's shape, snapshots.wait()
 * and toArray({ limit }).
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type DbHandle } from "../../db/index.js";
import { holderSnapshots } from "../../db/schema/index.js";
import { ALICE, HEAD_BLOCK, KSM, TEN, TREASURY, USDT } from "../../test/support/fixtures.js";
import { sleep } from "../src/http.js";
import { SnapshotWaitError, TokenPool, TokenPoolError } from "../src/index.js";

const PASSWORD = "correct horse battery";

/** The running app: its address and store, read when the tests run (after the caller's beforeAll). */
export function describeCalls(app: () => { base: string; handle: DbHandle }): void {
  let base: string;
  let handle: DbHandle;
  let token: string;
  const email = `calls-${randomBytes(4).toString("hex")}@example.com`;

  beforeAll(async () => {
    ({ base, handle } = app());
    token = (await new TokenPool({ baseUrl: base }).register({ email, password: PASSWORD })).data.token;
  });

  /** A fetch that records each request and holds it `delayMs` first (aborted by the request's signal, as a slow network is). */
  function recording(delayMs = 0) {
    const sent: Request[] = [];
    const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
      const req = new Request(input, init);
      sent.push(req);
      if (delayMs) await sleep(delayMs, req.signal);
      return fetch(req);
    };
    return { sent, fetch: fetchFn as typeof fetch };
  }

  it("names methods after operationIds by group, the 0.1.0 names answering the same; the three new operations answer", async () => {
    const client = new TokenPool({ baseUrl: base, token });
    expect(await client.assets.getMetadata(USDT)).toEqual(await client.assetMetadata(USDT));
    expect((await client.assets.list({ limit: 2 })).assets).toEqual((await client.assets({ limit: 2 })).assets);
    expect((await client.health.get()).db).toBe((await client.health()).db);
    expect((await client.pool.getPairStats("KSM", "USDt")).tokenA.symbol).toBe("KSM");
    expect(await client.accounts.getBalance(TREASURY, TEN)).toMatchObject({ tokenId: TEN, balance: "400000000000" });
    expect(await client.accounts.getLpBalance(ALICE, 1)).toMatchObject({ balance: "707106781186" });
  });

  it("sends the client's headers and each call's over them", async () => {
    const rec = recording();
    const client = new TokenPool({ baseUrl: base, token, fetch: rec.fetch, headers: { "x-app": "wallet", "x-trace": "client" } });
    await client.oracle.getValue(KSM, { headers: { "x-trace": "call-1" } });
    await client.assets.listHoldersAll(TEN, { limit: 2 }, { headers: new Headers({ "x-trace": "pages" }) }).toArray({ limit: 1 });
    expect(rec.sent.map((r) => [r.headers.get("x-app"), r.headers.get("x-trace")])).toEqual([
      ["wallet", "call-1"],
      ["wallet", "pages"],
    ]);
    expect(rec.sent[1]!.headers.get("authorization")).toBe(`Bearer ${token}`);
  });

  it("a call's signal aborts it with the signal's reason; a timeout is a TokenPoolError with status 0 and its cause; the client's timeout is the default", async () => {
    const slow = recording(2_000);
    const client = new TokenPool({ baseUrl: base, token, fetch: slow.fetch });
    const ac = new AbortController();
    const pending = client.assets.getMetadata(USDT, {}, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    expect(await pending.catch((e: unknown) => e)).toMatchObject({ name: "AbortError" });
    expect(await client.oracle.getValue(KSM, { signal: AbortSignal.abort(new Error("mine")) }).catch((e: unknown) => e)).toMatchObject({ message: "mine" });

    const started = Date.now();
    const late = await client.oracle.getValue(KSM, { timeout: 50 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(late).toBeInstanceOf(TokenPoolError);
    expect(late).toMatchObject({ status: 0, code: "SERVICE_UNAVAILABLE", cause: { name: "TimeoutError" } });

    const impatient = new TokenPool({ baseUrl: base, token, fetch: recording(150).fetch, timeout: 50 });
    expect(await impatient.pool.getStats().catch((e: unknown) => e)).toMatchObject({ status: 0, cause: { name: "TimeoutError" } });
    // A call's own timeout replaces the client's (0: none).
    expect((await impatient.pool.getStats({ timeout: 0 })).totalPools).toBeGreaterThan(0);
  });

  it("login takes register's { email, password }, as auth.login does; the two-argument form still works", async () => {
    const client = new TokenPool({ baseUrl: base });
    const a = await client.auth.login({ email, password: PASSWORD });
    expect(client.token).toBe(a.data.token);
    const old = new TokenPool({ baseUrl: base });
    expect((await old.login(email, PASSWORD)).data.expiresIn).toBe(86_400);
    expect(old.token).toBeDefined();
  });

  it("toArray({ limit }) stops at the limit and asks for no further page; without one it reads to the end", async () => {
    const rec = recording();
    const client = new TokenPool({ baseUrl: base, token, fetch: rec.fetch });
    const all = await client.assets.listHoldersAll(TEN, { limit: 2 }).toArray();
    expect(all).toEqual((await client.assets.listHolders(TEN, { limit: 1000 })).holders);
    rec.sent.length = 0;
    const three = await client.assets.listHoldersAll(TEN, { limit: 2 }).toArray({ limit: 3 });
    expect(three).toEqual(all.slice(0, 3));
    expect(rec.sent).toHaveLength(2);
    expect(await client.assets.listHoldersAll(TEN).toArray({ limit: 0 })).toEqual([]);
    await expect(client.assets.listHoldersAll(TEN).toArray({ limit: -1 })).rejects.toThrow(RangeError);
  });

  describe("snapshots.wait", () => {
    /** A snapshot row in a given state, as the job leaves it (the app serves it as any other). */
    async function row(state: "running" | "failed", block: number, error: string | null = null): Promise<number> {
      const [made] = await handle.db.insert(holderSnapshots).values({ tokenId: USDT, blockNumber: block, state, error }).returning();
      return made!.id;
    }

    it("resolves when the job is done: a real snapshot, then its CSV", async () => {
      const client = new TokenPool({ baseUrl: base, token });
      const job = await client.snapshots.create({ tokenId: TEN, block: HEAD_BLOCK });
      const done = await client.snapshots.wait(job.id, { interval: 20, timeout: 10_000 });
      expect(done).toMatchObject({ id: job.id, state: "done", holders: 5 });
      expect((await client.snapshots.getHoldersCsv(job.id)).trim().split("\n")).toHaveLength(6);
    });

    it("polls a running job until it is done", async () => {
      const id = await row("running", HEAD_BLOCK - 1);
      const client = new TokenPool({ baseUrl: base, token });
      const waiting = client.snapshots.wait(id, { interval: 20, timeout: 5_000 });
      await sleep(60);
      await handle.db.update(holderSnapshots).set({ state: "done", holders: 0, total: "0", finishedAt: new Date() }).where(eq(holderSnapshots.id, id));
      expect(await waiting).toMatchObject({ id, state: "done" });
    });

    it("rejects with SnapshotWaitError when the job failed, and when it is not done in time", async () => {
      const client = new TokenPool({ baseUrl: base, token });
      const failed = await client.snapshots.wait(await row("failed", HEAD_BLOCK - 2, "the computation failed 5 times")).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(SnapshotWaitError);
      expect(failed).toMatchObject({ reason: "failed", snapshot: { state: "failed", error: "the computation failed 5 times" } });

      const stuck = await row("running", HEAD_BLOCK - 3);
      const late = await client.snapshots.wait(stuck, { interval: 20, timeout: 150 }).catch((e: unknown) => e);
      expect(late).toMatchObject({ name: "SnapshotWaitError", reason: "timeout", snapshot: { id: stuck, state: "running" } });
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      expect(await client.snapshots.wait(stuck, { interval: 20, signal: ac.signal }).catch((e: unknown) => e)).toMatchObject({ name: "AbortError" });
    });
  });
}
