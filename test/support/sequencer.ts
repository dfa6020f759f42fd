/**
 * Runs the slowest files first. A clean clone (CI) has no vitest cache, so vitest orders files
 * by size, and a 100–250 s file that starts last stretches the run by most of its length while
 * the other worker sits idle. Seconds measured on 2026-11-28, third session (2 workers, files
 * sharing their worker's modules, a full `.ci/run` on a clean clone: 1,724 s of vitest, 3,367 s
 * of tests, the machine otherwise quiet); files not listed
 * are each under 12 s and keep vitest's own order after these.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const MEASURED_SECONDS: Record<string, number> = {
  // Last: it waits for the type check the global setup started beside the build (27 s of tsc
  // alone), long done by then; first, it would hold a worker while tsc runs.
  "test/typecheck.test.ts": -1,
  "test/cli/cli.test.ts": 186, // 2026-11-29: 290 scaled by its time alone after/before the migrated-dump stores (mean of 3 pairs, 0.64)
  "test/cli/build.test.ts": 259, // 2026-11-29: 289 scaled (two tsc runs and an initdb fewer; 2 pairs, 0.90)
  "test/chaos/chaos.test.ts": 185,
  "test/indexer/upgrade-kill.test.ts": 177,
  "test/indexer/backfill-all.test.ts": 165,
  "test/cli/start.test.ts": 137,
  "test/api/transfer-filters.test.ts": 111,
  "test/indexer/upgrade.test.ts": 105,
  "test/indexer/backfill.test.ts": 98,
  "test/indexer/verify.test.ts": 86,
  "test/indexer/operations.test.ts": 76,
  "test/api/auth-budgets.test.ts": 74,
  "test/api/list-attacks.test.ts": 74,
  "test/indexer/follow.test.ts": 71,
  "test/api/server.test.ts": 50,
  "test/browser/dashboard.test.ts": 49,
  "test/shared/secret.test.ts": 47,
  "test/api/http-abuse.test.ts": 45,
  "test/deploy/nginx.test.ts": 45,
  "test/api/csv-abuse.test.ts": 44,
  "test/api/ws-fair-share.test.ts": 43,
  "test/api/auth.test.ts": 42,
  "test/api/snapshot-jobs.test.ts": 37,
  "test/indexer/sweep.test.ts": 36,
  "test/indexer/upgrade-attacks.test.ts": 36,
  "test/api/attack-review.test.ts": 35,
  "test/deploy/nginx-edge.test.ts": 35,
  "test/db/queries.test.ts": 35,
  "test/api/ws-budget.test.ts": 34,
  "test/api/fuzz.test.ts": 34,
  "test/api/candles-scale.test.ts": 34,
  "test/indexer/standby.test.ts": 30,
  "test/indexer/reread.test.ts": 30,
  "test/indexer/upgrade-backfill.test.ts": 27,
  "test/indexer/live.test.ts": 26,
  "test/api/snapshots.test.ts": 26,
  "test/indexer/devnet.test.ts": 25,
  "test/api/ws-abuse.test.ts": 25,
  "test/indexer/balance-parts.test.ts": 22,
  "test/api/db-freeze.test.ts": 20,
  "test/db/pglite-memory.test.ts": 20,
  "test/indexer/polkadot.test.ts": 20,
  "test/api/snapshot-budgets.test.ts": 19,
  "test/api/reads.test.ts": 17,
  "test/api/live.test.ts": 16,
  "test/api/db-fairness.test.ts": 15,
  "test/db/reconnect.test.ts": 14,
  "test/indexer/price-expiry.test.ts": 12,
  "test/db/partition-migration.test.ts": 12,
  "test/api/balances-at.test.ts": 12,
  "test/deploy/compose.test.ts": 12,
  "test/browser/docs.test.ts": 12,
  "test/api/coverage.test.ts": 12,
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => MEASURED_SECONDS[path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join("/")] ?? 0;
    // Array.prototype.sort is stable: equal (unlisted) files keep vitest's order.
    return base.sort((a, b) => seconds(b) - seconds(a));
  }
}
