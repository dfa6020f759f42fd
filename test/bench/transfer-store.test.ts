import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkLoad, sortMemoryOf } from "../../bench/bulk-load.js";
import { indexStatements } from "../../db/index.js";
import { writersOfRun } from "../../bench/ledger.js";
import { refuseUnlessRoom, roomFor, setForBackfill, settingBytes, size, storeSettings } from "../../bench/transfer-store.js";
import { rowsOf } from "../../db/index.js";
import { runnableTargets } from "../support/db.js";

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

describe("the transfer bench's store: disk before a fill, the settings it names, and the bulk-load diagnostic", () => {
  it("counts the rows at a filled store's bytes, a fifth more for index builds, the blocks rows, the WAL and 5 GB; and the most rows that fit", () => {
    // The 200M run of 2026-11-29: 292 MiB a million, 11 rows a block, 1 GiB of WAL.
    const { need } = roomFor(200_000_000, 292 * MiB, 11, GiB, 78.7 * GiB);
    expect(need / GiB).toBeCloseTo(200 * 292 * 1.2 / 1024 + (200_000_000 / 11) * 80 / GiB + 1 + 5, 6);
    expect(need).toBeLessThan(78.7 * GiB);
    // 16 GiB of WAL (set for a backfill) no longer fits the same disk.
    expect(roomFor(200_000_000, 292 * MiB, 11, 16 * GiB, 78.7 * GiB).need).toBeGreaterThan(78.7 * GiB);
    for (const free of [6.5 * GiB, 40 * GiB, 78.7 * GiB]) {
      const { fits } = roomFor(1, 292 * MiB, 11, 16 * GiB, free);
      if (free < 21 * GiB) expect(fits).toBe(0);
      else {
        expect(roomFor(fits, 292 * MiB, 11, 16 * GiB, free).need).toBeLessThanOrEqual(free);
        expect(roomFor(fits + 1, 292 * MiB, 11, 16 * GiB, free).need).toBeGreaterThan(free);
      }
    }
  });

  it("reads pg_settings' units, calls a store set for a backfill only with all three settings, and prints 128 MB as such", () => {
    expect(settingBytes("16384", "8kB")).toBe(128 * MiB);
    expect(settingBytes("16384", "MB")).toBe(16 * GiB);
    expect(settingBytes("300", "s")).toBe(300);
    expect(setForBackfill(128 * MiB, GiB, "off")).toBe(false);
    expect(setForBackfill(4 * GiB, 16 * GiB, "lz4")).toBe(true);
    expect(setForBackfill(4 * GiB, 16 * GiB, "off")).toBe(false);
    expect(setForBackfill(4 * GiB, 4 * GiB, "lz4")).toBe(false);
    expect(setForBackfill(512 * MiB, 16 * GiB, "pglz")).toBe(false);
    expect([size(128 * MiB), size(GiB), size(4 * GiB), size(16 * GiB)]).toEqual(["128 MB", "1 GB", "4 GB", "16 GB"]);
  });

  it("alternates one, two and four writers so that each count has as many runs early as late", () => {
    const runs = Array.from({ length: 9 }, (_, run) => writersOfRun(run));
    expect(runs).toEqual([1, 2, 4, 4, 2, 1, 1, 2, 4]);
  });

  it("rebuilds each index of the partitioned table on the bulk table, keys and predicates as they are, the primary key's then made the table's key", () => {
    const { builds, after } = indexStatements(
      [
        { name: "transfers_pk", def: "CREATE UNIQUE INDEX transfers_pk ON ONLY public.transfers USING btree (block_number, event_index)", primary: true },
        { name: "transfers_from_idx", def: "CREATE INDEX transfers_from_idx ON ONLY public.transfers USING btree (from_id, kind, (- block_number), (- event_index)) WHERE (from_id IS NOT NULL)", primary: false },
        { name: "u", def: "CREATE UNIQUE INDEX u ON public.transfers USING btree (amount)", primary: false },
      ],
      "bulk",
    );
    expect(builds).toEqual([
      "CREATE UNIQUE INDEX bulk_i0 ON bulk USING btree (block_number, event_index)",
      "CREATE INDEX bulk_i1 ON bulk USING btree (from_id, kind, (- block_number), (- event_index)) WHERE (from_id IS NOT NULL)",
      "CREATE UNIQUE INDEX bulk_i2 ON bulk USING btree (amount)",
    ]);
    expect(after).toEqual(["ALTER TABLE bulk ADD CONSTRAINT bulk_pkey PRIMARY KEY USING INDEX bulk_i0"]);
    // An index this bench cannot copy (another access method, included columns) is refused, not built wrong.
    for (const def of ["CREATE INDEX g ON public.transfers USING gin (tags)", "CREATE INDEX i ON public.transfers USING btree (a) INCLUDE (b)"])
      expect(() => indexStatements([{ name: "x", def, primary: false }], "bulk")).toThrow(/cannot rebuild/);
  });

  for (const target of runnableTargets("the transfer bench's store settings and its bulk load")) {
    describe(`on ${target.name}`, () => {
      let handle: Awaited<ReturnType<typeof target.open>>;
      beforeAll(async () => {
        handle = await target.open();
      });
      afterAll(async () => {
        await handle?.drop();
      });

      it("names the store by its settings as PostgreSQL shows them (PGlite as such)", async () => {
        const store = await storeSettings(handle);
        if (handle.kind !== "postgres") return expect(store).toMatchObject({ name: "PGlite", text: "PGlite" });
        // `show` prints 128MB, 1GB: read apart from pg_settings' units.
        const shown = async (name: string) => rowsOf<Record<string, string>>(await handle.db.execute(sql.raw(`show ${name}`)))[0]![name]!.replace(/^(\d+)([MG]B)$/, "$1 $2");
        expect(store.text).toContain(`shared_buffers ${await shown("shared_buffers")}, max_wal_size ${await shown("max_wal_size")}, wal_compression ${await shown("wal_compression")}`);
        expect(store.name).toMatch(/^PostgreSQL (as installed|set for a backfill)$/);
      });

      it("refuses a fill the disk cannot hold, naming the rows and the scale that fit", async () => {
        await expect(refuseUnlessRoom(handle, 10 ** 15, 292 * MiB)).rejects.toThrow(/the transfer bench needs [\d.]+ GB for 1,000,000,000,000,000 rows .* at most ~[\d,]+ rows fit \(BENCH_SCALE=[\d.]+\)/);
        // PGlite's room is this machine's free memory: only the data directory's disk is sure to hold 5 GB.
        if (handle.kind === "postgres") await expect(refuseUnlessRoom(handle, 0, 292 * MiB)).resolves.toBeUndefined();
      });

      it("loads the rows, builds every index of the table, attaches it as the partition and drops it after counting", async () => {
        // 20,005 rows: a count that is not a whole number of blocks (the second writer's first block rounds).
        const load = await bulkLoad(handle, 20_005);
        expect(load).toMatchObject({ rows: 20_005, countsExact: true, indexesAdopted: true });
        expect(load.maintenanceWorkMem).toMatch(/^\d+[kMG]B$/);
        // Gone again: no partition of the bench's blocks is left for later parts to read.
        const count = async (q: ReturnType<typeof sql>) => Number(rowsOf<{ n: string | number }>(await handle.db.execute(q))[0]!.n);
        const left = () => count(sql`select count(*) as n from transfers where block_number >= 2000000000`);
        const table = () => count(sql`select count(*) as n from pg_class where relname in ('transfers_s2000', 'transfers_p2000')`);
        expect([await left(), await table()]).toEqual([0, 0]);
        // The builds' sort memory as asked, named in the figures; anything but a size refused before any work.
        expect(await bulkLoad(handle, 100, "96MB")).toMatchObject({ rows: 100, countsExact: true, indexesAdopted: true, maintenanceWorkMem: "96MB" });
        expect(() => sortMemoryOf("1GB'; drop table transfers; --")).toThrow(/a size such as 64MB/);
        expect([sortMemoryOf(undefined), sortMemoryOf(""), sortMemoryOf("1GB")]).toEqual([undefined, undefined, "1GB"]);
        // A partition a crashed load left is dropped first: the next load opens its stage again.
        await handle.db.execute(sql`select ensure_block_partitions('transfers'::regclass, '{2000000000}'::bigint[])`);
        expect(await bulkLoad(handle, 20)).toMatchObject({ rows: 20, countsExact: true, indexesAdopted: true });
        expect([await left(), await table()]).toEqual([0, 0]);
      });
    });
  }
});
