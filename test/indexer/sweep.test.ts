/**
 * The verification sweep on the real runtime (statemine 1,000,000 under chopsticks), on PGlite and
 * on Postgres: state written with dev_setStorage, which emits no event, as a refund that burns, a
 * hold, a migration or a storage write would change it.
 *
 * - a USDt holder burned in the same block as an ordinary USDt transfer (the counts-only
 *   reconcile this replaced missed it: the transfer's read overwrote the counts it compared);
 * - two USDt balances swapped, 1,000 USDt moved out of the KSM/USDt pool account, 5 KSM moved
 *   between two holders: supply and account counts unchanged;
 * - a reserve (a hold) placed on an account with no event;
 * - a token's name, symbol and owner written with no event, as a migration would.
 *
 * Each is found and repaired by the first full pass that begins after it (the bound docs/chains.md
 * states): then every table equals chain storage at the follower's checkpoint, with the native
 * parts and the oracle's price following the repaired reserves.
 */
import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, type DbHandle } from "../../db/index.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { seedMarket } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { chainSnapshot, dbSnapshot, miscountedTokens } from "../support/chain.js";
import { runnableTargets, selectRows } from "../support/db.js";
import { until } from "../support/wait.js";

/** The stores it runs on here: each one it cannot is a listed skip. */
const targets = runnableTargets("the verification sweep on the devnet");

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const LONG = 300_000;
const USDT = 1984;

describe("the verification sweep finds and repairs what the chain does not announce", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let keys: Awaited<ReturnType<typeof devKeyring>>;
  const stores: { name: string; handle: DbHandle & { drop(): Promise<void> }; follower: Follower; log: { msg: string; key?: string; kind?: string; table?: string }[] }[] = [];

  const head = async () => (await api.rpc.chain.getHeader()).number.toNumber();
  const setStorage = async (storage: unknown) => {
    await api.rpc("dev_setStorage" as never, storage as never);
    await api.rpc("dev_newBlock" as never);
  };
  const assetAccount = async (id: number, who: string) => (await api.query.assets.account(id, who)).unwrap().toJSON() as Record<string, unknown>;

  /**
   * Every follower at the chain's head and through a full pass that began there; then each store
   * equals chain storage at its checkpoint. Returns the seconds from `since` (the change) until all
   * stores were repaired.
   */
  const repaired = async (since: number) => {
    const tip = await head();
    await until(`the followers to reach block ${tip}`, () => stores.every((s) => (s.follower.status.block ?? 0) >= tip));
    await until(`a verification pass that began at block ${tip} or later`, () => stores.every((s) => (s.follower.status.sweep.lastPass?.startBlock ?? -1) >= tip));
    const seconds = (Date.now() - since) / 1000;
    for (const s of stores) {
      const cp = (await getCheckpoint(s.handle.db))!;
      expect(await dbSnapshot(s.handle.db), s.name).toEqual(await chainSnapshot(api, cp.blockHash));
      expect(await miscountedTokens(s.handle.db), s.name).toEqual([]);
    }
    return seconds;
  };

  const drifts = (key: string) => stores.map((s) => s.log.filter((l) => l.msg === "indexer: the store differed from chain storage; repairing" && l.key === key).map((l) => `${l.table}.${l.kind}`));

  beforeAll(async () => {
    devnet = await startDevnet({ genesis: config.devnetGenesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    keys = await devKeyring(0, api.registry.chainSS58 ?? 42);
    await seedMarket(api, { holders: 3 });
    // USDt holders among the dev accounts, each with a different amount.
    const { Charlie, Dave, Eve, Ferdie } = keys.dev;
    await createSubmitter(api, keys.dev.Alice).send(
      api.tx.utility.batchAll([Charlie, Dave, Eve, Ferdie].map((who, i) => api.tx.assets.transfer(USDT, who.address, BigInt(i + 2) * 10_000_000_000n))),
      "Alice pays four dev accounts USDt",
    );
    for (const target of targets) {
      const handle = await target.open();
      const log: (typeof stores)[number]["log"] = [];
      const logger = createLogger("info", "sweep-test", { write: (line: string) => void log.push(JSON.parse(line)) });
      // Unthrottled (the devnet is small): a pass takes a second or two.
      const follower = new Follower(handle.db, { wsUrl: devnet.wsUrl, nativeTokenId: 0, oracle: oracleSettings(config), batchBlocks: 4, logger, historyHours: 0, sweepReadsPerSecond: 1_000_000, retryMs: 100 });
      follower.start();
      stores.push({ name: target.name, handle, follower, log });
    }
    await repaired(Date.now());
  }, LONG);

  afterAll(async () => {
    for (const s of stores) {
      await s.follower.stop();
      await s.handle.drop();
    }
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("a USDt holder burned without an event, in the block of an ordinary USDt transfer: the ghost goes, the count follows", async () => {
    const ghost = keys.dev.Ferdie.address;
    const held = BigInt((await assetAccount(USDT, ghost)).balance as string);
    expect(held).toBeGreaterThan(0n);
    const details = (await api.query.assets.asset(USDT)).unwrap().toJSON() as Record<string, any>;
    await api.rpc("dev_setStorage" as never, { Assets: { Account: [[[USDT, ghost], null]], Asset: [[[USDT], { ...details, supply: (BigInt(details.supply) - held).toString(), accounts: details.accounts - 1 }]] } } as never);
    const since = Date.now();
    // The same block: an ordinary USDt transfer, whose events make the follower read USDt's details.
    await createSubmitter(api, keys.dev.Alice).send(api.tx.assets.transfer(USDT, keys.dev.Bob.address, 1_000_000), "Alice pays Bob 1 USDt");
    expect((await api.query.assets.account(USDT, ghost)).isNone).toBe(true);
    const seconds = await repaired(since);
    for (const [i, s] of stores.entries()) {
      expect((await dbSnapshot(s.handle.db)).holders[`${USDT}|${ghost}`], s.name).toBeUndefined();
      expect(drifts(`${USDT}|${ghost}`)[i], s.name).toContain("holders.ghost");
    }
    console.log(`burn masked by a transfer: repaired on every store ${seconds.toFixed(1)} s after the change`);
  }, LONG);

  it("balances swapped, USDt moved out of the pool account, KSM moved between holders (supply and counts kept): all repaired, the price follows the reserves", async () => {
    const [a, b] = [keys.dev.Charlie.address, keys.dev.Dave.address];
    const [accA, accB] = [await assetAccount(USDT, a), await assetAccount(USDT, b)];
    expect(accA.balance).not.toEqual(accB.balance);
    const [pool] = await selectRows<{ account: string }>(stores[0]!.handle.db, sql`select account from pools where token0_id = 0 and token1_id = ${USDT}`);
    const poolAccount = await assetAccount(USDT, pool!.account);
    const moved = 1_000_000_000n; // 1,000 USDt (6 decimals)
    const receiver = keys.dev.Eve.address;
    // Eve holds USDt already: the account count stays.
    const accR = await assetAccount(USDT, receiver);
    const [dave, eve] = [keys.dev.Dave.address, keys.dev.Eve.address];
    const [infoD, infoE] = [(await api.query.system.account(dave)).toJSON() as any, (await api.query.system.account(eve)).toJSON() as any];
    const ksm = 5n * 10n ** 12n;
    const priceBefore = await Promise.all(stores.map(async (s) => (await selectRows<{ price_usd: string }>(s.handle.db, sql`select price_usd::text from token_latest_prices where token_id = 0`))[0]?.price_usd));
    await setStorage({
      Assets: {
        Account: [
          [[USDT, a], { ...accA, balance: accB.balance }],
          [[USDT, b], { ...accB, balance: accA.balance }],
          [[USDT, pool!.account], { ...poolAccount, balance: (BigInt(poolAccount.balance as string) - moved).toString() }],
          [[USDT, receiver], { ...accR, balance: (BigInt(accR.balance as string) + moved).toString() }],
        ],
      },
      System: {
        Account: [
          [[dave], { ...infoD, data: { ...infoD.data, free: (BigInt(infoD.data.free) - ksm).toString() } }],
          [[eve], { ...infoE, data: { ...infoE.data, free: (BigInt(infoE.data.free) + ksm).toString() } }],
        ],
      },
    });
    const since = Date.now();
    const seconds = await repaired(since);
    for (const [i, s] of stores.entries()) {
      const found = drifts(`${USDT}|${a}`)[i]!.concat(drifts(`${USDT}|${b}`)[i]!, drifts(`0/${USDT}`)[i]!, drifts(`0|${dave}`)[i]!, drifts(`0|${eve}`)[i]!);
      expect(found, s.name).toEqual(expect.arrayContaining(["holders.wrong", "pools.wrong"]));
      // The oracle's value of KSM follows the pool's new reserves (USDt left the pool: KSM is worth less).
      const [after] = await selectRows<{ price_usd: string }>(s.handle.db, sql`select price_usd::text from token_latest_prices where token_id = 0`);
      expect(Number(after!.price_usd), s.name).toBeLessThan(Number(priceBefore[i]));
    }
    console.log(`balances swapped, a reserve moved: repaired on every store ${seconds.toFixed(1)} s after the change`);
  }, LONG);

  it("a hold placed with no event: free, reserved and transferable follow", async () => {
    const who = keys.dev.Ferdie.address;
    const info = (await api.query.system.account(who)).toJSON() as any;
    const held = 7n * 10n ** 12n;
    await setStorage({ System: { Account: [[[who], { ...info, data: { ...info.data, free: (BigInt(info.data.free) - held).toString(), reserved: (BigInt(info.data.reserved) + held).toString() } }]] } });
    const since = Date.now();
    const seconds = await repaired(since);
    const chain = (await api.query.system.account(who)).data;
    for (const s of stores) {
      const [row] = await selectRows<{ free: string; reserved: string; transferable: string }>(s.handle.db, sql`select free::text, reserved::text, transferable::text from holders where token_id = 0 and account = ${who}`);
      expect(row, s.name).toEqual({ free: chain.free.toString(), reserved: chain.reserved.toString(), transferable: expect.any(String) });
      expect(BigInt(row!.transferable), s.name).toBeLessThanOrEqual(chain.free.toBigInt());
    }
    console.log(`a hold with no event: repaired on every store ${seconds.toFixed(1)} s after the change`);
  }, LONG);

  it("a token's details changed with no event (a migration renaming it, a new owner written): the token row follows", async () => {
    const metadata = (await api.query.assets.metadata(USDT)).toJSON() as Record<string, unknown>;
    const details = (await api.query.assets.asset(USDT)).unwrap().toJSON() as Record<string, unknown>;
    const owner = keys.dev.Bob.address;
    expect(details.owner).not.toBe(owner);
    await setStorage({ Assets: { Metadata: [[[USDT], { ...metadata, name: "Tether USD (migrated)", symbol: "USDT.m" }]], Asset: [[[USDT], { ...details, owner }]] } });
    const since = Date.now();
    const seconds = await repaired(since);
    for (const [i, s] of stores.entries()) {
      expect((await dbSnapshot(s.handle.db)).tokens[USDT], s.name).toMatchObject({ name: "Tether USD (migrated)", symbol: "USDT.m", owner });
      expect(drifts(String(USDT))[i], s.name).toContain("tokens.wrong");
    }
    console.log(`a token renamed with no event: repaired on every store ${seconds.toFixed(1)} s after the change`);
  }, LONG);
});
