/**
 * The skip of chunks a previous run completed, at a whole chain's size: `backfill --all` of an
 * Asset Hub of 18M blocks with `--chunk 100` plans 180,000 chunks.
 */
import { expect, it } from "vitest";
import { recordEventRanges } from "../../db/index.js";
import { coveredChunks, MAX_CHUNKS, planChunks } from "../../indexer/backfill-plan.js";
import { describeDb, oneStore } from "../support/db.js";

describeDb("chunks already indexed (coveredChunks)", (ctx) => {
  it("are found among 180,000 chunks (a spread of that many arguments overflows the stack), the ones inside a recorded range only", async () => {
    const chunks = planChunks([{ from: 1, to: 18_000_000, specName: "statemint", specVersion: 1 }], 100);
    // Cut where each partition begins (every 1,000,000 blocks): block 18,000,000 is a chunk of its own.
    expect(chunks).toHaveLength(180_001);
    await recordEventRanges(ctx.db, [{ fromBlock: 17_999_851, toBlock: 18_000_000 }, { fromBlock: 1, toBlock: 250 }]);
    const covered = await coveredChunks(ctx.db, chunks);
    expect([...covered].map((c) => `${c.from}-${c.to}`).sort()).toEqual(["1-100", "101-200", "17999900-17999999", "18000000-18000000"]);
  });
}, oneStore("pglite"));

it("a plan of more chunks than MAX_CHUNKS is refused before any is built, naming the --chunk that fits", () => {
  const chain = [{ from: 1, to: 10_000_000, specName: "statemint", specVersion: 1 }, { from: 10_000_001, to: 18_000_000, specName: "statemint", specVersion: 2 }];
  expect(() => planChunks(chain, 1)).toThrow(`18000000 blocks in chunks of 1 are 18000000 chunks, more than ${MAX_CHUNKS}: give --chunk 91 or more`);
  // Each runtime's blocks cut where a partition begins: 1–999,999, then whole millions, then 10,000,000 alone; 10,000,001–10,999,999, …, 18,000,000 alone.
  const pieces = [999_999, ...Array(9).fill(1_000_000), 1, 999_999, ...Array(7).fill(1_000_000), 1];
  expect(planChunks(chain, 91)).toHaveLength(pieces.reduce((n, blocks) => n + Math.ceil(blocks / 91), 0));
});
