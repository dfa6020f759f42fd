/**
 * `BENCH_PARTS=snapshots npm run bench` (and `store`): holder snapshots — the job, and the CSV
 * through a `tokenpool api` child. A section of bench/suite.ts, in a file of its own.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { CSV_BATCH } from "../api/services/snapshot-csv.js";
import { ensurePartitionsBetween, requestSnapshot, rowsOf, snapshotCsvBatch, type DbHandle } from "../db/index.js";
import { runSnapshot } from "../api/snapshot-runner.js";
import { freePort } from "../test/support/port.js";
import { csvDownloadBench } from "./csv-downloads.js";
import { answers, child, currentRssMb, median, peakRssMb, resetPeakRss, stop, tokenOf } from "./load.js";
import { log, results, rows, SCALE } from "./settings.js";

/**
 * Holder snapshots (issue 26): a token of 600,000 holders × BENCH_SCALE with three history rows
 * each (blocks 100, 200 and 300: a, then 0 for every tenth account and 2a for the others, then
 * 3a), snapshotted at block 250 by the job the API runs — 0.9 × N holders, their sum known — then
 * its CSV read by one client through a `tokenpool api` child (rows/s), and by four at once (the
 * API's peak RSS); a kept row's bytes on disk and a CSV batch's query; then the CSV downloads of
 * bench/csv-downloads.ts. Counts and sums are checked against the formula.
 */
export async function snapshotBench(store: { handle: DbHandle; env: Record<string, string> }): Promise<void> {
  const db = store.handle.db;
  const n = Math.max(1_000, Math.round(600_000 * SCALE));
  const TOKEN = 77;
  const t0 = performance.now();
  await ensurePartitionsBetween(db, 0, 300);
  await db.execute(sql`insert into blocks (number, hash, timestamp) select b, '0x' || lpad(to_hex(b), 64, '0'), 1700000000 + b * 12 from generate_series(1, 300) b on conflict do nothing`);
  await db.execute(sql`insert into tokens (id, name, symbol, decimals, supply, kind, block_number) values (${TOKEN}, 'Airdrop', 'AIR', 6, 0, 'asset', 100) on conflict do nothing`);
  await db.execute(sql`insert into token_history (id, name, symbol, decimals, supply, kind, block_number) values (${TOKEN}, 'Airdrop', 'AIR', 6, 0, 'asset', 100) on conflict do nothing`);
  await db.execute(sql`insert into history_floors (kind, block_number) values ('holders', 100) on conflict (kind) do update set block_number = 100`);
  await db.execute(sql`insert into checkpoints (name, block_number, block_hash, chain_finalized) values ('follower', 300, '0x', 300) on conflict do nothing`);
  await db.execute(sql`
    insert into balance_history (lp, token_id, account, block_number, balance)
    select false, ${TOKEN}, 'snap' || lpad(a::text, 44, '0'), blk,
           case blk when 100 then a when 200 then (case when a % 10 = 0 then 0 else 2 * a end) else 3 * a end
    from generate_series(1, ${n}) a, (values (100), (200), (300)) v(blk)
    on conflict do nothing`);
  await db.execute(sql`analyze balance_history`);
  log(`  ${(n * 3).toLocaleString("en")} history rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const { snapshot } = await requestSnapshot(db, TOKEN, 250, null);
  const started = performance.now();
  const done = await runSnapshot(db, snapshot.id);
  const seconds = (performance.now() - started) / 1000;
  // Holders: every a with a % 10 ≠ 0; their balances 2a.
  const tens = Math.floor(n / 10);
  const wantHolders = n - tens;
  const wantTotal = 2n * ((BigInt(n) * BigInt(n + 1)) / 2n - 10n * ((BigInt(tens) * BigInt(tens + 1)) / 2n));
  const right = done.state === "done" && done.holders === wantHolders && done.total === String(wantTotal);
  rows.push({ what: `holder snapshot at a past block: ${wantHolders.toLocaleString("en")} holders from ${(n * 3).toLocaleString("en")} history rows${right ? "" : " (WRONG)"}`, figure: `${seconds.toFixed(1)} s (${Math.round(n / seconds).toLocaleString("en")} accounts/s)`, target: "≤ 60 s (at 600,000 holders)", met: right && seconds <= 60 * Math.max(1, SCALE) });
  // What a kept row costs on disk (SNAPSHOTS_MAX_ROWS is in rows), and a CSV batch's query.
  const [size] = rowsOf<{ b: string | number }>(await db.execute(sql`select pg_total_relation_size('snapshot_holders') as b`));
  const bytesPerRow = Math.round(Number(size?.b ?? 0) / wantHolders);
  const batchMs = await median(40, () => snapshotCsvBatch(db, snapshot.id, Math.floor(Math.random() * (wantHolders - CSV_BATCH)), CSV_BATCH));
  rows.push({ what: "a kept snapshot row on disk (snapshot_holders with its index); one CSV batch's query (1,500 rows)", figure: `${bytesPerRow} B a row (${((bytesPerRow * 20_000_000) / 2 ** 30).toFixed(1)} GiB at SNAPSHOTS_MAX_ROWS = 20M); ${batchMs} ms a batch` });
  // The current list of the same token: every account at the head (block 300: 3a).
  await db.execute(sql`insert into holders (token_id, account, balance, block_number) select ${TOKEN}, 'snap' || lpad(a::text, 44, '0'), 3 * a, 300 from generate_series(1, ${n}) a on conflict do nothing`);
  await db.execute(sql`insert into holder_counts (token_id, holders) values (${TOKEN}, ${n}) on conflict (token_id) do update set holders = excluded.holders`);
  await db.execute(sql`analyze holders`);
  // PGlite: one process per DATA_DIR — the API child opens it next.
  if (store.env.DATA_DIR) await store.handle.close();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = await child(["bin/tokenpool.mjs", "api"], { ...store.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", JWT_SECRET: randomBytes(32).toString("base64url"), REDIS_URL: "", RATE_LIMIT_MAX: "0", TRUST_PROXY: "1" }, answers(`${base}/health`));
  try {
    // Users of their own (a user runs 2 downloads at once) from addresses of their own (X-Forwarded-For, TRUST_PROXY=1).
    const users: Array<Record<string, string>> = [];
    // One at a time: sign-ups wait for scrypt's two places (32 at once were answered 503).
    for (let i = 0; i < 32; i++) users.push(await tokenOf((q, init) => fetch(`${base}${q}`, init)));
    const download = async (client = 1) => {
      const res = await fetch(`${base}/snapshots/${snapshot.id}/holders.csv`, { headers: { ...users[client]!, "x-forwarded-for": `10.0.0.${client}` } });
      // Newlines counted in the bytes (decoding 40 MB to a string and walking it made the client the bottleneck).
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
      }
      return lines - 1; // the header row
    };
    const t1 = performance.now();
    const one = await download();
    const rate = one / ((performance.now() - t1) / 1000);
    rows.push({ what: `holder snapshot CSV, one client${one === wantHolders ? "" : ` (${one} rows: WRONG)`}`, figure: `${Math.round(rate).toLocaleString("en")} rows/s`, target: "≥ 100,000 rows/s", met: one === wantHolders && rate >= 100_000 });
    // The peak until now (the start, tsx compiling every module, and one download), then the
    // peak over the four downloads alone: what the streams hold.
    const before = peakRssMb(api.pid!);
    const now = currentRssMb(api.pid!);
    const phase = resetPeakRss(api.pid!);
    const four = await Promise.all([1, 2, 3, 4].map(download));
    const rss = peakRssMb(api.pid!);
    const right4 = four.every((x) => x === wantHolders);
    rows.push({
      what: `API peak RSS while 4 clients stream that CSV${phase ? "" : " (since start: VmHWM could not be reset)"}${right4 ? "" : " (WRONG rows)"}`,
      figure: `${rss} MB (${now} MB just before; ${before} MB peak since start)`,
      target: "≤ 250 MB",
      met: rss <= 250 && right4,
    });
    const csv = await csvDownloadBench({ port, pid: api.pid!, snapshotId: snapshot.id, tokenId: TOKEN, holders: n, users });
    results.snapshots = { holders: wantHolders, historyRows: n * 3, seconds, right, csvRowsPerSecond: Math.round(rate), rssMb: rss, rssBeforeMb: now, peakSinceStartMb: before, bytesPerRow, batchMs, ...csv };
  } finally {
    await stop(api);
  }
}

