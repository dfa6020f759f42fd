/** BENCH_ROUTES: which routes the HTTP load and the reads under ingest measure; and the order of the reads under ingest's runs. */
import { expect, it } from "vitest";
import { ROUTES, wanted } from "../../bench/settings.js";
import { schedule } from "../../bench/under-ingest.js";

const measured = (only: string[] | undefined) => ROUTES.map(([label]) => label).filter((label) => wanted(label, only));

it("every route without BENCH_ROUTES; with it, the routes whose label contains one of its parts", () => {
  expect(measured(undefined)).toHaveLength(ROUTES.length);
  expect(measured(["/accounts/{address}"])).toEqual(["/accounts/{address}"]);
  expect(measured(["/oracle/value", "/pool/stats/{a}/{b}"])).toEqual(["/oracle/value/{id}", "/pool/stats/{a}/{b}", "/pool/stats/{a}/{b} by symbol"]);
  expect(measured(["no such route"])).toEqual([]);
});

it("reads under ingest alternate idle and busy runs, each pair in the other order than the last, as many of each", () => {
  expect(schedule(3)).toEqual(["idle", "busy", "busy", "idle", "idle", "busy"]);
  expect(schedule(5).filter((m) => m === "idle")).toHaveLength(5);
  expect(schedule(5).filter((m) => m === "busy")).toHaveLength(5);
});
