/**
 * Migration 0023 on a store with rows: each history table becomes partitioned by block range, a
 * partition for each million blocks that holds rows, with every row kept, and the store answers
 * from them as before (PGlite, and Postgres when TEST_DATABASE_URL is set).
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { accountTransfers, balanceAt, ensurePartitionsBetween, insertTransfers, MIGRATIONS_FOLDER, partitionsOf, PARTITIONED_TABLES, rowsOf, schema, tokenAt, type Database } from "../../db/index.js";
import { TRANSFER_KINDS, transferKindCode, transferKindOf, type TransferKind } from "../../db/schema/transfers.js";
import { services } from "../support/db.js";

/** The migrations as they were before `tag`: the journal cut before it. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tokenpool-migrations-"));
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(dir, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  const cut = journal.entries.find((e) => e.tag === tag);
  expect(cut, tag).toBeDefined();
  journal.entries = journal.entries.filter((e) => e.idx < cut!.idx);
  writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify(journal));
  return dir;
}
const migrationsBefore0023 = () => migrationsBefore("0023_block_partitions");

interface Store {
  db: Database;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function pgliteStore(): Promise<Store> {
  const client = new PGlite();
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Database;
  return { db, migrate: (folder) => migratePglite(db as never, { migrationsFolder: folder }), close: () => client.close() };
}

async function postgresStore(): Promise<Store> {
  const admin = postgres(services.databaseUrl as string, { max: 1, onnotice: () => {} });
  const name = `tokenpool_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(services.databaseUrl as string);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const db = drizzlePostgres({ client, schema, casing: "snake_case" }) as unknown as Database;
  return {
    db,
    migrate: (folder) => migratePostgres(db as never, { migrationsFolder: folder }),
    async close() {
      await client.end();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

const NAMED_TRANSFER = `to_jsonb(t) - 'from_id' - 'to_id' || jsonb_build_object('from_account', (select address from account_ids where id = t.from_id), 'to_account', (select address from account_ids where id = t.to_id))`;

/** Every row of the history tables, as JSON (by column name: the migration may order columns anew), sorted. */
async function historyRows(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  const [ids] = rowsOf<{ at: string | null }>(await db.execute(sql`select to_regclass('account_ids')::text as at`));
  for (const table of PARTITIONED_TABLES) {
    // A table made after the migration under test (block_extrinsics, 0027) has no rows before it.
    const [made] = rowsOf<{ at: string | null }>(await db.execute(sql.raw(`select to_regclass('${table}')::text as at`)));
    if (made!.at === null) {
      out[table] = [];
      continue;
    }
    // Since 0024 a transfer names its accounts by id: read as the addresses they stand for; since
    // 0028 its kind by code: read as the kind's name.
    const [kind] = rowsOf<{ type: string }>(await db.execute(sql`select data_type as type from information_schema.columns where table_name = 'transfers' and column_name = 'kind'`));
    const named = kind!.type === "smallint" ? `${NAMED_TRANSFER} || jsonb_build_object('kind', (array[${TRANSFER_KINDS.map((k) => `'${k}'`).join(", ")}])[t.kind + 1])` : NAMED_TRANSFER;
    const row = table === "transfers" && ids!.at !== null ? named : "to_jsonb(t)";
    out[table] = rowsOf(await db.execute(sql.raw(`select (${row})::text as row from "${table}" t order by 1`)));
  }
  return out;
}

const targets: Array<[string, () => Promise<Store>, string | undefined]> = [
  ["pglite", pgliteStore, undefined],
  ["postgres", postgresStore, services.databaseUrl ? undefined : "TEST_DATABASE_URL is not set"],
];

for (const [name, open, skip] of targets) {
  describe.skipIf(skip !== undefined)(`migration 0023 [${name}]${skip ? ` (skipped: ${skip})` : ""}`, () => {
    it("a store with history rows keeps every row, now in a partition per million blocks, and answers as before", async () => {
      const store = await open();
      try {
        await store.migrate(migrationsBefore0023());
        const { db } = store;
        await db.execute(sql`insert into checkpoints (name, block_number, block_hash, chain_finalized) values ('follower', 2600000, '0x26', 2600000)`);
        await db.execute(sql`insert into history_floors (kind, block_number) values ('holders', 5), ('lp', 5)`);
        await db.execute(sql`
          insert into transfers (block_number, event_index, timestamp, token_id, from_account, to_account, amount, kind, event, tip, value_usd)
          values (5, 0, 1700000000, 1984, 'alice', 'bob', 10, 'transfer', 'assets.Transferred', null, '1.5'),
                 (2500000, 3, 1715000000, 1984, 'alice', null, 7, 'burn', 'assets.Burned', null, null),
                 (2500001, 0, 1715000006, null, 'alice', 'carol', 99, 'fee', 'transactionPayment.TransactionFeePaid', 4, null)`);
        await db.execute(sql`
          insert into swaps (block_number, event_index, hop, token0_id, token1_id, token_in, token_out, amount_in, amount_out, fee, volume_usd, fee_usd, account, timestamp, hops)
          values (7, 1, 0, 0, 1984, 0, 1984, 1000, 990, 3, '2.5', '0.0075', 'alice', 1700000012, 2), (1200000, 4, 0, 0, 1984, 1984, 0, 50, 49, 1, '1', '0.003', null, 1707000000, 1)`);
        await db.execute(sql`insert into balance_history (lp, token_id, account, block_number, balance) values (false, 1984, 'alice', 5, 100), (false, 1984, 'alice', 2500000, 93), (true, 3, 'bob', 9, 1)`);
        await db.execute(sql`insert into token_history (id, name, symbol, decimals, supply, block_number) values (1984, 'Tether', 'USDT', 6, 1000, 5), (1984, 'Tether', 'USDT', 6, 993, 2500000)`);
        await db.execute(sql`insert into token_prices (token_id, block_number, price_usd) values (1984, 5, '1.0001'), (1984, 1900000, null)`);
        const before = await historyRows(db);

        await store.migrate(MIGRATIONS_FOLDER);
        expect(await historyRows(db)).toEqual(before);
        // Migration 0024: each address once, in address order.
        expect(rowsOf(await db.execute(sql`select id, address from account_ids order by id`))).toEqual([
          { id: 1, address: "alice" },
          { id: 2, address: "bob" },
          { id: 3, address: "carol" },
        ]);
        const kinds = rowsOf<{ relname: string; relkind: string }>(await db.execute(sql`select relname, relkind from pg_class where relname = any(${`{${PARTITIONED_TABLES.join(",")}}`}::text[]) order by relname`));
        expect(kinds.map((k) => k.relkind)).toEqual(PARTITIONED_TABLES.map(() => "p"));
        // A partition for each million that holds rows: none for 1,000,000–1,999,999, which holds no transfer.
        expect((await partitionsOf(db, "transfers")).map((p) => [p.name, p.from, p.to])).toEqual([
          ["transfers_p0", 0, 1_000_000],
          ["transfers_p2", 2_000_000, 3_000_000],
        ]);
        expect((await partitionsOf(db, "swaps")).map((p) => p.name)).toEqual(["swaps_p0", "swaps_p1"]);
        expect((await accountTransfers(db, "alice", undefined, {}, 10)).rows.map((r) => [r.blockNumber, r.kind, r.tip, r.valueUsd])).toEqual([
          [2_500_001, "fee", "4", null],
          [2_500_000, "burn", null, null],
          [5, "transfer", null, "1.5"],
        ]);
        expect(await balanceAt(db, false, 1984, "alice", 2_499_999)).toEqual({ balance: "100", blockNumber: 5 });
        expect(await tokenAt(db, 1984, 2_600_000)).toMatchObject({ supply: "993", blockNumber: 2_500_000 });
        // The keys came back: a replayed row is still written once.
        await insertTransfers(db, [{ blockNumber: 5, eventIndex: 0, timestamp: 1_700_000_000, tokenId: 1984, fromAccount: "alice", toAccount: "bob", amount: "10", kind: "transfer", event: "assets.Transferred" }]);
        expect((await historyRows(db)).transfers).toEqual(before.transfers);
      } finally {
        await store.close();
      }
    });

    it("a stray row far off (block 10^9 beside rows from 1 to 18M) makes one partition, not one for every million between", async () => {
      const store = await open();
      try {
        await store.migrate(migrationsBefore0023());
        const { db } = store;
        const blocks = [1, 18_000_000, 1_000_000_000];
        for (const b of blocks) {
          await db.execute(sql`
            insert into transfers (block_number, event_index, timestamp, token_id, from_account, to_account, amount, kind, event)
            values (${b}, 0, ${1_700_000_000 + b}, 1984, 'alice', 'bob', 1, 'transfer', 'assets.Transferred')`);
          await db.execute(sql`insert into balance_history (lp, token_id, account, block_number, balance) values (false, 1984, 'alice', ${b}, ${b})`);
        }
        const before = await historyRows(db);

        await store.migrate(MIGRATIONS_FOLDER);
        expect(await historyRows(db)).toEqual(before);
        expect((await partitionsOf(db, "transfers")).map((p) => p.name)).toEqual(["transfers_p0", "transfers_p18", "transfers_p1000"]);
        expect((await partitionsOf(db, "balance_history")).map((p) => p.name)).toEqual(["balance_history_p0", "balance_history_p18", "balance_history_p1000"]);
        // A table with no rows gets none: its first insert makes what it needs.
        expect(await partitionsOf(db, "swaps")).toEqual([]);
        expect((await accountTransfers(db, "alice", undefined, {}, 10)).rows.map((r) => r.blockNumber)).toEqual([1_000_000_000, 18_000_000, 1]);
      } finally {
        await store.close();
      }
    });
  });
}

for (const [name, open, skip] of targets) {
  describe.skipIf(skip !== undefined)(`migration 0028 [${name}]${skip ? ` (skipped: ${skip})` : ""}`, () => {
    it("a transfer's kind becomes its code: every kind reads back by name, a kind filter finds it, a code outside the list is an error", async () => {
      const store = await open();
      try {
        await store.migrate(migrationsBefore("0028_kind_codes"));
        const { db } = store;
        // One row of each kind, as the text the store held before, in reverse order of the codes.
        const kinds = [...TRANSFER_KINDS].reverse();
        await insertTransfersAsText(db, kinds);
        const before = await historyRows(db);

        await store.migrate(MIGRATIONS_FOLDER);
        expect(await historyRows(db)).toEqual(before);
        const [type] = rowsOf<{ type: string }>(await db.execute(sql`select data_type as type from information_schema.columns where table_name = 'transfers' and column_name = 'kind'`));
        expect(type!.type).toBe("smallint");
        // Each partition keeps its five indexes, rebuilt, each still a partition of the table's own.
        for (const p of await partitionsOf(db, "transfers")) {
          const indexes = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from pg_inherits i join pg_class c on c.oid = i.inhrelid where c.relkind = 'i' and c.oid in (select indexrelid from pg_index where indrelid = ${p.name}::regclass)`));
          expect(Number(indexes[0]!.n), p.name).toBe(5);
        }
        const all = (await accountTransfers(db, "alice", undefined, {}, 20)).rows;
        expect(all.map((r) => [r.blockNumber, r.kind])).toEqual(kinds.map((k, i) => [i + 1, k]).reverse());
        for (const k of TRANSFER_KINDS) expect((await accountTransfers(db, "alice", undefined, { kind: k }, 20)).rows.map((r) => r.kind), k).toEqual([k]);
        // Written after it, through the indexer's insert, and read back the same way.
        await insertTransfers(db, [{ blockNumber: 100, eventIndex: 0, timestamp: 1_700_000_600, tokenId: 1984, fromAccount: "alice", toAccount: "bob", amount: "1", kind: "slash", event: "balances.Slashed" }]);
        expect((await accountTransfers(db, "alice", undefined, { kind: "slash" }, 20)).rows.map((r) => r.blockNumber)).toEqual([100, kinds.indexOf("slash") + 1]);
        // A code outside the list is an error when read, never another kind; a kind outside it has no code.
        expect(() => transferKindOf(TRANSFER_KINDS.length)).toThrow(`no kind has the code ${TRANSFER_KINDS.length}`);
        expect(() => transferKindCode("teleport" as TransferKind)).toThrow('no such kind "teleport"');
      } finally {
        await store.close();
      }
    }, 90_000); // two migrations of a new store: 4–8 s alone, 30 s beside a full suite on 2 cores

    it("a kind the list does not name stops the migration (the store as it was), never a guessed code", async () => {
      const store = await open();
      try {
        await store.migrate(migrationsBefore("0028_kind_codes"));
        const { db } = store;
        await insertTransfersAsText(db, ["transfer", "teleport"]);
        await expect(store.migrate(MIGRATIONS_FOLDER)).rejects.toThrow();
        const [type] = rowsOf<{ type: string }>(await db.execute(sql`select data_type as type from information_schema.columns where table_name = 'transfers' and column_name = 'kind'`));
        expect(type!.type).toBe("text");
        expect(rowsOf(await db.execute(sql`select kind from transfers order by block_number`))).toEqual([{ kind: "transfer" }, { kind: "teleport" }]);
      } finally {
        await store.close();
      }
    }, 90_000); // two migrations of a new store: 4–8 s alone, 30 s beside a full suite on 2 cores
  });
}

/** Rows at blocks 1, 2, … of `kinds`, from alice to bob, written as the store before 0028 held them (the kind as text). */
async function insertTransfersAsText(db: Database, kinds: string[]): Promise<void> {
  await db.execute(sql`insert into account_ids (address) values ('alice'), ('bob') on conflict (address) do nothing`);
  await ensurePartitionsBetween(db, 0, kinds.length);
  for (const [i, kind] of kinds.entries()) {
    await db.execute(sql`
      insert into transfers (block_number, event_index, timestamp, token_id, from_id, to_id, amount, kind, event)
      values (${i + 1}, 0, ${1_700_000_000 + i * 6}, 1984, (select id from account_ids where address = 'alice'), (select id from account_ids where address = 'bob'), 1, ${kind}, 'e')`);
  }
}
