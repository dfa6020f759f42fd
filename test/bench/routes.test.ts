/** BENCH_ROUTES: which routes the HTTP load and the reads under ingest measure. */
import { expect, it } from "vitest";
import { ROUTES, wanted } from "../../bench/settings.js";

const measured = (only: string[] | undefined) => ROUTES.map(([label]) => label).filter((label) => wanted(label, only));

it("every route without BENCH_ROUTES; with it, the routes whose label contains one of its parts", () => {
  expect(measured(undefined)).toHaveLength(ROUTES.length);
  expect(measured(["/accounts/{address}"])).toEqual(["/accounts/{address}"]);
  expect(measured(["/oracle/value", "/pool/stats/{a}/{b}"])).toEqual(["/oracle/value/{id}", "/pool/stats/{a}/{b}", "/pool/stats/{a}/{b} by symbol"]);
  expect(measured(["no such route"])).toEqual([]);
});
