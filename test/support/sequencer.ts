/**
 * Runs the slowest files first. A clean clone (CI) has no vitest cache, so vitest orders files
 * by size, and a 100–250 s file that starts last stretches the run by most of its length while
 * the other worker sits idle. Seconds measured on 2026-11-27 (2 workers, a full `.ci/run`: 1,037 s
 * of vitest on a machine doing little else; a loaded machine doubles every figure); files not
 * listed are each under 12 s and keep vitest's own order after these.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const MEASURED_SECONDS: Record<string, number> = {
  "test/cli/build.test.ts": 110,
  "test/chaos/chaos.test.ts": 91,
  "test/indexer/upgrade.test.ts": 82,
  "test/indexer/upgrade-kill.test.ts": 80,
  "test/indexer/operations.test.ts": 68,
  "test/api/list-attacks.test.ts": 60,
  "test/cli/start.test.ts": 58,
  "test/cli/cli.test.ts": 58,
  "test/indexer/follow.test.ts": 54,
  "test/deploy/nginx.test.ts": 53,
  "test/indexer/sweep.test.ts": 29,
  "test/indexer/verify.test.ts": 46,
  "test/api/attack-review.test.ts": 43,
  "test/indexer/backfill.test.ts": 39,
  // 210–440 s and 26 s measured at load average 11 (2026-11-27, four agents on 2 cores): a third to a half of that on a quiet machine.
  "test/indexer/backfill-all.test.ts": 120,
  "test/indexer/backfill-plan.test.ts": 13,
  "test/api/ws-fair-share.test.ts": 37,
  "test/indexer/standby.test.ts": 34,
  "test/indexer/reread.test.ts": 33,
  "test/indexer/balance-parts.test.ts": 32,
  "test/db/queries.test.ts": 32,
  "test/api/fuzz.test.ts": 31,
  "test/api/csv-abuse.test.ts": 31,
  "test/indexer/upgrade-attacks.test.ts": 30,
  "test/deploy/nginx-edge.test.ts": 30,
  "test/api/server.test.ts": 30,
  "test/api/transfer-filters.test.ts": 29,
  "test/api/auth.test.ts": 29,
  "test/api/http-abuse.test.ts": 28,
  "test/indexer/upgrade-backfill.test.ts": 26,
  "test/browser/dashboard.test.ts": 26,
  "test/api/candles-scale.test.ts": 25,
  "test/api/ws-abuse.test.ts": 23,
  "test/api/price-expiry.test.ts": 20,
  "test/api/db-freeze.test.ts": 19,
  "test/api/ws-budget.test.ts": 18,
  "test/api/snapshot-jobs.test.ts": 18,
  "test/api/lists.test.ts": 17,
  "test/api/snapshot-budgets.test.ts": 16,
  "test/indexer/devnet.test.ts": 15,
  "test/api/live.test.ts": 15,
  "test/indexer/live.test.ts": 14,
  "test/db/reconnect.test.ts": 14,
  "test/api/reads.test.ts": 14,
  "test/indexer/market.test.ts": 13,
  "test/shared/secret.test.ts": 12,
  "test/api/openapi.test.ts": 12,
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => MEASURED_SECONDS[path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join("/")] ?? 0;
    // Array.prototype.sort is stable: equal (unlisted) files keep vitest's order.
    return base.sort((a, b) => seconds(b) - seconds(a));
  }
}
