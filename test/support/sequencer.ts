/**
 * Runs the slowest files first. A clean clone (CI) has no vitest cache, so vitest orders files
 * by size, and a 100–250 s file that starts last stretches the run by most of its length while
 * the other worker sits idle. Seconds measured on 2026-11-28, second session (2 workers, a full `.ci/run` on a
 * clean clone: 2,169 s of vitest, 3,765 s of tests, the machine otherwise quiet); files not listed
 * are each under 12 s and keep vitest's own order after these.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const MEASURED_SECONDS: Record<string, number> = {
  "test/cli/cli.test.ts": 269,
  "test/cli/build.test.ts": 261,
  "test/indexer/upgrade-kill.test.ts": 166,
  "test/chaos/chaos.test.ts": 161,
  "test/cli/start.test.ts": 145,
  "test/indexer/backfill-all.test.ts": 143,
  "test/indexer/operations.test.ts": 124,
  "test/indexer/upgrade.test.ts": 109,
  "test/indexer/verify.test.ts": 96,
  "test/indexer/follow.test.ts": 88,
  "test/indexer/backfill.test.ts": 84,
  "test/api/auth-budgets.test.ts": 72,
  "test/api/list-attacks.test.ts": 68,
  "test/browser/dashboard.test.ts": 67,
  "test/api/auth.test.ts": 65,
  "test/api/csv-abuse.test.ts": 61,
  "test/indexer/sweep.test.ts": 59,
  "test/indexer/upgrade-backfill.test.ts": 57,
  "test/indexer/upgrade-attacks.test.ts": 54,
  "test/api/ws-fair-share.test.ts": 51,
  "test/indexer/reread.test.ts": 49,
  "test/deploy/nginx.test.ts": 49,
  "test/api/transfer-filters.test.ts": 44,
  "test/api/server.test.ts": 44,
  "test/api/snapshot-jobs.test.ts": 43,
  "test/api/ws-budget.test.ts": 39,
  "test/api/http-abuse.test.ts": 39,
  "test/db/queries.test.ts": 36,
  "test/api/fuzz.test.ts": 35,
  "test/indexer/standby.test.ts": 34,
  "test/deploy/nginx-edge.test.ts": 34,
  "test/shared/secret.test.ts": 30,
  "test/api/attack-review.test.ts": 30,
  "test/api/ws-abuse.test.ts": 29,
  "test/api/candles-scale.test.ts": 28,
  "test/api/snapshots.test.ts": 26,
  "test/api/snapshot-budgets.test.ts": 26,
  "test/api/errors.test.ts": 26,
  "test/indexer/devnet.test.ts": 25,
  "test/indexer/polkadot.test.ts": 24,
  "test/indexer/balance-parts.test.ts": 24,
  "test/api/reads.test.ts": 24,
  "test/api/live.test.ts": 22,
  "test/api/db-freeze.test.ts": 22,
  "test/api/balances-at.test.ts": 22,
  "test/api/transfers.test.ts": 20,
  "test/api/market.test.ts": 20,
  "test/api/db-fairness.test.ts": 20,
  "test/api/price-expiry.test.ts": 19,
  "test/indexer/price-expiry.test.ts": 18,
  "test/browser/docs.test.ts": 18,
  "test/api/coverage.test.ts": 18,
  "client/test/client.test.ts": 18,
  "test/indexer/live.test.ts": 17,
  "test/indexer/devnet-fallback.test.ts": 17,
  "test/db/pglite-memory.test.ts": 17,
  "test/api/portfolio-at.test.ts": 16,
  "test/api/openapi.test.ts": 16,
  "test/api/metrics.test.ts": 16,
  "test/indexer/market.test.ts": 15,
  "test/indexer/asof-after-upgrade.test.ts": 15,
  "test/deploy/compose.test.ts": 15,
  "test/db/reconnect.test.ts": 15,
  "test/db/partitions.test.ts": 15,
  "test/api/server-edges.test.ts": 15,
  "test/indexer/sweep-retry-stop.test.ts": 14,
  "test/indexer/backfill-plan.test.ts": 14,
  "test/api/review-fixes.test.ts": 14,
  "test/api/fast-path.test.ts": 14,
  "test/indexer/upgrade-sweep-off.test.ts": 13,
  "test/db/transfer-walk.test.ts": 13,
  "test/api/snapshot.test.ts": 13,
  "test/api/snapshot-retries.test.ts": 13,
  "test/indexer/upgrade-fake.test.ts": 12,
  "test/indexer/store.test.ts": 12,
  "test/db/partition-migration.test.ts": 12,
  "test/db/event-ranges.test.ts": 12,
  "test/api/input.test.ts": 12,
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => MEASURED_SECONDS[path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join("/")] ?? 0;
    // Array.prototype.sort is stable: equal (unlisted) files keep vitest's order.
    return base.sort((a, b) => seconds(b) - seconds(a));
  }
}
