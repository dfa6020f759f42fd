import { expect, it } from "vitest";
import { backfillOptions } from "../../cli/backfill.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";

it("a backfill fetches INDEXER_PREFETCH_BLOCKS blocks ahead, as the follower does (far nodes need more than 32)", () => {
  const logger = createLogger("silent", "test");
  expect(backfillOptions(loadConfig({ INDEXER_PREFETCH_BLOCKS: "128" }), logger).prefetchBlocks).toBe(128);
  expect(backfillOptions(loadConfig({}), logger).prefetchBlocks).toBe(32);
});
