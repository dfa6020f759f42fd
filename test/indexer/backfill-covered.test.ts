/**
 * The skip of chunks a previous run completed, at a whole chain's size: `backfill --all` of an
 * Asset Hub of 18M blocks with `--chunk 100` plans 180,000 chunks.
 */
import { expect, it } from "vitest";
import { recordEventRanges } from "../../db/index.js";
import { coveredChunks, planChunks } from "../../indexer/backfill-plan.js";
import { describeDb, oneStore } from "../support/db.js";

describeDb("chunks already indexed (coveredChunks)", (ctx) => {
  it("are found among 180,000 chunks (a spread of that many arguments overflows the stack), the ones inside a recorded range only", async () => {
    const chunks = planChunks([{ from: 1, to: 18_000_000, specName: "statemint", specVersion: 1 }], 100);
    expect(chunks).toHaveLength(180_000);
    await recordEventRanges(ctx.db, [{ fromBlock: 17_999_851, toBlock: 18_000_000 }, { fromBlock: 1, toBlock: 250 }]);
    const covered = await coveredChunks(ctx.db, chunks);
    expect([...covered].map((c) => `${c.from}-${c.to}`).sort()).toEqual(["1-100", "101-200", "17999901-18000000"]);
  });
}, oneStore("pglite"));
