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
    const sent: Array<{ connection: number; query: string }> = [];
    const client = postgres(store.url!, { max: 2, onnotice: () => {}, debug: (connection, query) => void sent.push({ connection, query: query.trim() }) });
    try {
      const db = drizzle({ client, schema, casing: "snake_case" }) as unknown as Database;
      // A pool connection busy elsewhere meanwhile: the snapshot's queries must not go to the pool.
      const elsewhere = client`select pg_sleep(0.2)`;
      const seen = await readOnlySnapshot(db, async (tx) => {
        const both = await Promise.all([settings(tx), settings(tx), settings(tx)]);
        return both.map((r) => rowsOf(r)[0]);
      });
      await elsewhere;
      expect(seen).toEqual(Array(3).fill({ isolation: "repeatable read", read_only: "on" }));
      // (postgres.js reads the server's array types first, on a new connection.)
      const framing = sent.filter((q) => /^(begin|set|commit)\b/i.test(q.query));
      expect(framing.map((q) => q.query)).toEqual(["begin isolation level repeatable read read only", "commit"]);
      // Every query between begin and commit went on the begin's connection.
      const from = sent.indexOf(framing[0]!);
      const to = sent.indexOf(framing[1]!);
      const inside = sent.slice(from, to + 1).filter((q) => q.query.startsWith("select current_setting"));
      expect(inside).toHaveLength(3);
      expect(new Set(inside.map((q) => q.connection))).toEqual(new Set([framing[0]!.connection]));
    } finally {
      await client.end();
      await store.drop();
    }
  });
});
