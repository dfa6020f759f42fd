/**
 * A runtime upgrade while the follower is behind (issue 24): a fake Polkadot Asset Hub node
 * (test/support/fake-node.ts) whose runtime goes from statemint 2,000,000 (A) to 2,003,001 (B:
 * Balances.TransferOnHold, LPFee as a Permill) at block 20 of 50. The store is bootstrapped at
 * block 5, then finality jumps to 50 and the follower catches up 45 blocks across the upgrade —
 * with 32 blocks fetched ahead and with 1. Every table is compared with the fake chain's own
 * state (plain values the blocks were built from, not a decoder's reading of them). On a
 * faithful node the follower must not fail even once (one session, no reconnect).
 *
 * On the code before issue 24's fix (2d78963) the cases with 32 blocks ahead fail: the blocks
 * fetched ahead get the first block's runtime (A), and block 21 — B's first, with a
 * Balances.TransferOnHold — fails "Unable to decode storage system.events … findMetaEvent:
 * Unable to find Event with index [10, 26]", every session again, the checkpoint stuck at 17.
 *
 * What is expected of a node that reports the new version one block late (`lateVersion`: its
 * state_getRuntimeVersion / state_getMetadata at U and U + 1 still answer A, while storage —
 * :code, System.LastRuntimeUpgrade, the events — is B's): the indexer never decodes a block
 * with a runtime other than the one that executed it: each block is decoded with its own
 * confirmed runtime (B's from the node's metadata at a later block that names B), the head is
 * reached, and every row it committed — blocks, transfers, swaps, holders, tokens, pools — is
 * what the chain's plain values say, with no event recorded as skipped.
 *
 * B's migration (its first block, U + 1) changes state without any event: a native balance and
 * a PINK balance of the issuer (an account no event ever names), PINK's supply, and the pool's
 * native reserve. The store must equal that state after the upgrade — at U + 1 (the market read
 * again there, its history rows) and at the head, once the verification pass the upgrade owes
 * is over (the balances) — which it does not if the post-upgrade re-read is skipped.
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import { afterEach, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { Codec } from "@polkadot/types/types";
import { sql, type SQL } from "drizzle-orm";
import { u8aToBigInt } from "@polkadot/util";
import { encodeAddress } from "@polkadot/util-crypto";
import { eventCoverage, getCheckpoint, getTask, type Database } from "../../db/index.js";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { UPGRADE_SWEEP_TASK } from "../../indexer/sweep.js";
import { loadConfig } from "../../shared/config.js";
import { assetHubRuntimes, SPEC_B, type BlockOps, type FakeChain, type RuntimeId } from "../support/fake-chain.js";
import { ACTORS, marketChain, PINK, USDT, type MarketOptions } from "../support/fake-market.js";
import { startFakeNode, type FakeNode, type FakeNodeOptions } from "../support/fake-node.js";
import type { RuntimeCodec } from "../support/fake-storage.js";
import { captureLog } from "../support/log.js";
import { describeDb, oneStore } from "../support/db.js";
import { until } from "../support/wait.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const BOOTSTRAP = 5;
const HEAD = 50;
const UPGRADE = 20;
/** B's first block: its migration runs there. */
const FIRST = UPGRADE + 1;
const DOT = 10_000_000_000n;
/** Catching up 45 blocks from the local fake takes 3–14 s on a loaded 2-core machine; not within this, it is stuck. */
const BOUND_MS = 20_000;
const ss58 = (hex: string) => encodeAddress(hex, 0);

let runtimes: Record<RuntimeId, RuntimeCodec>;
beforeAll(async () => {
  runtimes = await assetHubRuntimes();
});

/** One raw JSON-RPC call (no polkadot-js in between). */
async function rpcOf(node: FakeNode, method: string, params: unknown[]): Promise<unknown> {
  const socket = new WebSocket(node.url);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const reply = new Promise<{ result?: unknown; error?: unknown }>((resolve) => socket.once("message", (data) => resolve(JSON.parse(String(data)))));
  socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
  const { result, error } = await reply;
  socket.close();
  if (error) throw new Error(JSON.stringify(error));
  return result;
}

/** Rows of a raw query on either driver (PGlite answers { rows }, postgres.js an array). */
async function select<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

interface Run {
  node: FakeNode;
  follower: Follower;
  log: ReturnType<typeof captureLog>;
  /** Whether the follower reached the head within BOUND_MS. */
  reached: boolean;
  /** Whether the verification pass the upgrade owes was over (its marker gone) within BOUND_MS after that. */
  verified: boolean;
}

const open: { node?: FakeNode; follower?: Follower }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.follower?.stop();
    await o.node?.close();
  }
});

/** Bootstraps a store at block 5 of `chain`, then lets finality jump to the head and follows. */
async function follow(db: Database, chain: FakeChain, prefetchBlocks: number, nodeOptions: FakeNodeOptions = {}): Promise<Run> {
  const node = await startFakeNode(chain, { ...nodeOptions, finalized: BOOTSTRAP });
  const log = captureLog();
  const follower = new Follower(db, { oracle: oracleSettings(config), batchBlocks: 4, logger: log.logger, nativeTokenId: 0, wsUrl: node.url, historyHours: 0, retryMs: 50, heartbeatMs: 1_000, prefetchBlocks });
  open.push({ node, follower });
  follower.start();
  await until("the bootstrap at block 5", () => follower.status.block === BOOTSTRAP, BOUND_MS);
  node.finalize(HEAD);
  // Stuck: the head not reached within the bound, or a third session (two failed in a row: the
  // fake node never drops a connection, so every new session follows a failure).
  await until(`the follower at block ${HEAD} or stuck`, () => follower.status.block === HEAD || follower.status.sessions >= 3, BOUND_MS).catch(() => {});
  const reached = follower.status.block === HEAD;
  // The balances B's migration changed are the verification pass's to repair: wait for its end.
  const verified = reached && (await until("the upgrade's verification pass", async () => (await getTask(db, UPGRADE_SWEEP_TASK)) === undefined, BOUND_MS).then(() => true, () => false));
  await follower.stop();
  return { node, follower, log, reached, verified };
}

/** The follower's own account of why it did not reach the head: its warnings and errors. */
function why(run: Run): string {
  const lines = run.log.records().filter((r) => r.level >= 40);
  const distinct = [...new Set(lines.map((r) => `${r.msg}: ${r.err?.message ?? r.err ?? r.reason ?? ""}`))];
  return `stuck at block ${run.follower.status.block} after ${run.follower.status.sessions} sessions; its log:\n${distinct.slice(0, 5).join("\n")}`;
}

/** Every table the follower wrote, against the fake chain's state at the store's checkpoint. */
async function expectExactAt(db: Database, chain: FakeChain): Promise<number> {
  const cp = (await getCheckpoint(db))!;
  const block = chain.blocks[cp.blockNumber]!;
  expect(cp.blockHash).toBe(block.hash);
  const { state } = block;

  const blocks = await select<{ n: number; hash: string; ts: string }>(db, sql`select number::int as n, hash, timestamp::text as ts from blocks order by number`);
  expect(blocks.length).toBe(cp.blockNumber - BOOTSTRAP + 1);
  expect(blocks).toEqual(chain.blocks.slice(BOOTSTRAP, cp.blockNumber + 1).map((b) => ({ n: b.number, hash: b.hash, ts: String(b.timestamp / 1000) })));
  expect(await select(db, sql`select block_number::int, event, reason from skipped_events`)).toEqual([]);

  type Holder = { token: string; account: string; balance: string; free: string | null; reserved: string | null; frozen: string | null };
  const holders = await select<Holder>(db, sql`select token_id::text as token, account, balance::text as balance, free::text as free, reserved::text as reserved, frozen::text as frozen from holders order by token_id, account`);
  const expected = new Map<string, { balance: string; parts?: [bigint, bigint, bigint] }>();
  for (const [who, a] of state.native) if (a.free + a.reserved > 0n) expected.set(`0|${ss58(who)}`, { balance: String(a.free + a.reserved), parts: [a.free, a.reserved, a.frozen] });
  for (const asset of state.assets.values()) for (const [who, balance] of asset.balances) expected.set(`${asset.id}|${ss58(who)}`, { balance: String(balance) });
  expect(holders.length).toBe(expected.size);
  for (const h of holders) {
    const want = expected.get(`${h.token}|${h.account}`);
    expect(want, `holder ${h.token}|${h.account}`).toBeDefined();
    expect(h.balance, `balance of ${h.token}|${h.account}`).toBe(want!.balance);
    // The native parts, where the indexer keeps them (migration 0010).
    if (want!.parts && h.free !== null) expect([h.free, h.reserved, h.frozen], `parts of ${h.account}`).toEqual(want!.parts.map(String));
  }

  const tokens = await select<{ id: string; supply: string; accounts: string | null }>(db, sql`select id::text as id, supply::text as supply, accounts::text as accounts from tokens order by tokens.id`);
  const assets = [...state.assets.values()].sort((a, b) => a.id - b.id);
  expect(tokens.map((t) => [t.id, t.supply])).toEqual([["0", String(state.issuance())], ...assets.map((a) => [String(a.id), String(state.supply(a.id))])].sort((x, y) => Number(x[0]) - Number(y[0])));
  for (const t of tokens) if (t.accounts !== null && t.id !== "0") expect(t.accounts, `accounts of ${t.id}`).toBe(String(state.mustAsset(Number(t.id)).balances.size));

  const pools = await select(db, sql`select token0_id::text as t0, token1_id::text as t1, reserve0::text as r0, reserve1::text as r1, lp_supply::text as lp, lp_fee_ppm as fee from pools`);
  const reserves = state.reserves(USDT);
  expect(pools).toEqual([{ t0: "0", t1: String(USDT), r0: String(reserves.native), r1: String(reserves.asset), lp: String([...state.lpTokens.get(0)!.balances.values()].reduce((a, b) => a + b, 0n)), fee: 3000 }]);
  return cp.blockNumber;
}

/** The swap rows: one per SwapExecuted of the followed blocks, its LP fee 3000 ppm of the amount in. */
async function expectSwaps(db: Database, chain: FakeChain, upTo: number): Promise<number[]> {
  const rows = await select<Record<string, unknown>>(db, sql`select block_number::int as block, event_index as ev, token_in::text as "in", token_out::text as "out", amount_in::text as a, amount_out::text as b, fee::text as fee, account from swaps order by block_number, event_index, hop`);
  const expected = chain.blocks.slice(BOOTSTRAP + 1, upTo + 1).flatMap((b) =>
    b.events.flatMap((e, ev) => {
      if (e.method !== "SwapExecuted") return [];
      const [[first, amountIn], [, amountOut]] = e.fields.path as [[{ parents: number }, bigint], [unknown, bigint]];
      const nativeIn = first.parents === 1;
      return [{ block: b.number, ev, in: nativeIn ? "0" : String(USDT), out: nativeIn ? String(USDT) : "0", a: String(amountIn), b: String(amountOut), fee: String((amountIn * 3000n) / 1_000_000n), account: ss58(String(e.fields.who)) }];
    }),
  );
  expect(rows.length).toBe(expected.length);
  expect(rows).toEqual(expected);
  return rows.map((r) => r.block as number);
}

/** The accounts of the events only runtime B has were read again at (or after) those blocks. */
async function expectHoldEventsRead(db: Database, chain: FakeChain, upTo: number): Promise<void> {
  const holds = chain.blocks.slice(UPGRADE + 1, upTo + 1).filter((b) => b.events.some((e) => e.method === "TransferOnHold"));
  expect(holds.length).toBeGreaterThan(0);
  const last = holds[holds.length - 1]!.number;
  const rows = await select<{ account: string; block: number }>(db, sql`select account, block_number::int as block from holders where token_id = 0 and account in (${ss58(ACTORS.bob)}, ${ss58(ACTORS.charlie)}) order by account`);
  expect(rows.length).toBe(2);
  for (const r of rows) expect(r.block, `${r.account} read at the last TransferOnHold (block ${last}) or later`).toBeGreaterThanOrEqual(last);
}

/** B's migration: state written in its first block without any event. */
function migrate(b: BlockOps): void {
  const s = b.state;
  s.nativeOf(ACTORS.issuer).free += 2n * DOT;
  s.nativeOf(ACTORS.pool).free += 100n * DOT;
  s.mustAsset(PINK).balances.set(ACTORS.issuer, 7n * DOT);
}

/** What B's migration changed, as the store has it at B's first block: the chain's values there, not A's. */
async function expectMigrationRead(db: Database, chain: FakeChain): Promise<void> {
  const [before, after] = [chain.blocks[UPGRADE]!.state, chain.blocks[FIRST]!.state];
  // The migration changed them (else this proves nothing).
  expect([before.supply(PINK) !== after.supply(PINK), before.reserves(USDT).native !== after.reserves(USDT).native]).toEqual([true, true]);
  const asOf = async (query: SQL) => (await select<{ v: string }>(db, query))[0]?.v;
  const supply = await asOf(sql`select supply::text as v from token_history where id = ${PINK} and block_number <= ${FIRST} order by block_number desc limit 1`);
  const reserve = await asOf(sql`select reserve0::text as v from pool_reserves where token0_id = 0 and token1_id = ${USDT} and block_number <= ${FIRST} order by block_number desc limit 1`);
  const balance = (token: number) => asOf(sql`select balance::text as v from balance_history where not lp and token_id = ${token} and account = ${ss58(ACTORS.issuer)} and block_number <= ${FIRST} order by block_number desc limit 1`);
  const issuer = after.nativeOf(ACTORS.issuer);
  expect({ supply, reserve, native: await balance(0), pink: await balance(PINK) }, `as of block ${FIRST}`).toEqual({
    supply: String(after.supply(PINK)),
    reserve: String(after.reserves(USDT).native),
    native: String(issuer.free + issuer.reserved),
    pink: String(7n * DOT),
  });
}

/** The transfer rows: one per movement event of the followed blocks, as the chain's plain values state it. */
async function expectTransfers(db: Database, chain: FakeChain, upTo: number): Promise<void> {
  const rows = await select(db, sql`select t.block_number::int as block, t.event_index as ev, t.event, t.token_id::text as token, f.address as "from", d.address as "to", t.amount::text as amount from transfers t left join account_ids f on f.id = t.from_id left join account_ids d on d.id = t.to_id order by t.block_number, t.event_index`);
  const expected = chain.blocks.slice(BOOTSTRAP + 1, upTo + 1).flatMap((b) =>
    b.events.flatMap((e, ev) => {
      const f = e.fields;
      const row = (token: unknown, from: unknown, to: unknown) => [{ block: b.number, ev, event: `${e.section}.${e.method}`, token: String(token), from: ss58(String(from)), to: ss58(String(to)), amount: String(f.amount) }];
      if (e.section === "balances" && e.method === "Transfer") return row(0, f.from, f.to);
      if (e.method === "TransferOnHold") return row(0, f.source, f.dest);
      if (e.method === "Transferred") return row(f.assetId, f.from, f.to);
      return [];
    }),
  );
  expect(expected.some((r) => r.event === "balances.TransferOnHold")).toBe(true);
  expect(rows).toEqual(expected);
}

/** A faithful node: the head reached in one session, every table exact there, on both sides of the upgrade. */
async function expectCaughtUp(db: Database, chain: FakeChain, run: Run): Promise<void> {
  expect(run.reached, why(run)).toBe(true);
  expect(run.follower.status.sessions, `a faithful node never makes the follower fail and reconnect: ${why(run)}`).toBe(1);
  expect(run.follower.status.skippedEvents).toBe(0);
  expect(run.verified, `the upgrade's verification pass ended: ${why(run)}`).toBe(true);
  expect(await expectExactAt(db, chain)).toBe(HEAD);
  await expectMigrationRead(db, chain);
  await expectTransfers(db, chain, HEAD);
  const swapBlocks = await expectSwaps(db, chain, HEAD);
  expect(swapBlocks.some((n) => n < UPGRADE) && swapBlocks.some((n) => n > UPGRADE)).toBe(true);
  await expectHoldEventsRead(db, chain, HEAD);
  expect(run.node.unimplemented, "methods the fake node does not implement").toEqual([]);
  // Two runtimes: their metadata is fetched a few times per connection, never once per block.
  const downloads = (run.node.calls.get("state_getMetadata") ?? 0) + (run.node.calls.get("state_call:Metadata_metadata_at_version") ?? 0);
  expect(downloads, "metadata downloads").toBeLessThanOrEqual(8);
}

const market = (options: Partial<MarketOptions> = {}) => marketChain(runtimes, { blocks: HEAD, upgradeAt: UPGRADE, extra: (n, b) => n === FIRST && migrate(b), ...options });

it("the fake node answers as a Cumulus node does around an upgrade (the truth the follower is held to)", async () => {
  const chain = market();
  const node = await startFakeNode(chain, { lateVersion: false });
  const late = await startFakeNode(chain, { lateVersion: true });
  open.push({ node }, { node: late });
  const api = await ApiPromise.create({ provider: new WsProvider(node.url), noInitWarn: true });
  try {
    const hash = (n: number) => chain.blocks[n]!.hash;
    const spec = async (url: FakeNode, n: number) => ((await rpcOf(url, "state_getRuntimeVersion", [hash(n)])) as { specVersion: number }).specVersion;
    // The version at a block is its state's code: B from U on; U itself was still executed by A.
    expect(await Promise.all([UPGRADE - 1, UPGRADE, UPGRADE + 1].map((n) => spec(node, n)))).toEqual([2_000_000, SPEC_B, SPEC_B]);
    expect(await Promise.all([UPGRADE, UPGRADE + 1, UPGRADE + 2].map((n) => spec(late, n)))).toEqual([2_000_000, 2_000_000, SPEC_B]);
    const lastUpgrade = async (n: number) => ((await (await api.at(hash(n))).query.system.lastRuntimeUpgrade()).toJSON() as { specVersion: number }).specVersion;
    expect([await lastUpgrade(UPGRADE), await lastUpgrade(UPGRADE + 1)]).toEqual([2_000_000, SPEC_B]);
    const after = await api.at(hash(UPGRADE + 1));
    expect((await after.query.system.events()).map((e) => `${e.event.section}.${e.event.method}`)).toContain("balances.TransferOnHold");
    expect(after.consts.assetConversion.lpFee.toRawType()).toBe("Permill");
    const [issuance] = await api.rpc.state.queryStorageAt<[Codec]>([api.query.balances.totalIssuance.key()], hash(UPGRADE + 1));
    expect(u8aToBigInt(issuance!.toU8a(true), { isLe: true })).toBe(chain.blocks[UPGRADE + 1]!.state.issuance());
  } finally {
    await api.disconnect();
  }
});

describeDb("a runtime upgrade on a fake Asset Hub node, the follower 45 blocks behind", (ctx) => {
  for (const prefetch of [32, 1]) {
    it(`with ${prefetch} block(s) fetched ahead, every block up to the head is committed and every table equals chain state on both sides`, async () => {
      const chain = market();
      expect([chain.upgradeAt, chain.blocks[UPGRADE]!.executedBy, chain.blocks[UPGRADE]!.code, chain.blocks[UPGRADE + 1]!.executedBy]).toEqual([UPGRADE, "A", "B", "B"]);
      await expectCaughtUp(ctx.db, chain, await follow(ctx.db, chain, prefetch));
      // The events held: from the block after the bootstrap's (a snapshot: its state, not its events) to the head, no gap.
      expect(await eventCoverage(ctx.db)).toMatchObject({ first: { number: BOOTSTRAP + 1 }, last: HEAD, gaps: [] });
    });
  }

  it("when the applying block emits no system.CodeUpdated (only ValidationFunctionApplied), the blocks after it are still decoded by the new runtime", async () => {
    const chain = market({ codeUpdated: false });
    const applied = chain.blocks[UPGRADE]!.events.map((e) => `${e.section}.${e.method}`);
    expect(applied).toContain("parachainSystem.ValidationFunctionApplied");
    expect(applied).not.toContain("system.CodeUpdated");
    await expectCaughtUp(ctx.db, chain, await follow(ctx.db, chain, 32));
  });

  it("a node that reports the new version one block late: no block is decoded with the wrong runtime, the head past the upgrade is reached, and every committed row is the chain's", async () => {
    const chain = market();
    const run = await follow(ctx.db, chain, 32, { lateVersion: true });
    // A follower that decodes B's first block with A's types fails there and retries for ever: stuck before the head.
    expect(run.reached, why(run)).toBe(true);
    expect(run.follower.status.skippedEvents).toBe(0);
    expect(run.verified, `the upgrade's verification pass ended: ${why(run)}`).toBe(true);
    expect(await expectExactAt(ctx.db, chain)).toBe(HEAD);
    await expectMigrationRead(ctx.db, chain);
    await expectTransfers(ctx.db, chain, HEAD);
    const swapBlocks = await expectSwaps(ctx.db, chain, HEAD);
    expect(swapBlocks.some((n) => n > FIRST)).toBe(true);
    await expectHoldEventsRead(ctx.db, chain, HEAD);
    expect(run.node.unimplemented, "methods the fake node does not implement").toEqual([]);
  });
}, oneStore("postgres"));
