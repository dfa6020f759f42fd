/**
 * SIGKILL at a runtime upgrade (issue 24's attack): a real `tokenpool indexer` process follows
 * the fake Polkadot Asset Hub node (statemint 2,000,000 → 2,003,001 applied by block 21; block
 * 22, B's first, migrates state without events) and is killed — at the log line that says the
 * upgrade was met (the batch ending at block 22 in its commit), after that commit (the new
 * snapshot scheduled, not begun), after the snapshot's first page, and after the snapshot's last
 * transaction. A second process on the same PGlite directory must reach the head with the store
 * equal to the chain's state there, and the new snapshot must be completed exactly once across
 * the two processes (no second one, no loop).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, expect, it } from "vitest";
import { createDb } from "../../db/index.js";
import { account, assetHubRuntimes, type FakeChain } from "../support/fake-chain.js";
import { ACTORS, marketChain, PINK } from "../support/fake-market.js";
import { startFakeNode, type FakeNode } from "../support/fake-node.js";
import { expectStoreEqualsChain } from "../support/upgrade-store.js";
import { until } from "../support/wait.js";

const HEAD = 50;
const UPGRADE = 21;
const FIRST = UPGRADE + 1;
const DOT = 10_000_000_000n;
const FRANK = account("frank");
const BOUND_MS = 60_000;

let chain: FakeChain;
beforeAll(async () => {
  chain = marketChain(await assetHubRuntimes(), {
    blocks: HEAD,
    upgradeAt: UPGRADE,
    extra: (n, b) => {
      if (n === 1) b.assetTransfer(PINK, ACTORS.alice, FRANK, 5n * DOT);
      if (n !== FIRST) return;
      // B's migration: no event names any of it.
      b.state.nativeOf(ACTORS.erin).free += 3n * DOT;
      b.state.nativeOf(ACTORS.pool).free += 100n * DOT;
      b.state.mustAsset(PINK).balances.delete(FRANK);
    },
  });
});

/** One indexer process: its parsed log lines, and a way to wait for one. */
interface Indexer {
  child: ChildProcess;
  lines: Record<string, any>[];
  exited: Promise<NodeJS.Signals | number | null>;
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function spawnIndexer(wsUrl: string, dataDir: string, onLine: (line: Record<string, any>, me: Indexer) => void = () => {}): Indexer {
  const env = { ...process.env, WS_URL: wsUrl, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info", INDEXER_BATCH_BLOCKS: "4", ORACLE_MIN_LIQUIDITY_USD: "1", INDEXER_HISTORY_HOURS: "0" };
  // node itself (bin/tokenpool.mjs imports the build in-process), not a wrapper: SIGKILL must hit the indexer.
  const child = spawn(process.execPath, ["bin/tokenpool.mjs", "indexer"], { env, stdio: ["ignore", "pipe", "ignore"] });
  const me: Indexer = { child, lines: [], exited: new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code))) };
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const l of lines) {
      if (!l.startsWith("{")) continue;
      const line = JSON.parse(l) as Record<string, any>;
      me.lines.push(line);
      onLine(line, me);
    }
  });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await me.exited;
  });
  return me;
}

const committed = (ix: Indexer) => Math.max(0, ...ix.lines.filter((l) => l.msg === "indexer: batch committed").map((l) => l.to as number));
const count = (ix: Indexer[], msg: string) => ix.reduce((n, i) => n + i.lines.filter((l) => l.msg === msg).length, 0);

/** Where the first process is killed: the line after which, and what has happened by then. */
const KILLS: [string, (line: Record<string, any>, seen: { upgrade: boolean }) => boolean][] = [
  ["at the upgrade block (the batch ending at B's first block in its commit)", (l) => l.msg === "indexer: runtime upgrade; reading state again after this block"],
  ["after that batch's commit, the new snapshot scheduled and not begun", (l) => l.msg === "indexer: state changed without events: reading it again"],
  ["in the new snapshot, after its first page", (l, seen) => seen.upgrade && l.msg === "bootstrap: reading balances"],
  ["after the new snapshot's last transaction", (l, seen) => seen.upgrade && l.msg === "bootstrap: done"],
];

for (const [when, kill] of KILLS) {
  it(`SIGKILL ${when}: the restarted indexer reaches the head, equal to the chain, the snapshot taken once`, async () => {
    const node: FakeNode = await startFakeNode(chain, { finalized: 5, latencyMs: 10 });
    cleanup.push(() => node.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), "tokenpool-upgrade-kill-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const seen = { upgrade: false };
    let killedAt: Record<string, any> | undefined;
    const first = spawnIndexer(node.url, dataDir, (line, me) => {
      if (line.msg === "indexer: runtime upgrade; reading state again after this block") seen.upgrade = true;
      if (!killedAt && kill(line, seen)) {
        killedAt = line;
        me.child.kill("SIGKILL");
      }
    });
    await until("the first process's bootstrap", () => first.lines.some((l) => l.msg === "indexer: following finalized heads"), BOUND_MS);
    node.finalize(HEAD);
    expect(await Promise.race([first.exited, new Promise((r) => setTimeout(() => r("alive"), BOUND_MS))])).toBe("SIGKILL");
    expect(killedAt).toBeDefined();

    const second = spawnIndexer(node.url, dataDir);
    await until(`the second process at block ${HEAD}`, () => committed(second) === HEAD || second.child.exitCode !== null, BOUND_MS);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const errors = second.lines.filter((l) => l.level >= 50);
    expect(errors, "error lines of the second process").toEqual([]);
    // The initial bootstrap and the upgrade's new snapshot, each completed once in all.
    expect(count([first, second], "bootstrap: done")).toBe(2);
    expect(count([second], "indexer: runtime upgrade; reading state again after this block")).toBeLessThanOrEqual(1);
    // Killed mid-snapshot: the same snapshot continues after its last page, not a new one.
    if (killedAt!.msg === "bootstrap: reading balances") expect(second.lines.filter((l) => l.msg === "bootstrap: resuming the snapshot where it stopped").map((l) => l.block)).toEqual([FIRST]);

    const store = await createDb({ dataDir });
    try {
      expect(await expectStoreEqualsChain(store.db, chain)).toBe(HEAD);
    } finally {
      await store.close();
    }
  }, 4 * BOUND_MS);
}
