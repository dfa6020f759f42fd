/**
 * What the transfer store's keys cost (issue 40): the same rows inserted as the indexer inserts
 * them into (a) one table with text account keys (the store before migration 0023), (b) the
 * partitioned table the store has now, and (c) a partitioned table keyed by integer account ids
 * from a dictionary (accounts(id, address unique)) that each insert fills and joins; rows/s and
 * bytes per million rows (table, its indexes, and the dictionary for (c)). Runs alternate (a b c,
 * c b a, …): the machine's pace moves between minutes, and falls on all three alike. (d), the
 * store itself, writes through its own insert: since migration 0028 its kind is a 2-byte code,
 * while (a)–(c) keep the kind as text, so (d) against them is two changes, not one.
 */
import { sql } from "drizzle-orm";
import { accountIds, insertTransfers, partitionsOf, rowsOf, transferAddresses, type Database, type DbHandle, type NewTransfer } from "../db/index.js";
import { pgArray } from "../db/queries/bulk.js";
import { range, spread } from "./load.js";
import { log, results, rows, RUNS } from "./settings.js";

/** The bytes of a table with its indexes, its partitions' included (a partitioned parent holds none itself). */
export async function tableBytes(db: Database, table: string): Promise<number> {
  const [r] = rowsOf<{ b: string | number | null }>(
    await db.execute(sql`select coalesce((select sum(pg_total_relation_size(relid)) from pg_partition_tree(${table}::regclass)), pg_total_relation_size(${table}::regclass)) as b`),
  );
  return Number(r!.b ?? 0);
}

const FLAT = "bench_transfers_text";
const PARTS = "bench_transfers_part";
const IDS = "bench_transfers_ids";

/** The three tables, beside the store's own, the list indexes alike: (a) as transfers was before 0023, (b) as it is. */
async function createVariants(db: Database, first: number): Promise<void> {
  const start = first - (first % 1_000_000);
  // (a) and (b): transfers as it was before migration 0024, the accounts as text.
  const text = (table: string) => `create table ${table} (block_number bigint not null, event_index integer not null, extrinsic_index integer, timestamp bigint not null,
    token_id bigint, lp_token_id bigint, from_account text collate "C", to_account text collate "C", amount numeric(78, 0) not null, kind text not null, event text not null,
    tip numeric(78, 0), value_usd numeric, primary key (block_number, event_index))`;
  await db.execute(sql.raw(text(FLAT)));
  await db.execute(sql.raw(`${text(PARTS)} partition by range (block_number)`));
  await db.execute(sql.raw(`create table ${PARTS}_p${start / 1_000_000} partition of ${PARTS} for values from (${start}) to (${start + 1_000_000})`));
  for (const table of [FLAT, PARTS]) {
    for (const [col, where] of [["from_account", "from_account is not null"], ["to_account", "to_account is not null"], ["token_id", "token_id is not null"], ["lp_token_id", "lp_token_id is not null"]]) {
      await db.execute(sql.raw(`create index on ${table} (${col}, kind, (-block_number), (-event_index)) where ${where}`));
    }
  }
  await db.execute(sql.raw(`create table bench_accounts (id serial primary key, address text collate "C" not null unique)`));
  await db.execute(sql.raw(`create table ${IDS} (block_number bigint not null, event_index integer not null, extrinsic_index integer, timestamp bigint not null,
    token_id bigint, lp_token_id bigint, from_account integer, to_account integer, amount numeric(78, 0) not null, kind text not null, event text not null,
    tip numeric(78, 0), value_usd numeric, primary key (block_number, event_index)) partition by range (block_number)`));
  await db.execute(sql.raw(`create table ${IDS}_p${start / 1_000_000} partition of ${IDS} for values from (${start}) to (${start + 1_000_000})`));
  for (const [col, where] of [["from_account", "from_account is not null"], ["to_account", "to_account is not null"], ["token_id", "token_id is not null"], ["lp_token_id", "lp_token_id is not null"]]) {
    await db.execute(sql.raw(`create index on ${IDS} (${col}, kind, (-block_number), (-event_index)) where ${where}`));
  }
}

interface Row {
  blockNumber: number;
  eventIndex: number;
  tokenId: number;
  from: string | null;
  to: string | null;
  amount: string;
  kind: string;
}

const columns = (r: Row[]) => sql`${pgArray(r.map((x) => x.blockNumber))}::bigint[], ${pgArray(r.map((x) => x.eventIndex))}::integer[], ${pgArray(r.map((x) => x.tokenId))}::bigint[],
  ${pgArray(r.map((x) => x.from))}::text[], ${pgArray(r.map((x) => x.to))}::text[], ${pgArray(r.map((x) => x.amount))}::numeric[], ${pgArray(r.map((x) => x.kind))}::text[]`;

/** Inserts of 2,000 rows as insertTransfers makes them (unnest of array parameters), into a text-keyed table. */
const insertText = (table: string) => (db: Database, r: Row[]) =>
  db.execute(sql`insert into ${sql.raw(table)} (block_number, event_index, extrinsic_index, timestamp, token_id, from_account, to_account, amount, kind, event, value_usd)
    select b, e, e, 1700000000 + b * 6, t, f, o, a, k, 'assets.Transferred', a / 1000000 from unnest(${columns(r)}) as u(b, e, t, f, o, a, k)
    on conflict (block_number, event_index) do nothing`);

/**
 * The same with integer ids: the addresses not yet in the dictionary added, then every address
 * joined to its id (rows this statement added come back from its INSERT: the statement's snapshot
 * does not see them in the table).
 */
const insertIds = (db: Database, r: Row[]) =>
  db.execute(sql`
    with input as (select * from unnest(${columns(r)}) as u(b, e, t, f, o, a, k)),
    addr as (select f as address from input where f is not null union select o from input where o is not null),
    added as (insert into bench_accounts (address) select address from addr order by address on conflict (address) do nothing returning id, address),
    ids as (select id, address from added union all select a.id, a.address from bench_accounts a join addr using (address))
    insert into ${sql.raw(IDS)} (block_number, event_index, extrinsic_index, timestamp, token_id, from_account, to_account, amount, kind, event, value_usd)
    select b, e, e, 1700000000 + b * 6, t, fi.id, oi.id, a, k, 'assets.Transferred', a / 1000000
    from input left join ids fi on fi.address = f left join ids oi on oi.address = o
    on conflict (block_number, event_index) do nothing`);

/** Rows/s and bytes per million rows of (a), (b), (c), at `n` rows a run. */
export async function keyVariants(handle: DbHandle, n = Number(process.env.BENCH_KEY_ROWS ?? 300_000)): Promise<void> {
  const db = handle.db;
  const first = 20_000_000;
  await createVariants(db, first);
  // 200,000 accounts of 48 characters (an SS58 address's length), one busy account in every 50 rows.
  const account = (i: number) => `1${String((i * 7_919) % 200_000).padStart(47, "x")}`;
  // Each writes 10,000 rows: one transaction of 2,000-row statements, as the writer's batches.
  const inTransaction = (insert: (db: Database, r: Row[]) => Promise<unknown>) => (r: Row[]) =>
    db.transaction(async (tx) => {
      for (let j = 0; j < r.length; j += 2_000) await insert(tx as unknown as Database, r.slice(j, j + 2_000));
    });
  // (d) the store's own table and path since 0024: the batch's ids first (accountIds on the pool,
  // most from its cache), then insertTransfers; far above every other bench's blocks.
  const asStored = (r: Row[]): NewTransfer[] =>
    r.map((x) => ({ blockNumber: STORED + x.blockNumber, eventIndex: x.eventIndex, extrinsicIndex: x.eventIndex, timestamp: 1_700_000_000 + x.blockNumber * 6, tokenId: x.tokenId, fromAccount: x.from, toAccount: x.to, amount: x.amount, kind: x.kind as NewTransfer["kind"], event: "assets.Transferred", valueUsd: String(BigInt(x.amount) / 1_000_000n) }));
  const stored = async (r: Row[]) => {
    const rows = asStored(r);
    const ids = await accountIds(db, transferAddresses(rows));
    await db.transaction(async (tx) => {
      for (let j = 0; j < rows.length; j += 2_000) await insertTransfers(tx as unknown as Database, rows.slice(j, j + 2_000), ids);
    });
  };
  const variants: Array<[string, string, (r: Row[]) => Promise<unknown>]> = [
    ["(a) one table, text account keys", FLAT, inTransaction(insertText(FLAT))],
    ["(b) partitioned by block range, text account keys", PARTS, inTransaction(insertText(PARTS))],
    ["(c) partitioned, integer account ids (dictionary joined in the insert)", IDS, inTransaction(insertIds)],
    ["(d) the store since 0024: integer ids from the writer's cache", "transfers", stored],
  ];
  const rates = new Map<string, number[]>(variants.map(([label]) => [label, []]));
  for (let run = 0; run < RUNS; run++) {
    const base = first + run * Math.ceil(n / 10);
    const data: Row[] = Array.from({ length: n }, (_, i) => ({
      blockNumber: base + Math.floor(i / 10),
      eventIndex: i % 10,
      tokenId: i % 7,
      from: i % 50 === 0 ? account(0) : account(base + i),
      to: i % 10 === 7 ? null : account(base * 7 + i * 13 + 1),
      amount: String(BigInt(base + i) * 1_000_000_007n),
      kind: i % 10 === 3 ? "deposit" : "transfer",
    }));
    const order = run % 2 === 0 ? variants : [...variants].reverse();
    for (const [label, , insert] of order) {
      const t = performance.now();
      for (let i = 0; i < n; i += 10_000) await insert(data.slice(i, i + 10_000));
      rates.get(label)!.push(Math.round(n / ((performance.now() - t) / 1000)));
    }
    log(`  keys: run ${run + 1}/${RUNS}: ${variants.map(([l]) => `${l.slice(0, 3)} ${rates.get(l)!.at(-1)!.toLocaleString("en")} rows/s`).join(", ")}`);
  }
  const out: Record<string, unknown> = {};
  for (const [label, table] of variants) {
    const mine = table === "transfers" ? ` where block_number >= ${STORED}` : "";
    const [c] = rowsOf<{ n: string | number }>(await db.execute(sql.raw(`select count(*) as n from ${table}${mine}`)));
    const bytes =
      table === "transfers"
        ? (await storedBytes(db)) + (await tableBytes(db, "account_ids"))
        : (await tableBytes(db, table)) + (table === IDS ? await tableBytes(db, "bench_accounts") : 0);
    const perMillion = Math.round((bytes / Number(c!.n)) * 1_000_000);
    const s = spread(rates.get(label)!);
    rows.push({ what: `transfer keys ${label}: insert rows/s, ${RUNS} runs of ${n.toLocaleString("en")}; on disk per million rows at ${Number(c!.n).toLocaleString("en")}`, measure: `transfer keys ${label}`, figure: `${range(s)}; ${(perMillion / 1024 / 1024).toFixed(0)} MB` });
    out[label] = { rowsPerSecond: s, rates: rates.get(label), rows: Number(c!.n), bytesPerMillion: perMillion };
  }
  results.transferKeys = out;
  await db.execute(sql.raw(`drop table ${FLAT}, ${PARTS}, ${IDS}, bench_accounts`));
  // (d)'s partitions dropped, not emptied: an empty partition on top would be a slice every list walks first.
  for (const part of (await partitionsOf(db, "transfers")).filter((x) => x.from >= STORED)) await db.execute(sql.raw(`drop table ${part.name}`));
}

/** Where (d) writes in the store's transfers: above every other bench's blocks. */
const STORED = 3_000_000_000;

/** The bytes of the store's transfer partitions at or above STORED (d's rows alone). */
async function storedBytes(db: Database): Promise<number> {
  const parts = (await partitionsOf(db, "transfers")).filter((p) => p.from >= STORED);
  let bytes = 0;
  for (const p of parts) bytes += await tableBytes(db, p.name);
  return bytes;
}
