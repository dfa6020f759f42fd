/**
 * SIGKILL at a runtime upgrade (issue 24's attack, issue 39's sweep): a real `tokenpool indexer`
 * process follows the fake Polkadot Asset Hub node (statemint 2,000,000 → 2,003,001 applied by
 * block 21; block 22, B's first, migrates state without events) and is killed — at the log line
 * that says the upgrade was met (the batch ending at block 22 in its commit), when the
 * verification pass the upgrade owes begins (after that commit), at its first repair (found, not
 * yet committed), and after the pass's last transaction. A second process on the same PGlite
 * directory must reach the head and, once the owed pass has ended (in either process), hold a
 * store equal to the chain's state there — with one bootstrap in all and no new snapshot.
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
  const env = { ...process.env, WS_URL: wsUrl, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "debug", INDEXER_BATCH_BLOCKS: "4", ORACLE_MIN_LIQUIDITY_USD: "1", INDEXER_HISTORY_HOURS: "0" };
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
/** At the head: a batch up to it, or (the first process got there already) following from it. */
const atHead = (ix: Indexer) => committed(ix) === HEAD || ix.lines.some((l) => l.msg === "indexer: following finalized heads" && l.block === HEAD);
const count = (ix: Indexer[], msg: string) => ix.reduce((n, i) => n + i.lines.filter((l) => l.msg === msg).length, 0);

const UPGRADE_MSG = "indexer: runtime upgrade; the store is verified against chain storage from this block while following goes on";
const PASS_DONE = "indexer: verification pass done: the store was compared with chain storage in full";
/** Whether `ix` ended the verification pass the upgrade at B's first block owes. */
const verified = (ix: Indexer) => ix.lines.some((l) => l.msg === PASS_DONE && l.upgrade === FIRST);

/** Where the first process is killed: the line after which, and what has happened by then. */
const KILLS: [string, (line: Record<string, any>, seen: { upgrade: boolean }) => boolean][] = [
  ["at the upgrade block (the batch ending at B's first block in its commit)", (l) => l.msg === UPGRADE_MSG],
  ["after that batch's commit, as the owed verification pass begins", (l) => l.msg === "indexer: verifying the store against chain storage from a runtime upgrade (its migrations announce nothing)"],
  ["at the pass's first repair (found, not committed)", (l, seen) => seen.upgrade && l.msg === "indexer: the store differed from chain storage; repairing"],
  ["after the pass's last transaction (its end committed)", (l, seen) => seen.upgrade && l.msg === PASS_DONE && l.upgrade === FIRST],
];

for (const [when, kill] of KILLS) {
  it(`SIGKILL ${when}: the restarted indexer reaches the head and, the pass ended, equals the chain; one bootstrap, no new snapshot`, async () => {
    const node: FakeNode = await startFakeNode(chain, { finalized: 5, latencyMs: 10 });
    cleanup.push(() => node.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), "tokenpool-upgrade-kill-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const seen = { upgrade: false };
    let killedAt: Record<string, any> | undefined;
    const first = spawnIndexer(node.url, dataDir, (line, me) => {
      if (line.msg === UPGRADE_MSG) seen.upgrade = true;
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
    await until(`the second process at block ${HEAD}, the upgrade's pass ended`, () => (atHead(second) && (verified(first) || verified(second))) || second.child.exitCode !== null, BOUND_MS);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const errors = second.lines.filter((l) => l.level >= 50);
    expect(errors, "error lines of the second process").toEqual([]);
    // One bootstrap in all: an upgrade takes no new snapshot.
    expect(count([first, second], "bootstrap: done")).toBe(1);
    expect(count([second], UPGRADE_MSG)).toBeLessThanOrEqual(1);
    // Killed before the pass's end was committed (its line comes after): the second process ends it (it was on record, not lost).
    if (killedAt!.msg !== PASS_DONE) expect(verified(second), "the owed pass ended in the second process").toBe(true);

    const store = await createDb({ dataDir });
    try {
      expect(await expectStoreEqualsChain(store.db, chain)).toBe(HEAD);
    } finally {
      await store.close();
    }
  }, 4 * BOUND_MS);
}
