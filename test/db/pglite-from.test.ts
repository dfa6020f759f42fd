/** DbOptions.pgliteFrom: a memory:// store started from another store's dump holds its rows; a data directory refuses one. */
import { sql } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import { expect, it } from "vitest";
import { createDb } from "../../db/index.js";
import { memoryStore } from "../support/db.js";

it("a memory:// store started from a dump holds the dumped rows; a data directory refuses a dump", async () => {
  const source = await memoryStore();
  await source.db.execute(sql`insert into account_ids (address) values ('dumped-address')`);
  const dump = await (source.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  await source.close();
  const copy = await createDb({ dataDir: "memory://", pgliteFrom: dump });
  try {
    const { rows } = (await copy.db.execute(sql`select address from account_ids`)) as unknown as { rows: { address: string }[] };
    expect(rows.map((r) => r.address)).toEqual(["dumped-address"]);
  } finally {
    await copy.close();
  }
  await expect(createDb({ dataDir: "/tmp/tokenpool-never-made", pgliteFrom: dump })).rejects.toThrow("a PGlite dump can only start a memory:// store");
}, 60_000);
