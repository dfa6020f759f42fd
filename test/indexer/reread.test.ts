/**
 * State that changes without an event naming the accounts, on the real runtime under chopsticks:
 * a refund that burns a balance (statemine 1,000,000 emits only balances.Unreserved and leaves
 * the supply as it was), an asset whose destruction is in progress and whose accounts are then
 * destroyed (AccountsDestroyed names none), one with more accounts than a destroyAccounts call
 * removes (the rest read again page by page after the batch), and a storage write such as a
 * migration makes (no event at all). After each, every table of a follower on PGlite and on Postgres equals chain
 * storage at its checkpoint, holder counts included.
 */
import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { u8aToHex } from "@polkadot/util";
import { blake2AsU8a } from "@polkadot/util-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, getTask, type DbHandle } from "../../db/index.js";
import { devKeyring, DEV_NAMES, fund } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { createSubmitter, type Submitter } from "../../indexer/devnet/submitter.js";
import { Follower } from "../../indexer/follower.js";
import { REREAD_TASK } from "../../indexer/reread.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig, SWEEP_READS_PER_SECOND } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { chainSnapshot, dbSnapshot, miscountedTokens } from "../support/chain.js";
import { runnableTargets } from "../support/db.js";
import { until } from "../support/wait.js";

/** The stores it runs on here: each one it cannot is a listed skip. */
const targets = runnableTargets("re-reads on the devnet");

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const LONG = 240_000;
const [REFUNDED, DESTROYED, WRITTEN, CROWDED] = [500, 501, 502, 503];
/** Accounts of CROWDED beyond what one destroyAccounts call removes (RemoveItemsLimit): read again after it. */
const LEFT_OVER = 2;

describe("state that changes without events is read again", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let alice: Submitter;
  let keys: Awaited<ReturnType<typeof devKeyring>>;
  const stores: { name: string; handle: DbHandle & { drop(): Promise<void> }; follower: Follower; log: string[] }[] = [];

  const head = async () => (await api.rpc.chain.getHeader()).number.toNumber();

  /** Every follower at the chain's head, then each store equal to chain storage there, counts exact. */
  const expectEqualToChain = async () => {
    const tip = await head();
    await until(`the followers to reach block ${tip}`, () => stores.every((s) => (s.follower.status.block ?? 0) >= tip));
    // A block is reached once a re-read it called for has run to its end: none is left on record
    // (paged after the batch, it would otherwise wait for the next start, and only the sweep
    // below would hide it).
    for (const s of stores) expect(await getTask(s.handle.db, REREAD_TASK), `${s.name}: a re-read left on record at block ${tip}`).toBeUndefined();
    // What no event named is found by the verification sweep: a pass that began at the tip has read it all.
    await until(`a verification pass from block ${tip}`, () => stores.every((s) => (s.follower.status.sweep.lastPass?.startBlock ?? -1) >= tip));
    for (const s of stores) {
      const cp = (await getCheckpoint(s.handle.db))!;
      const [store, chain] = [await dbSnapshot(s.handle.db), await chainSnapshot(api, cp.blockHash)];
      expect(Object.keys(store.holders).length, s.name).toBe(Object.keys(chain.holders).length);
      expect(store, s.name).toEqual(chain);
      expect(await miscountedTokens(s.handle.db), s.name).toEqual([]);
    }
    return tip;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ genesis: config.devnetGenesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    keys = await devKeyring(0, api.registry.chainSS58 ?? 42);
    // Funding writes storage without events: before any indexer starts.
    await fund(api, DEV_NAMES.map((n) => keys.dev[n].address), 10n ** 16n);
    // Each target twice: holders read again inside the batch that called for it, and (a limit of
    // one row) page by page after it, the path of tokens too large for one transaction.
    for (const target of targets) {
      for (const inlineRereadRows of [100_000, 1]) {
        const handle = await target.open();
        const log: string[] = [];
        const logger = createLogger("warn", "reread-test", { write: (line: string) => void log.push((JSON.parse(line) as { msg: string }).msg) });
        // The verification sweep at its default budget finds what no event names (a pass here is
        // ≈ 1,100 entries, a fraction of a second). Unthrottled, four sweeps paging the chain back
        // to back starved chopsticks' block building: an extrinsic waited over 20 s on CI.
        const follower = new Follower(handle.db, { wsUrl: devnet.wsUrl, nativeTokenId: 0, oracle: oracleSettings(config), batchBlocks: 4, logger, historyHours: 0, sweepReadsPerSecond: SWEEP_READS_PER_SECOND, retryMs: 100, inlineRereadRows });
        follower.start();
        stores.push({ name: `${target.name}, ${inlineRereadRows === 1 ? "paged after the batch" : "in the batch"}`, handle, follower, log });
      }
    }
    await until("the followers to bootstrap", () => stores.every((s) => s.follower.status.block !== null));
    alice = createSubmitter(api, keys.dev.Alice);
    const { Alice, Bob, Charlie, Dave, Ferdie } = keys.dev;
    const tx = api.tx;
    await alice.send(
      tx.utility.batchAll([
        ...[REFUNDED, DESTROYED, WRITTEN, CROWDED].flatMap((id) => [tx.assets.create(id, Alice.address, 1), tx.assets.setMetadata(id, `Token ${id}`, `T${id}`, 6)]),
        ...[Bob, Charlie].map((who) => tx.assets.mint(REFUNDED, who.address, 1_000)),
        ...[Bob, Charlie, Dave].map((who) => tx.assets.mint(DESTROYED, who.address, 1_000)),
        ...[Bob, Charlie].map((who) => tx.assets.mint(WRITTEN, who.address, 1_000)),
        tx.assets.mint(CROWDED, Bob.address, 1_000),
      ]),
      "create and mint three assets",
    );
    // Ferdie's account is opened with a deposit (touch), then receives tokens.
    await createSubmitter(api, Ferdie).send(tx.assets.touch(REFUNDED), "Ferdie touches");
    await createSubmitter(api, Bob).send(tx.assets.transfer(REFUNDED, Ferdie.address, 300), "Bob pays Ferdie");
    await expectEqualToChain();
  }, LONG);

  afterAll(async () => {
    for (const s of stores) {
      await s.follower.stop();
      await s.handle.drop();
    }
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("a refund that burns a balance (no event names the asset's account): the holder goes, counts follow", async () => {
    const ferdie = keys.dev.Ferdie.address;
    const included = await createSubmitter(api, keys.dev.Ferdie).send(api.tx.assets.refund(REFUNDED, true), "Ferdie refunds, burning 300");
    const events = included.events.map((e) => `${e.event.section}.${e.event.method}`);
    // What makes this case: no event of the assets pallet, the supply left as it was.
    expect(events.filter((e) => e.startsWith("assets."))).toEqual([]);
    expect((await api.query.assets.account(REFUNDED, ferdie)).isNone).toBe(true);
    expect((await api.query.assets.asset(REFUNDED)).unwrap().supply.toString()).toBe("2000");
    await expectEqualToChain();
    for (const s of stores) {
      expect((await dbSnapshot(s.handle.db)).holders[`${REFUNDED}|${ferdie}`], s.name).toBeUndefined();
      expect(s.log, s.name).toContain("indexer: the store differed from chain storage; repairing");
    }
  }, LONG);

  it("an asset being destroyed keeps its holders until AccountsDestroyed removes them, naming none", async () => {
    await alice.send(api.tx.assets.startDestroy(DESTROYED), "start destroying");
    await expectEqualToChain();
    for (const s of stores) {
      const snap = await dbSnapshot(s.handle.db);
      expect(snap.tokens[DESTROYED]?.status, s.name).toBe("destroying");
      expect(Object.keys(snap.holders).filter((k) => k.startsWith(`${DESTROYED}|`)), s.name).toHaveLength(3);
    }
    const included = await alice.send(api.tx.assets.destroyAccounts(DESTROYED), "destroy its accounts");
    const destroyed = included.events.find((e) => e.event.method === "AccountsDestroyed")!;
    expect(destroyed.event.data.toJSON()).toEqual([DESTROYED, 3, 0]);
    await expectEqualToChain();
    for (const s of stores) {
      const snap = await dbSnapshot(s.handle.db);
      // Still an asset (not finished), with no holder left.
      expect(snap.tokens[DESTROYED]?.status, s.name).toBe("destroying");
      expect(Object.keys(snap.holders).filter((k) => k.startsWith(`${DESTROYED}|`)), s.name).toEqual([]);
    }
  }, LONG);

  it("balances and supply written without any event, as a migration writes them: read again at the next batch", async () => {
    const bob = keys.dev.Bob.address;
    const account = (await api.query.assets.account(WRITTEN, bob)).unwrap().toJSON() as Record<string, unknown>;
    const details = (await api.query.assets.asset(WRITTEN)).unwrap().toJSON() as Record<string, unknown>;
    await api.rpc("dev_setStorage" as never, { Assets: { Account: [[[WRITTEN, bob], { ...account, balance: 400 }]], Asset: [[[WRITTEN], { ...details, supply: 1_400 }]] } } as never);
    await api.rpc("dev_newBlock" as never);
    expect((await api.query.assets.account(WRITTEN, bob)).unwrap().balance.toString()).toBe("400");
    await expectEqualToChain();
    for (const s of stores) expect((await dbSnapshot(s.handle.db)).holders[`${WRITTEN}|${bob}`], s.name).toBe("400");
  }, LONG);

  it("an asset with more accounts than one destroyAccounts call removes: the rest are read again page by page, before the block counts as reached", async () => {
    const limit = api.consts.assets.removeItemsLimit.toNumber();
    const bob = keys.dev.Bob.address;
    // limit + LEFT_OVER accounts, written as storage (no event): an existence reason that
    // touches no System account (DepositRefunded), so only the asset's own state changes.
    const template = (await api.query.assets.account(CROWDED, bob)).unwrap().toJSON() as Record<string, unknown>;
    const details = (await api.query.assets.asset(CROWDED)).unwrap().toJSON() as Record<string, unknown>;
    const extra = Array.from({ length: limit + LEFT_OVER - 1 }, (_, i) => u8aToHex(blake2AsU8a(`crowded ${i}`)));
    await api.rpc(
      "dev_setStorage" as never,
      {
        Assets: {
          Account: extra.map((who) => [[CROWDED, who], { ...template, balance: 7, reason: "DepositRefunded" }]),
          Asset: [[[CROWDED], { ...details, accounts: limit + LEFT_OVER, supply: 1_000 + 7 * extra.length }]],
        },
      } as never,
    );
    await api.rpc("dev_newBlock" as never);
    await expectEqualToChain();
    await alice.send(api.tx.assets.startDestroy(CROWDED), "start destroying the crowded asset");
    const included = await alice.send(api.tx.assets.destroyAccounts(CROWDED), "destroy as many of its accounts as one call may");
    const destroyed = included.events.find((e) => e.event.method === "AccountsDestroyed")!;
    expect(destroyed.event.data.toJSON()).toEqual([CROWDED, limit, LEFT_OVER]);
    // expectEqualToChain finds no re-read left on record: the paged follower ran it to its end.
    await expectEqualToChain();
    for (const s of stores) expect(Object.keys((await dbSnapshot(s.handle.db)).holders).filter((k) => k.startsWith(`${CROWDED}|`)), s.name).toHaveLength(LEFT_OVER);
  }, LONG);
});
