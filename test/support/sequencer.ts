/**
 * Runs the slowest files first. A clean clone (CI) has no vitest cache, so vitest orders files
 * by size, and a 100–250 s file that starts last stretches the run by most of its length while
 * the other worker sits idle. Seconds measured on 2026-11-27 (2 workers, a full `.ci/run`); files not
 * listed are each under 15 s and keep vitest's own order after these.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const MEASURED_SECONDS: Record<string, number> = {
  "test/cli/build.test.ts": 188,
  "test/chaos/chaos.test.ts": 168,
  "test/indexer/upgrade.test.ts": 157,
  "test/cli/cli.test.ts": 145,
  "test/indexer/operations.test.ts": 134,
  "test/cli/start.test.ts": 127,
  "test/indexer/upgrade-kill.test.ts": 121,
  "test/indexer/follow.test.ts": 91,
  "test/indexer/verify.test.ts": 83,
  "test/indexer/backfill.test.ts": 74,
  "test/api/candles-scale.test.ts": 67,
  "test/browser/dashboard.test.ts": 51,
  "test/indexer/upgrade-backfill.test.ts": 49,
  "test/api/fuzz.test.ts": 42,
  "test/indexer/upgrade-attacks.test.ts": 38,
  "test/api/auth.test.ts": 37,
  "test/indexer/standby.test.ts": 36,
  "test/indexer/devnet.test.ts": 36,
  "test/indexer/reread.test.ts": 33,
  "test/api/attack-review.test.ts": 32,
  "test/api/http-abuse.test.ts": 31,
  "test/db/queries.test.ts": 30,
  "test/indexer/balance-parts.test.ts": 29,
  "test/api/server.test.ts": 29,
  "test/indexer/live.test.ts": 28,
  "test/api/ws-budget.test.ts": 27,
  "test/api/ws-abuse.test.ts": 25,
  "test/indexer/polkadot.test.ts": 24,
  "test/api/snapshots.test.ts": 24,
  "test/api/snapshot-jobs.test.ts": 23,
  "test/api/reads.test.ts": 23,
  "test/api/live.test.ts": 20,
  "test/api/db-freeze.test.ts": 20,
  "test/indexer/price-expiry.test.ts": 18,
  "test/api/errors.test.ts": 18,
  "test/indexer/devnet-fallback.test.ts": 17,
  "test/api/transfers.test.ts": 15,
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => MEASURED_SECONDS[path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join("/")] ?? 0;
    // Array.prototype.sort is stable: equal (unlisted) files keep vitest's order.
    return base.sort((a, b) => seconds(b) - seconds(a));
  }
}
