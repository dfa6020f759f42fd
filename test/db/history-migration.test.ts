/**
 * A store indexed before balance and token history (migrations 0013, 0014) keeps answering once
 * it upgrades: its current holders, LP positions and tokens become history rows at the blocks
 * they were read, and the history floor is its checkpoint — so a balance or a token as of the
 * checkpoint is answered from the migrated rows, and an earlier block is refused.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { balanceAt, balancesAt, historyFloor, MIGRATIONS_FOLDER, schema, tokenAt, type Database } from "../../db/index.js";

it("migrating a store indexed before history seeds it from current rows, with the floor at the checkpoint", async () => {
  // The migrations as they were before history: the journal cut after 0012.
  const before = mkdtempSync(path.join(os.tmpdir(), "tokenpool-migrations-"));
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(before, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  expect(journal.entries.map((e) => e.tag)).toContain("0013_balance_history");
  journal.entries = journal.entries.filter((e) => e.idx <= 12);
  writeFileSync(path.join(before, "meta/_journal.json"), JSON.stringify(journal));

  const client = new PGlite();
  const db = drizzle({ client, schema, casing: "snake_case" }) as unknown as Database;
  await migrate(db as never, { migrationsFolder: before });
  await db.execute(sql`insert into checkpoints (name, block_number, block_hash, chain_finalized) values ('follower', 500, '0x05', 500)`);
  await db.execute(sql`insert into tokens (id, name, symbol, decimals, supply, kind, block_number) values (7, 'Seven', 'SVN', 3, '9000', 'asset', 480)`);
  await db.execute(sql`insert into holders (token_id, account, balance, block_number) values (7, 'alice', '6000', 450), (7, 'bob', '3000', 499)`);
  await db.execute(sql`insert into lp_holders (lp_token_id, account, balance, block_number) values (1, 'alice', '77', 300)`);

  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  expect({ holders: await historyFloor(db, "holders"), lp: await historyFloor(db, "lp") }).toEqual({ holders: 500, lp: 500 });
  expect(await balanceAt(db, false, 7, "alice", 500)).toEqual({ balance: "6000", blockNumber: 450 });
  expect(await balanceAt(db, true, 1, "alice", 500)).toEqual({ balance: "77", blockNumber: 300 });
  expect((await balancesAt(db, false, 500)).sort((a, b) => a.account.localeCompare(b.account))).toEqual([
    { tokenId: 7, account: "alice", balance: "6000" },
    { tokenId: 7, account: "bob", balance: "3000" },
  ]);
  expect(await tokenAt(db, 7, 500)).toMatchObject({ name: "Seven", supply: "9000", blockNumber: 480, destroyed: false });
  await client.close();
});
