import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SlowFirst from "./test/support/sequencer.js";

// Files in parallel, at least two: the chain-backed suites spend much of their time waiting on
// blocks and child processes, and vitest's default (cores - 1) runs them one by one on 2 cores.
const workers = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "client/test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Files share their worker's modules (no fresh fork per file): 30 s of imports a run instead of
    // 517 s (@polkadot/api alone is ≈ 2.8 s a process). Each file still opens its own stores,
    // chains and servers, and closes them in its hooks.
    isolate: false,
    maxWorkers: workers,
    // The slowest files first (measured), so that none of them starts last and runs alone.
    sequence: { sequencer: SlowFirst },
    // The second lists every skipped test at the end, and fails CI on one for a missing prerequisite.
    reporters: ["default", "./test/support/skips-reporter.ts"],
  },
});
