/**
 * A read's snapshot (db/read-snapshot.ts): one REPEATABLE READ READ ONLY transaction, begun on
 * Postgres in one statement — drizzle's own transaction() sends `begin` and `set transaction`
 * apart, a round trip more for every uncached read.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { readOnlySnapshot, rowsOf, schema, type Database } from "../../db/index.js";
import { dbTargets } from "../support/db.js";

const settings = (tx: Database) => tx.execute(sql`select current_setting('transaction_isolation') as isolation, current_setting('transaction_read_only') as read_only`);

describe.each(dbTargets)("a read's snapshot on $name", (target) => {
  it.skipIf(target.skip)(`is repeatable read and read only, and a write in it fails${target.skip ? ` (skipped: ${target.skip})` : ""}`, async () => {
    const store = await target.open();
    try {
      const seen = await readOnlySnapshot(store.db, async (tx) => rowsOf(await settings(tx)));
      expect(seen).toEqual([{ isolation: "repeatable read", read_only: "on" }]);
      await expect(readOnlySnapshot(store.db, (tx) => tx.execute(sql`insert into history_floors (kind, block_number) values ('holders', 1)`))).rejects.toMatchObject({ cause: { message: expect.stringMatching(/read-only transaction/) } });
      expect(rowsOf(await store.db.execute(sql`select count(*)::int as n from history_floors`))).toEqual([{ n: 0 }]);
    } finally {
      await store.drop();
    }
  });
});

const pg = dbTargets.find((t) => t.name === "postgres")!;

describe.skipIf(pg.skip)(`a read's snapshot on Postgres, statement by statement${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  it("is begun in one statement, and its queries run on the transaction's connection", async () => {
    const store = await pg.open();
    const sent: string[] = [];
    const client = postgres(store.url!, { max: 2, onnotice: () => {}, debug: (_connection, query) => void sent.push(query.trim()) });
    try {
      const db = drizzle({ client, schema, casing: "snake_case" }) as unknown as Database;
      const [answer] = await readOnlySnapshot(db, async (tx) => {
        // Two queries at once inside it: both in the same transaction (the same backend).
        const [a, b] = await Promise.all([tx.execute(sql`select pg_backend_pid() as pid, txid_current_if_assigned() as x`), tx.execute(sql`select pg_backend_pid() as pid`)]);
        return [rowsOf<{ pid: number }>(a)[0]!.pid === rowsOf<{ pid: number }>(b)[0]!.pid];
      });
      expect(answer).toBe(true);
      // (postgres.js reads the server's array types first, on a new connection.)
      expect(sent.filter((q) => /^(begin|set|commit)\b/i.test(q))).toEqual(["begin isolation level repeatable read read only", "commit"]);
    } finally {
      await client.end();
      await store.drop();
    }
  });
});
