/**
 * CSV downloads under issue 38's attack (finding 5), each a regression:
 *
 * - two addresses held both current-list CSV places and four held all 8 snapshot-CSV places,
 *   locking everyone else out with 429: now places are per user and per client key, with a
 *   total sized for memory, and a bystander from another address is served at once;
 * - 8 of 8 honest readers at ≈ 32 KB/s were cut by the 30 s no-progress write deadline: a raw
 *   socket reading at 24 KB/s once the socket buffers are full now finishes a multi-MB CSV, of
 *   either kind, under a write deadline lowered to 2 s (what the sender sees moves only when a
 *   third of its send buffer has drained: 1.3 MB, 55 s at that speed);
 * - a stalled reader and a trickling one are still cut (by the minimum rate, made large here so
 *   that the kernel's ≈ 4 MB of buffers are used up in seconds rather than minutes);
 * - the current list is dumped once for everyone asking at once, its files never pass their disk
 *   cap, and are deleted once nobody reads them;
 * - the queue in front of the places lets clients in round-robin, not first come first served.
 *
 * And issue 39's finding 7 (a cut CSV looked like a finished one): both kinds say their data rows
 * (X-Row-Count) and their exact size (Content-Length) before the first byte, and a download cut
 * mid-stream is an error to `curl --fail` and to fetch, short of both.
 */
import { randomBytes } from "node:crypto";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer, type ApiServerOptions } from "../../api/server.js";
import { DownloadSlots } from "../../api/services/download-slots.js";
import { CSV_LIMITS } from "../../api/app.js";
import { HolderCsvFiles } from "../../api/services/holder-csv-files.js";
import { csvBytesOf, rowsOf, type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { authHeader, buildApp, noRequestLimit } from "../support/app.js";
import { HEAD_BLOCK, KSM, seedMarket, USDT } from "../support/fixtures.js";
import { captureLog } from "../support/log.js";
import { until } from "../support/wait.js";
import { dechunk } from "../support/chunked.js";
import { memoryStore } from "../support/db.js";

/** Holders of USDt added at the head: a CSV of ≈ 5 MB, more than loopback's socket buffers (≈ 4 MB) hold. */
const N = 66_000;
const account = (i: number) => `csv${String(i).padStart(44, "0")}`;

interface Read {
  bytes: number;
  text: string;
  /** The whole answer arrived (chunked: its last chunk; else Content-Length bytes). */
  complete: boolean;
  /** Its Content-Length, if it had one. */
  length?: number;
}

/**
 * A raw-socket GET whose reader follows `plan`: a list of [ms, bytes per second] phases (0 =
 * paused; Infinity = as fast as it can), the last one lasting until the server closes; from
 * `control.fast` on, as fast as it can (what the kernel buffered after a cut drains at once).
 */
function readAt(port: number, target: string, headers: Record<string, string>, plan: Array<[number, number]>, control: { fast: boolean; got?: number } = { fast: false }): Promise<Read & { ms: number }> {
  return new Promise((resolve) => {
    const lines = [`GET ${target} HTTP/1.1`, "Host: x", "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    const chunks: Buffer[] = [];
    let bytes = 0;
    const started = performance.now();
    let phase = 0;
    let phaseStart = started;
    let phaseBytes = 0;
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`${lines.join("\r\n")}\r\n\r\n`));
    const step = () => {
      while (phase < plan.length - 1 && performance.now() - phaseStart >= plan[phase]![0]) {
        phase += 1;
        phaseStart = performance.now();
        phaseBytes = 0;
      }
      const rate = control.fast ? Infinity : plan[phase]![1];
      if (rate === 0) {
        socket.pause();
        setTimeout(() => (socket.resume(), step()), 50);
        return;
      }
      if (rate === Infinity) return;
      const ahead = phaseBytes - (rate * (performance.now() - phaseStart)) / 1000;
      if (ahead > 0) {
        socket.pause();
        setTimeout(() => (socket.resume(), step()), Math.min(250, (ahead / rate) * 1000));
      }
    };
    socket.on("data", (d: Buffer) => {
      chunks.push(d);
      bytes += d.length;
      control.got = bytes;
      phaseBytes += d.length;
      step();
    });
    socket.on("error", () => {});
    step();
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("latin1");
      const end = raw.indexOf("\r\n\r\n");
      const head = raw.slice(0, end).toLowerCase();
      let body = raw.slice(end + 4);
      let complete: boolean;
      const length = /content-length: (\d+)/.exec(head);
      if (length) complete = body.length === Number(length[1]);
      else {
        complete = body.endsWith("\r\n0\r\n\r\n");
        body = dechunk(body);
      }
      resolve({ bytes, text: body, complete, ms: performance.now() - started, ...(length ? { length: Number(length[1]) } : {}) });
    });
  });
}

/** curl as docs/api.md has it (--fail, -sS, the headers dumped): its exit code, the answer's headers (lower case) and the bytes it wrote. */
async function curl(port: number, target: string, headers: Record<string, string>): Promise<{ code: number; headers: Record<string, string>; body: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), "csv-curl-"));
  try {
    const args = ["--fail", "-sS", "-D", path.join(dir, "head"), "-o", path.join(dir, "body"), ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), `http://127.0.0.1:${port}${target}`];
    const code = await new Promise<number>((resolve) => execFile("curl", args, (err) => resolve(err ? Number(err.code ?? -1) : 0)));
    const head = await readFile(path.join(dir, "head"), "latin1").catch(() => "");
    const fields = Object.fromEntries(head.split("\r\n").slice(1).filter((l) => l.includes(":")).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    return { code, headers: fields, body: await readFile(path.join(dir, "body")).catch(() => Buffer.alloc(0)) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("CSV downloads: places per user and client key, a stated minimum rate", () => {
  let handle: DbHandle;
  let server: ApiServer | undefined;
  let snapshotId: number;
  let holders: number;
  const logs = captureLog();

  async function start(options: ApiServerOptions = {}) {
    await server?.close();
    server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", JWT_SECRET: randomBytes(32).toString("base64url"), RATE_LIMIT_MAX: "100000" }), logs.logger, { shared: handle, shutdownGraceMs: 200, ...options });
    const reg = await fetch(`http://127.0.0.1:${server.port}/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `csv${Date.now()}${Math.random()}@example.com`, password: "correct horse battery" }) });
    return { authorization: `Bearer ${((await reg.json()) as { data: { token: string } }).data.token}` };
  }

  beforeAll(async () => {
    handle = await memoryStore();
    await seedMarket(handle.db);
    await handle.db.execute(sql`insert into holders (token_id, account, balance, block_number)
      select ${USDT}, 'csv' || lpad(i::text, 44, '0'), 10::numeric ^ 20 + i, ${HEAD_BLOCK} from generate_series(1, ${N}) i on conflict do nothing`);
    // A finished snapshot of them, written directly (the job is not under test here).
    const [made] = rowsOf<{ id: number }>(
      await handle.db.execute(sql`insert into holder_snapshots (token_id, block_number, state, holders, total, finished_at)
        values (${USDT}, ${HEAD_BLOCK}, 'done', ${N}, 0, now()) returning id`),
    );
    snapshotId = Number(made!.id);
    holders = N;
    await handle.db.execute(sql`insert into snapshot_holders (snapshot_id, rank, account, balance)
      select ${snapshotId}, i, 'csv' || lpad((${N} + 1 - i)::text, 44, '0'), 10::numeric ^ 20 + ${N} + 1 - i from generate_series(1, ${N}) i`);
    // Its size, as the job sets it when it finishes one (snapshots.test.ts checks the job's against the bytes served).
    await handle.db.execute(sql`update holder_snapshots set csv_bytes = ${csvBytesOf(sql`(select rank, account, balance from snapshot_holders where snapshot_id = ${snapshotId})`)} where id = ${snapshotId}`);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  it("readers at 24 KB/s once the socket buffers are full finish a multi-MB CSV of either kind, under a 2 s write deadline", async () => {
    const auth = await start({ connections: { writeTimeoutMs: 2_000 } });
    // Paused 1 s (the server fills ≈ 4 MB of socket buffers), 24 KB/s for 12 s, then the rest at full speed.
    const plan: Array<[number, number]> = [[1_000, 0], [12_000, 24 * 1024], [0, Infinity]];
    const [snap, current] = await Promise.all([
      readAt(server!.port, `/snapshots/${snapshotId}/holders.csv`, auth, plan),
      readAt(server!.port, `/assets/holders/${USDT}`, { ...auth, Accept: "text/csv" }, plan),
    ]);
    expect(server!.connections.write_timeout).toBe(0);
    for (const r of [snap, current]) {
      expect(r.complete, `${r.bytes} bytes`).toBe(true);
      expect(r.bytes).toBeGreaterThan(4_500_000);
      expect(r.ms).toBeGreaterThan(13_000); // it did read slowly
    }
    expect(snap.text.split("\n")).toHaveLength(holders + 2);
    const [now] = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from holders where token_id = ${USDT} and balance > 0`));
    expect(current.text.split("\n")).toHaveLength(now!.n + 2);
    expect(current.text.split("\n").filter((l) => l.endsWith(`,${account(N)},${10n ** 20n + BigInt(N)}`))).toHaveLength(1);
  }, 40_000);

  it("a stalled reader and a trickling one (1 KB/s) are cut, and their places are free again", async () => {
    // The minimum rate made large: the ≈ 4 MB the kernel buffers are used up in seconds.
    const auth = await start({ csv: { pace: { minBytesPerSecond: 1024 * 1024, graceMs: 500 }, snapshot: { perUser: 2, queueMs: 500 } } });
    logs.lines.length = 0;
    const target = `/snapshots/${snapshotId}/holders.csv`;
    const started = performance.now();
    const control = { fast: false };
    const reads = Promise.all([readAt(server!.port, target, auth, [[0, 0]], control), readAt(server!.port, target, auth, [[0, 1024]], control)]);
    const cuts = () => logs.records().filter((r) => r.msg === "CSV download cut");
    // Cut once the bytes the kernel took (≈ 4 MB) no longer cover 1 MiB/s since the grace: ≈ 4.5 s.
    await until("both downloads cut", () => cuts().length === 2, 20_000);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(cuts().map((r) => r.how)).toEqual(["too_slow", "too_slow"]);
    // What the kernel had taken still arrives, and then the answer ends short: a failed download.
    control.fast = true;
    for (const r of await reads) expect(r.complete).toBe(false);
    // Both places (perUser: 2) were given back: a prompt reader gets the whole list.
    const res = await readAt(server!.port, target, auth, [[0, Infinity]]);
    expect(res.complete).toBe(true);
    expect(res.text.split("\n")).toHaveLength(holders + 2);
  }, 40_000);

  it("curl --fail: a whole CSV of either kind exits 0 with X-Row-Count rows and Content-Length bytes; one cut mid-stream exits non-zero, short of both, and fetch's read of it rejects", async () => {
    const auth = await start();
    for (const [target, headers] of [[`/snapshots/${snapshotId}/holders.csv`, auth], [`/assets/holders/${USDT}`, { ...auth, Accept: "text/csv" }]] as const) {
      const whole = await curl(server!.port, target, headers);
      expect(whole.code, target).toBe(0);
      const lines = whole.body.toString("latin1").split("\n");
      expect(lines.at(-1)).toBe("");
      expect([whole.headers["x-row-count"], whole.headers["content-length"]]).toEqual([String(lines.length - 2), String(whole.body.length)]);
      expect(lines.length - 2).toBeGreaterThanOrEqual(N);
    }
    // A snapshot whose rows go while it is downloaded (deleted by the disk cap or by age): its
    // headers promise N rows, the database gives 2,000, and the stream fails at the second batch.
    const [cut] = rowsOf<{ id: number }>(
      await handle.db.execute(sql`insert into holder_snapshots (token_id, block_number, state, holders, total, finished_at, csv_bytes)
        select token_id, block_number - 1, 'done', holders, total, now(), csv_bytes from holder_snapshots where id = ${snapshotId} returning id`),
    );
    await handle.db.execute(sql`insert into snapshot_holders (snapshot_id, rank, account, balance) select ${cut!.id}, rank, account, balance from snapshot_holders where snapshot_id = ${snapshotId} and rank <= 2000`);
    logs.lines.length = 0;
    const short = await curl(server!.port, `/snapshots/${cut!.id}/holders.csv`, auth);
    expect(short.code).toBe(18); // CURLE_PARTIAL_FILE: "transfer closed with … bytes remaining to read"
    expect(short.headers["x-row-count"]).toBe(String(N));
    expect(short.body.length).toBeGreaterThan(0);
    expect(short.body.length).toBeLessThan(Number(short.headers["content-length"]));
    expect(short.body.toString("latin1").split("\n").length - 2).toBeLessThan(N);
    const res = await fetch(`http://127.0.0.1:${server!.port}/snapshots/${cut!.id}/holders.csv`, { headers: auth });
    expect([res.status, res.headers.get("x-row-count")]).toEqual([200, String(N)]);
    await expect(res.text()).rejects.toThrow();
    expect(logs.records().filter((r) => r.msg === "CSV download cut").map((r) => r.how)).toEqual(["failed", "failed"]);
    await handle.db.execute(sql`delete from snapshot_holders where snapshot_id = ${cut!.id}`);
    await handle.db.execute(sql`delete from holder_snapshots where id = ${cut!.id}`);
  }, 30_000);

  it("the API shutting down mid-download cuts it after its grace: short of Content-Length, never a clean end", async () => {
    const auth = await start({ shutdownGraceMs: 300 });
    const control: { fast: boolean; got?: number } = { fast: false };
    // A reader at 64 KB/s: 5 MB cannot be read within the grace.
    const reading = readAt(server!.port, `/snapshots/${snapshotId}/holders.csv`, auth, [[0, 64 * 1024]], control);
    await until("the download's first bytes", () => (control.got ?? 0) > 0, 5_000);
    const closing = server!.close();
    server = undefined;
    await closing;
    control.fast = true;
    const r = await reading;
    expect(r.complete).toBe(false);
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.text.length).toBeLessThan(r.length!);
  }, 30_000);

  it("a snapshot whose rows do not add up to its announced size is cut at the difference, never ended short of (or past) its Content-Length", async () => {
    const t = buildApp(handle.db, { rateLimit: noRequestLimit() });
    const auth = await authHeader(t);
    const [copy] = rowsOf<{ id: number }>(
      await handle.db.execute(sql`insert into holder_snapshots (token_id, block_number, state, holders, total, finished_at)
        select token_id, block_number - 2, 'done', 2000, total, now() from holder_snapshots where id = ${snapshotId} returning id`),
    );
    await handle.db.execute(sql`insert into snapshot_holders (snapshot_id, rank, account, balance) select ${copy!.id}, rank, account, balance from snapshot_holders where snapshot_id = ${snapshotId} and rank <= 2000`);
    const rows = sql`(select rank, account, balance from snapshot_holders where snapshot_id = ${copy!.id})`;
    for (const [off, why] of [[1, /ended at \d+ of the \d+ bytes announced/], [-1, /passed the \d+ bytes announced/]] as const) {
      await handle.db.execute(sql`update holder_snapshots set csv_bytes = ${csvBytesOf(rows)} + ${off} where id = ${copy!.id}`);
      const res = await t.get(`/snapshots/${copy!.id}/holders.csv`, auth);
      expect(res.status).toBe(200);
      // Under app.request() there is no socket to close: the stream errors instead.
      await expect(res.text()).rejects.toThrow(why);
    }
    await handle.db.execute(sql`update holder_snapshots set csv_bytes = ${csvBytesOf(rows)} where id = ${copy!.id}`);
    const whole = await t.get(`/snapshots/${copy!.id}/holders.csv`, auth);
    const text = await whole.text();
    expect([whole.headers.get("x-row-count"), whole.headers.get("content-length"), String(text.split("\n").length - 2)]).toEqual(["2000", String(Buffer.byteLength(text)), "2000"]);
    await handle.db.execute(sql`delete from snapshot_holders where snapshot_id = ${copy!.id}`);
    await handle.db.execute(sql`delete from holder_snapshots where id = ${copy!.id}`);
  });

  it("two addresses no longer hold every current-list place, nor four every snapshot-list place: a bystander is served at once", async () => {
    const t = buildApp(handle.db, { rateLimit: noRequestLimit(), csv: { current: { queueMs: 300 }, snapshot: { queueMs: 300 } } });
    const held: Response[] = [];
    const attack = async (ips: string[], path: string, accept: Record<string, string>) => {
      for (const ip of ips) {
        // Each address registers free accounts and opens downloads it never reads, as many as it is let.
        for (let u = 0; u < 3; u++) {
          const auth = await authHeader(t, `attacker-${ip}-${u}-${path.length}@example.com`, ip);
          for (let k = 0; k < 2; k++) {
            const res = await t.request(path, { headers: { ...auth, ...accept }, ip });
            if (res.status === 200) held.push(res);
            else expect(res.status).toBe(429); // its fill reached: per client key, not for everyone
          }
        }
      }
    };
    await attack(["198.51.100.1", "198.51.100.2"], `/assets/holders/${USDT}`, { Accept: "text/csv" });
    await attack(["198.51.100.11", "198.51.100.12", "198.51.100.13", "198.51.100.14"], `/snapshots/${snapshotId}/holders.csv`, {});
    expect(held.length).toBe(2 * 4 + 4 * 4); // 4 per client key: 24 downloads held (the attack held 2 and 8)
    const bystander = await authHeader(t, "bystander@example.com", "203.0.113.50");
    for (const [path, accept] of [[`/assets/holders/${USDT}`, { Accept: "text/csv" }], [`/snapshots/${snapshotId}/holders.csv`, {}]] as const) {
      const started = performance.now();
      const res = await t.request(path, { headers: { ...bystander, ...accept }, ip: "203.0.113.50" });
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(250); // served at once, not after waiting for a place
      expect((await res.text()).split("\n").length).toBeGreaterThan(N);
    }
    for (const r of held) await r.body!.cancel();
  }, 60_000);

  it("the current list's files: one dump for everyone asking at once, shared, a disk cap that never passes, and cleaned up", async () => {
    const base = await mkdtemp(path.join(tmpdir(), "csv-files-"));
    const logs2 = captureLog();
    const limits = { maxBytes: 0, dumps: 1, lingerMs: 200, reuseMs: 0 };
    const files = new HolderCsvFiles(handle.db, limits, logs2.logger, base);
    const dumps = () => logs2.records().filter((r) => r.msg === "holders CSV: list dumped").length;
    try {
      // Sized from one list: two fit, a third does not.
      limits.maxBytes = Number.MAX_SAFE_INTEGER;
      const first = await files.open(USDT);
      const size = first.file.bytes;
      first.release();
      limits.maxBytes = 2 * size + 10;
      // Five at once: one dump, one file.
      const held = await Promise.all(Array.from({ length: 5 }, () => files.open(USDT)));
      expect(new Set(held.map((h) => h.file)).size).toBe(1);
      expect(dumps()).toBe(1);
      const newBlock = async (n: number) => void (await handle.db.execute(sql`insert into blocks (number, hash, timestamp) values (${n}, ${"0x" + n.toString(16).padStart(64, "0")}, ${1_795_000_000 + (n - HEAD_BLOCK) * 12})`));
      // A new block: a new list (the old one still read); a third block: no room left beside the
      // two being read, so the newest one on disk answers, at its block.
      await newBlock(HEAD_BLOCK + 1);
      const second = await files.open(USDT);
      expect([second.file.block, dumps()]).toEqual([HEAD_BLOCK + 1, 2]);
      await newBlock(HEAD_BLOCK + 2);
      const third = await files.open(USDT);
      expect(third.file).toBe(second.file);
      expect(files.bytesOnDisk).toBeLessThanOrEqual(limits.maxBytes);
      // …and a token with no list on disk is refused, with Retry-After.
      await expect(files.open(KSM)).rejects.toMatchObject({ code: "RATE_LIMITED", headers: { "Retry-After": "60" } });
      expect(files.bytesOnDisk).toBeLessThanOrEqual(limits.maxBytes);
      // Read by nobody: the older list goes at once (a newer exists), the newest after its linger.
      for (const h of [...held, second, third]) h.release();
      expect(files.count).toBe(1);
      await until("the last file deleted", () => files.count === 0, 5_000);
      await until("the folder emptied", async () => (await readdir(base, { recursive: true })).filter((f) => f.endsWith(".csv")).length === 0, 5_000);
    } finally {
      await handle.db.execute(sql`delete from blocks where number > ${HEAD_BLOCK}`);
      await files.close();
      await rm(base, { recursive: true, force: true });
    }
  });

  it("the queue lets clients in round-robin: one with many waiting does not delay another's one", async () => {
    const slots = new DownloadSlots({ total: 1, perUser: 5, perClient: 5, perPrefix: 5, queue: 10, queuePerClient: 4, queuePerPrefix: 10, queueMs: 5_000 });
    let current = slots.enter("a", "ua");
    await current.ready;
    const order: string[] = [];
    const granted: Array<typeof current> = [];
    // Client a queues four, then client b one.
    for (const [key, name] of [["a", "a0"], ["a", "a1"], ["a", "a2"], ["a", "a3"], ["b", "b0"]] as const) {
      const slot = slots.enter(key, `user-${key}`);
      void slot.ready.then(() => (order.push(name), granted.push(slot)));
    }
    expect(slots.waiting).toBe(5);
    // Past its queue bound a client is refused at once, with Retry-After.
    expect(() => slots.enter("a", "ua")).toThrow(expect.objectContaining({ code: "RATE_LIMITED", headers: { "Retry-After": "5" } }));
    for (let i = 0; i < 5; i++) {
      current.release();
      await new Promise((r) => setImmediate(r)); // the grant's promise callbacks run
      current = granted[i]!;
    }
    current.release();
    // b, let in least recently, goes before a's second; then a's in their order.
    expect(order).toEqual(["b0", "a0", "a1", "a2", "a3"]);
    expect([slots.inUse, slots.waiting]).toEqual([0, 0]);
  });

  it("many /64s of one IPv6 /48 share the /48's places and queue: the rest of the server stays free for other /48s and IPv4 clients", async () => {
    const limits = CSV_LIMITS.downloads;
    expect([limits.perPrefix, limits.queuePerPrefix]).toEqual([16, 8]);
    const slots = new DownloadSlots(limits);
    // 64 /64s of 2001:db8:1::/48, each with a fresh account per download: 4 each would be 256 places.
    const held: ReturnType<typeof slots.enter>[] = [];
    const waiting: ReturnType<typeof slots.enter>[] = [];
    let refused = 0;
    for (let n = 0; n < 64; n++) {
      for (let d = 0; d < 4; d++) {
        try {
          const slot = slots.enter(`2001:db8:1:${n.toString(16)}::/64`, `attacker-${n}-${d}`);
          (slots.inUse > held.length ? held : waiting).push(slot);
        } catch (err) {
          expect(err).toMatchObject({ code: "RATE_LIMITED", message: expect.stringContaining("16 per IPv6 /48") });
          refused += 1;
        }
      }
    }
    expect([slots.inUse, slots.waiting, refused]).toEqual([16, 8, 256 - 24]);
    // Another /48 and an IPv4 address run at once: the /48 took 16 of 256.
    const other = slots.enter("2001:db8:2:1::/64", "bystander-6");
    const v4 = slots.enter("203.0.113.7", "bystander-4");
    expect(slots.inUse).toBe(18);
    for (const s of [...held, ...waiting, other, v4]) s.release();
    await Promise.allSettled(waiting.map((w) => w.ready));
    expect([slots.inUse, slots.waiting]).toEqual([0, 0]);
  });
});
