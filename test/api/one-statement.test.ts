import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { oneStatementRead } from "../../api/app.js";
import { SecondStatementError, snapshots } from "../../api/snapshot.js";
import { executePrepared, rowsOf } from "../../db/index.js";
import { describeDb, selectRows } from "../support/db.js";

// A statement outside a transaction block starts its own: now() (the transaction's start) is its
// own start. Inside a snapshot begun before it, now() is earlier.
const alone = sql`select now() = statement_timestamp() as alone`;
// A snapshot read's statements run in its transaction: repeatable read, read only. (Not now():
// PGlite's clock can give a transaction and its next statement the same start on a fast machine.)
const isolation = sql`select current_setting('transaction_isolation') as level, current_setting('transaction_read_only') as "readOnly"`;
const SNAPSHOT = { level: "repeatable read", readOnly: "on" };

describeDb("one-statement reads (api/snapshot.ts runOne)", (ctx) => {
  it("run no transaction around their one statement; a snapshot read runs its statements in one", async () => {
    const reads = snapshots(ctx.db);
    const [one] = await reads.runOne(() => selectRows<{ alone: boolean }>(reads.db, alone));
    // (PGlite, in process, has no round trips to save, and its statement clock differs from now()
    // outside a transaction block too: there only the snapshot side is asserted.)
    if (ctx.target.name !== "pglite") expect(one!.alone).toBe(true);
    const [inSnapshot] = await reads.run(async () => {
      await selectRows(reads.db, sql`select 1`);
      return selectRows<{ level: string; readOnly: string }>(reads.db, isolation);
    });
    expect(inSnapshot).toEqual(SNAPSHOT);
  });

  it("refuse a second statement, so a route declared one-statement cannot drift into mixing two blocks", async () => {
    const reads = snapshots(ctx.db);
    await expect(
      reads.runOne(async () => {
        await selectRows(reads.db, sql`select 1`);
        return selectRows(reads.db, sql`select 2`);
      }),
    ).rejects.toBeInstanceOf(SecondStatementError);
    // The next read is not affected.
    expect(await reads.runOne(() => selectRows<{ n: number }>(reads.db, sql`select 3 as n`))).toEqual([{ n: 3 }]);
  });

  it("count a prepared statement as a statement, and run it in the snapshot of a snapshot read", async () => {
    const reads = snapshots(ctx.db);
    await expect(
      reads.runOne(async () => {
        await executePrepared(reads.db, "one", sql`select 1`);
        return selectRows(reads.db, sql`select 2`);
      }),
    ).rejects.toBeInstanceOf(SecondStatementError);
    const [inSnapshot] = await reads.run(async () => {
      await selectRows(reads.db, sql`select 1`);
      return rowsOf<{ level: string; readOnly: string }>(await executePrepared(reads.db, "isolation", isolation));
    });
    expect(inSnapshot).toEqual(SNAPSHOT);
  });
});

it("only the current token metadata and the totals of all pools are one-statement reads: as of a block metadata reads history", () => {
  expect(oneStatementRead("/assets/metadata/1984", "http://x/assets/metadata/1984")).toBe(true);
  expect(oneStatementRead("/assets/metadata/1984", "http://x/assets/metadata/1984?at=5")).toBe(false);
  expect(oneStatementRead("/assets/metadata/1984", "http://x/assets/metadata/1984?atTime=5")).toBe(false);
  expect(oneStatementRead("/assets/holders/1984", "http://x/assets/holders/1984")).toBe(false);
  expect(oneStatementRead("/pool/stats", "http://x/pool/stats")).toBe(true);
  expect(oneStatementRead("/pool/stats/KSM/USDT", "http://x/pool/stats/KSM/USDT")).toBe(false);
});
