/**
 * Runs the slowest files first. A clean clone (CI) has no vitest cache, so vitest orders files
 * by size, and a 100–250 s file that starts last stretches the run by most of its length while
 * the other worker sits idle. Seconds measured on 2026-11-26 (2 workers, a full run); files not
 * listed are each under 15 s and keep vitest's own order after these.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const MEASURED_SECONDS: Record<string, number> = {
  "test/chaos/chaos.test.ts": 80,
  "test/cli/build.test.ts": 115,
  "test/indexer/upgrade.test.ts": 107,
  "test/indexer/operations.test.ts": 94,
  "test/cli/start.test.ts": 88,
  "test/indexer/upgrade-backfill.test.ts": 42,
  "test/indexer/upgrade-kill.test.ts": 65,
  "test/indexer/upgrade-attacks.test.ts": 35,
  "test/cli/cli.test.ts": 58,
  "test/indexer/follow.test.ts": 50,
  "test/indexer/backfill.test.ts": 50,
  "test/indexer/verify.test.ts": 45,
  "test/api/candles-scale.test.ts": 42,
  "test/api/auth.test.ts": 33,
  "test/browser/dashboard.test.ts": 32,
  "test/indexer/devnet.test.ts": 27,
  "test/api/fuzz.test.ts": 26,
  "test/indexer/upgrade-fake.test.ts": 10,
  "test/indexer/standby.test.ts": 25,
  "test/indexer/reread.test.ts": 25,
  "test/db/queries.test.ts": 25,
  "test/api/ws-abuse.test.ts": 25,
  "test/api/server.test.ts": 21,
  "test/api/ws-budget.test.ts": 20,
  "test/api/http-abuse.test.ts": 20,
  "test/api/db-freeze.test.ts": 19,
  "test/indexer/polkadot.test.ts": 18,
  "test/api/balances-at.test.ts": 18,
  "test/indexer/live.test.ts": 17,
  "test/indexer/balance-parts.test.ts": 17,
  "test/indexer/price-expiry.test.ts": 16,
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => MEASURED_SECONDS[path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join("/")] ?? 0;
    // Array.prototype.sort is stable: equal (unlisted) files keep vitest's order.
    return base.sort((a, b) => seconds(b) - seconds(a));
  }
}
