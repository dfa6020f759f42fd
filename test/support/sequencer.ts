/**
 * Runs the slowest files first. A clean clone (CI) has no vitest cache, so vitest orders files
 * by size, and a 100–250 s file that starts last stretches the run by most of its length while
 * the other worker sits idle. Seconds measured on 2026-11-28 (2 workers, a full `.ci/run` on a
 * clean clone: 1,624 s of vitest, 2,919 s of tests, the machine nearly quiet); files not listed
 * are each under 12 s and keep vitest's own order after these.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const MEASURED_SECONDS: Record<string, number> = {
  "test/indexer/upgrade.test.ts": 158,
  "test/indexer/backfill-all.test.ts": 156,
  "test/cli/start.test.ts": 148,
  "test/cli/cli.test.ts": 140,
  "test/indexer/operations.test.ts": 134,
  "test/chaos/chaos.test.ts": 120,
  "test/cli/build.test.ts": 115,
  "test/indexer/upgrade-kill.test.ts": 98,
  "test/indexer/follow.test.ts": 81,
  "test/api/list-attacks.test.ts": 71,
  "test/api/transfer-filters.test.ts": 70,
  "test/indexer/verify.test.ts": 61,
  "test/indexer/backfill.test.ts": 53,
  "test/indexer/reread.test.ts": 51,
  "test/api/csv-abuse.test.ts": 49,
  "test/browser/dashboard.test.ts": 48,
  "test/indexer/upgrade-backfill.test.ts": 44,
  "test/indexer/sweep.test.ts": 44,
  "test/deploy/nginx.test.ts": 43,
  "test/api/auth-budgets.test.ts": 41,
  "test/indexer/upgrade-attacks.test.ts": 40,
  "test/api/ws-fair-share.test.ts": 38,
  "test/indexer/standby.test.ts": 36,
  "test/api/http-abuse.test.ts": 36,
  "test/api/auth.test.ts": 36,
  "test/api/fuzz.test.ts": 34,
  "test/api/snapshot-jobs.test.ts": 34,
  "test/db/queries.test.ts": 32,
  "test/deploy/nginx-edge.test.ts": 31,
  "test/api/candles-scale.test.ts": 29,
  "test/api/ws-budget.test.ts": 27,
  "test/api/server.test.ts": 27,
  "test/indexer/balance-parts.test.ts": 26,
  "test/api/ws-abuse.test.ts": 25,
  "test/indexer/polkadot.test.ts": 24,
  "test/api/snapshots.test.ts": 24,
  "test/indexer/devnet.test.ts": 24,
  "test/shared/secret.test.ts": 22,
  "test/api/db-freeze.test.ts": 20,
  "test/indexer/price-expiry.test.ts": 20,
  "test/api/attack-review.test.ts": 20,
  "test/indexer/live.test.ts": 20,
  "test/api/live.test.ts": 18,
  "test/api/reads.test.ts": 16,
  "test/indexer/devnet-fallback.test.ts": 16,
  "test/api/transfers.test.ts": 15,
  "test/api/snapshot-budgets.test.ts": 15,
  "test/api/errors.test.ts": 14,
  "test/indexer/upgrade-fake.test.ts": 14,
  "test/api/db-fairness.test.ts": 14,
  "test/api/balances-at.test.ts": 13,
  "test/db/reconnect.test.ts": 13,
  "test/api/portfolio-at.test.ts": 13,
  "test/db/pglite-memory.test.ts": 13,
  "test/indexer/backfill-plan.test.ts": 12,
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
