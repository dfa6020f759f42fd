/** The sweep's metrics read the follower's status at each scrape: differences by table and kind, passes, the last pass. */
import { expect, it } from "vitest";
import { IndexerMetrics } from "../../shared/metrics.js";

it("exposes the differences the sweep repaired by table and kind, passes ended, and the last pass's length and end", async () => {
  const metrics = new IndexerMetrics();
  const status = { block: 10, finalized: 10, blockTime: null, blocksIndexed: 0, skippedEvents: 0, progress: {}, sweep: { passes: 0, drift: {} as Record<string, number>, lastPass: null as null | { seconds: number; endedAt: number } } };
  metrics.attach(() => status);
  const text = () => metrics.registry.metrics();
  expect(await text()).toContain("tokenpool_indexer_sweep_passes_total 0");
  status.sweep = { passes: 2, drift: { "holders.ghost": 3, "pools.wrong": 1 }, lastPass: { seconds: 842.5, endedAt: 1_795_000_000 } };
  const out = await text();
  expect(out).toContain('tokenpool_indexer_sweep_drift_total{table="holders",kind="ghost"} 3');
  expect(out).toContain('tokenpool_indexer_sweep_drift_total{table="pools",kind="wrong"} 1');
  expect(out).toContain("tokenpool_indexer_sweep_passes_total 2");
  expect(out).toContain("tokenpool_indexer_sweep_last_pass_seconds 842.5");
  expect(out).toContain("tokenpool_indexer_sweep_last_pass_end_timestamp_seconds 1795000000");
});
