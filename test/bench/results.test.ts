import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { measureOf, mergeRows, RETIRED, scaleOf, stableName, type Row } from "../../bench/results.js";

const row = (what: string, figure: string, extra: Partial<Row> = {}): Row => ({ what, figure, ...extra });

describe("bench/results.json: one row per measure", () => {
  it("a measure run again replaces its row, and the old row goes to the history", () => {
    const before = [row("ingestion: transfer rows/s, 3 runs", "60,000", { date: "2026-11-20T00:00:00Z", part: "transfers" }), row("pages p50", "1 ms", { date: "2026-11-20T00:00:00Z" })];
    const { rows, superseded } = mergeRows(before, [row("ingestion: transfer rows/s, 3 runs", "101,000", { part: "transfers", median: 101_000, min: 99_000, max: 104_000 })], "2026-11-27T00:00:00Z");
    expect(rows.map((r) => [r.what, r.figure, r.date])).toEqual([
      ["pages p50", "1 ms", "2026-11-20T00:00:00Z"],
      ["ingestion: transfer rows/s, 3 runs", "101,000", "2026-11-27T00:00:00Z"],
    ]);
    expect(rows[1]).toMatchObject({ median: 101_000, min: 99_000, max: 104_000 });
    expect(superseded.map((r) => r.figure)).toEqual(["60,000"]);
  });

  it("the machine's speed is one row per part, and a run that measures one thing twice keeps the later", () => {
    const speed = "machine speed: a plain JS loop, ns per iteration; the store's round trip (select 1), ms";
    const { rows, superseded } = mergeRows(
      [row(speed, "1.1 ns", { part: "transfers", date: "2026-11-20T00:00:00Z" })],
      [row(speed, "0.6 ns", { part: "snapshots" }), row("worker blocks/s", "150"), row("worker blocks/s", "210")],
      "2026-11-27T00:00:00Z",
    );
    expect(rows.map((r) => `${r.part ?? "-"} ${r.figure}`)).toEqual(["transfers 1.1 ns", "snapshots 0.6 ns", "- 210"]);
    expect(superseded).toEqual([]);
  });

  it("a measure no bench takes any more leaves the file at the next record of any part, into the history", () => {
    const old = row("ingestion: the store's ceiling, transfer rows/s: the better of two and four writers (two), PostgreSQL as installed", "73,728", { target: "≥ 100,000 (Postgres)", date: "2026-11-29T08:41:38Z" });
    const { rows, superseded } = mergeRows([old, row("pages p50", "1 ms", { date: "2026-11-20T00:00:00Z" })], [row("worker blocks/s", "210")], "2026-11-30T00:00:00Z");
    expect(rows.map((r) => r.what)).toEqual(["pages p50", "worker blocks/s"]);
    expect(superseded).toEqual([old]);
  });

  it("a store's scale is part of a measure, its exact row count is not", () => {
    expect([scaleOf(2_000_000), scaleOf(20_100_000), scaleOf(200_000_000), scaleOf(300_000)]).toEqual(["2M rows", "20M rows", "200M rows", "300k rows"]);
    expect(stableName("/pools (list) (22,986 B): share of bare Hono")).toBe(stableName("/pools (list) (23,001 B): share of bare Hono"));
    expect(stableName("account ?tokenId=7 (none among its 40,000; bounded scan)")).toBe("account ?tokenId=7 (none among its N; bounded scan)");
  });

  it("the committed file holds each measure once, every row dated", () => {
    const file = JSON.parse(readFileSync(new URL("../../bench/results.json", import.meta.url), "utf8")) as { rows: Row[] };
    const keys = file.rows.map(measureOf);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    // A measure whose name carries a size or a rate (bytes of a body, rows of a store, req/s)
    // must name itself without it (\`measure\`), or every run adds a row beside the last.
    const stable = keys.map(stableName);
    expect(stable.filter((k, i) => stable.indexOf(k) !== i)).toEqual([]);
    expect(file.rows.filter((r) => !r.date || Number.isNaN(Date.parse(r.date))).map((r) => r.what)).toEqual([]);
    expect(file.rows.filter((r) => RETIRED.some((x) => x.name.test(r.what))).map((r) => r.what)).toEqual([]);
  });
});
