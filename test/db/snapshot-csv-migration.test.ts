/**
 * Snapshots finished before migration 0019 get their CSV's size from it: the Content-Length of
 * their download equals the bytes it sends (the header line, then snapshotCsvBatch's lines).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { CSV_HEADER, MIGRATIONS_FOLDER, rowsOf, schema, snapshotCsvBatch, type Database } from "../../db/index.js";

it("migration 0019 sets the CSV size of every done snapshot to the bytes its download sends, and leaves unfinished ones unset", async () => {
  // The migrations as they were before it: the journal cut before 0019_snapshot_csv_bytes.
  const before = mkdtempSync(path.join(os.tmpdir(), "tokenpool-migrations-"));
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(before, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith("_snapshot_csv_bytes"));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(path.join(before, "meta/_journal.json"), JSON.stringify(journal));

  const client = new PGlite();
  const db = drizzle({ client, schema, casing: "snake_case" }) as unknown as Database;
  try {
    await migrate(db as never, { migrationsFolder: before });
    await db.execute(sql`insert into holder_snapshots (id, token_id, block_number, state, holders, total, finished_at) values
      (1, 7, 100, 'done', 1203, 0, now()), (2, 7, 101, 'done', 0, 0, now()), (3, 7, 102, 'running', null, null, null)`);
    // Ranks of 1 to 4 digits, addresses of two lengths, balances from 1 to 40 digits.
    await db.execute(sql`insert into snapshot_holders (snapshot_id, rank, account, balance)
      select 1, i, case when i % 2 = 0 then 'F' || lpad(i::text, 46, 'x') else '0x' || lpad(i::text, 64, '0') end, (10::numeric ^ (i % 40)) + i from generate_series(1, 1203) i`);
    await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });

    let text = CSV_HEADER;
    for (let after = 0; ; ) {
      const batch = await snapshotCsvBatch(db, 1, after, 500);
      text += batch.text;
      after = batch.last;
      if (batch.rows < 500) break;
    }
    expect(text.split("\n")).toHaveLength(1203 + 2);
    const sizes = rowsOf<{ id: number; csv_bytes: string | number | null }>(await db.execute(sql`select id, csv_bytes from holder_snapshots order by id`));
    expect(sizes.map((r) => [Number(r.id), r.csv_bytes === null ? null : Number(r.csv_bytes)])).toEqual([
      [1, Buffer.byteLength(text)],
      [2, Buffer.byteLength(CSV_HEADER)],
      [3, null],
    ]);
  } finally {
    await client.close();
    rmSync(before, { recursive: true, force: true });
  }
});
