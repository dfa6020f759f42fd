/**
 * Balances as wallets see them, on the devnet: an account with a reserved deposit
 * (`assets.touch`), frozen and blocked asset accounts (`assets.freeze`, `assets.block`) and native
 * freezes written into System.Account (one before the indexer starts, read by its bootstrap; one
 * after, read when a transfer names the account). The indexed parts and the API's answers must
 * equal chain storage read here through polkadot-js, with the pallet's rule worked out here.
 * The same on Rococo Asset Hub (statemine 900), whose AccountData has miscFrozen/feeFrozen and
 * whose asset accounts have isFrozen.
 */
import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";
import type { KeyringPair } from "@polkadot/keyring/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, schema, type Database, type DbHandle } from "../../db/index.js";
import { devKeyring, fund } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp } from "../support/app.js";
import { chainSnapshot, dbSnapshot } from "../support/chain.js";
import { until } from "../support/wait.js";
import { memoryStore } from "../support/db.js";

const config = loadConfig({ INDEXER_HISTORY_HOURS: "0" });
const LONG = 180_000;
const KSM = 10n ** 12n;
const ASSET = 77;

/** Writes `data` fields into an account's AccountData, the rest of its AccountInfo unchanged (no event). */
async function setAccountData(api: ApiPromise, address: string, data: Record<string, bigint>): Promise<void> {
  const info = (await api.query.system.account(address)).toPrimitive() as { data: Record<string, unknown> };
  const fields = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.toString()]));
  await api.rpc("dev_setStorage" as never, { System: { Account: [[[address], { ...info, data: { ...info.data, ...fields } }]] } } as never);
}

/** Native parts from polkadot-js' own read of System.Account, by the pallet's rule for that layout. */
function expectedNative(data: any) {
  const free = BigInt(data.free.toString());
  const reserved = BigInt(data.reserved.toString());
  if (data.frozen !== undefined) {
    const frozen = BigInt(data.frozen.toString());
    const locked = frozen > reserved ? frozen - reserved : 0n;
    return { balance: String(free + reserved), free: String(free), reserved: String(reserved), frozen: String(frozen), transferable: String(free > locked ? free - locked : 0n) };
  }
  const misc = BigInt(data.miscFrozen.toString());
  const fee = BigInt(data.feeFrozen.toString());
  const frozen = misc > fee ? misc : fee;
  return { balance: String(free + reserved), free: String(free), reserved: String(reserved), frozen: String(frozen), transferable: String(free > frozen ? free - frozen : 0n) };
}

/** Every holder row's parts against chain storage at the store's checkpoint; returns the rows by key. */
async function compareWithChain(api: ApiPromise, db: Database) {
  const cp = (await getCheckpoint(db))!;
  const at = await api.at(cp.blockHash);
  const rows = await db.select().from(schema.holders);
  const native = rows.filter((r) => r.tokenId === 0);
  const assets = rows.filter((r) => r.tokenId !== 0);
  expect(native.length).toBeGreaterThan(3);
  expect(assets.length).toBeGreaterThan(0);
  const infos = await at.query.system.account.multi(native.map((r) => r.account));
  native.forEach((r, i) => {
    expect({ balance: r.balance, free: r.free, reserved: r.reserved, frozen: r.frozen, transferable: r.transferable, status: r.status }, r.account).toEqual({ ...expectedNative(infos[i]!.data), status: null });
  });
  const accounts = await at.query.assets.account.multi(assets.map((r) => [r.tokenId, r.account] as [number, string]));
  assets.forEach((r, i) => {
    const a = accounts[i]!.unwrap() as any;
    const status = a.status ? a.status.type.toLowerCase() : a.isFrozen.isTrue ? "frozen" : "liquid";
    expect({ balance: r.balance, status: r.status, free: r.free, transferable: r.transferable }, `${r.tokenId}|${r.account}`).toEqual({ balance: a.balance.toString(), status, free: null, transferable: null });
  });
  expect(await dbSnapshot(db)).toEqual(await chainSnapshot(api, cp.blockHash));
  return { cp, byKey: new Map(rows.map((r) => [`${r.tokenId}|${r.account}`, r])) };
}

interface Run {
  devnet: Devnet;
  api: ApiPromise;
  handle: DbHandle;
  follower: Follower;
  dev: Record<"Alice" | "Bob" | "Charlie" | "Dave" | "Eve" | "Ferdie", KeyringPair>;
}

/** A devnet, its dev accounts funded, `before` applied, then an indexer bootstrapped on it. */
async function start(genesis: string | undefined, before: (r: Omit<Run, "handle" | "follower">) => Promise<void>): Promise<Run> {
  const devnet = await startDevnet({ ...(genesis ? { genesis } : {}), port: 0 });
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
  await fund(api, Object.values(dev).map((p) => p.address), 1_000n * KSM);
  await before({ devnet, api, dev });
  const handle = await memoryStore();
  const follower = startIndexer(config, createLogger("silent"), handle, devnet.wsUrl);
  const head = (await api.rpc.chain.getHeader()).number.toNumber();
  await until("the bootstrap", () => (follower.status.block ?? 0) >= head);
  return { devnet, api, handle, follower, dev };
}

async function caughtUp(run: Run, included: { blockHash: string }): Promise<void> {
  const block = (await run.api.rpc.chain.getHeader(included.blockHash)).number.toNumber();
  await until(`the indexer to reach block ${block}`, () => (run.follower.status.block ?? 0) >= block);
  await run.follower.stop();
}

async function stop(run: Run | undefined): Promise<void> {
  await run?.follower.stop();
  await run?.handle.close();
  await run?.api.disconnect();
  await run?.devnet.close();
}

describe("balance parts on the devnet (statemine 1,000,000: frozen/flags, AccountStatus)", () => {
  let run: Run;

  beforeAll(async () => {
    // Ferdie's freeze (250) is over his reserve (0): written before the indexer starts, read by
    // the bootstrap only (no later event names him).
    run = await start(undefined, ({ api, dev }) => setAccountData(api, dev.Ferdie.address, { frozen: 250n * KSM }));
    const { api, dev } = run;
    const tx = api.tx.assets;
    const alice = createSubmitter(api, dev.Alice);
    await alice.send(
      api.tx.utility.batchAll([tx.create(ASSET, dev.Alice.address, 1), tx.mint(ASSET, dev.Alice.address, 3_000), tx.mint(ASSET, dev.Bob.address, 2_000), tx.mint(ASSET, dev.Charlie.address, 1_000), tx.freeze(ASSET, dev.Bob.address), tx.block(ASSET, dev.Charlie.address)]),
      "create, mint, freeze Bob, block Charlie",
    );
    await createSubmitter(api, dev.Dave).send(tx.touch(ASSET), "Dave touches: a deposit reserved");
    // Eve's freeze (5) is partly covered by her reserve (2); no event says so until her transfer.
    await setAccountData(api, dev.Eve.address, { reserved: 2n * KSM, frozen: 5n * KSM });
    await caughtUp(run, await createSubmitter(api, dev.Eve).send(api.tx.balances.transferKeepAlive(dev.Alice.address, KSM), "Eve sends 1 KSM to Alice"));
  }, LONG);

  afterAll(() => stop(run), 60_000);

  it("every indexed part equals chain storage at the checkpoint", async () => {
    const { dev, api } = run;
    const { byKey } = await compareWithChain(api, run.handle.db);
    const row = (token: number, who: KeyringPair) => byKey.get(`${token}|${who.address}`)!;
    // The cases this chain was set up for, so that the comparison above is not of zeros.
    expect(row(0, dev.Dave).reserved).toBe(api.consts.assets.assetAccountDeposit.toString());
    expect(row(0, dev.Eve)).toMatchObject({ reserved: String(2n * KSM), frozen: String(5n * KSM), transferable: String(BigInt(row(0, dev.Eve).free!) - 3n * KSM) });
    expect(row(0, dev.Ferdie)).toMatchObject({ frozen: String(250n * KSM), transferable: String(BigInt(row(0, dev.Ferdie).free!) - 250n * KSM) });
    expect([ASSET, ASSET, ASSET].map((id, i) => row(id, [dev.Alice, dev.Bob, dev.Charlie][i]!).status)).toEqual(["liquid", "frozen", "blocked"]);
    expect(byKey.has(`${ASSET}|${dev.Dave.address}`)).toBe(false); // touched, but a zero balance has no row
  });

  it("holder and portfolio answers carry the parts: native amounts, asset statuses, null for the other kind", async () => {
    const { dev, api } = run;
    const t = buildApp(run.handle.db);
    const auth = await authHeader(t);
    const cp = (await getCheckpoint(run.handle.db))!;
    const at = await api.at(cp.blockHash);
    const holders: any = await (await t.get(`/assets/holders/${ASSET}`, auth)).json();
    expect(holders.holders).toHaveLength(3);
    expect(holders.holders.map((h: any) => [h.address, h.balance, h.status, h.free])).toEqual([
      [dev.Alice.address, "3000", "liquid", null],
      [dev.Bob.address, "2000", "frozen", null],
      [dev.Charlie.address, "1000", "blocked", null],
    ]);
    const eve: any = await (await t.get(`/accounts/${dev.Eve.address}`, auth)).json();
    expect(eve.tokens).toHaveLength(1);
    expect(eve.tokens[0]).toMatchObject({ tokenId: 0, kind: "native", ...expectedNative((await at.query.system.account(dev.Eve.address)).data), status: null });
    const natives: any = await (await t.get("/assets/holders/0?limit=1000", auth)).json();
    const infos = await at.query.system.account.multi(natives.holders.map((h: any) => h.address));
    expect(natives.holders.length).toBe(natives.totalHolders);
    natives.holders.forEach((h: any, i: number) => expect({ balance: h.balance, free: h.free, reserved: h.reserved, frozen: h.frozen, transferable: h.transferable }, h.address).toEqual(expectedNative(infos[i]!.data)));
  });
});

describe("balance parts on Rococo Asset Hub (statemine 900: miscFrozen/feeFrozen, isFrozen)", () => {
  let run: Run;

  beforeAll(async () => {
    // The locks of this layout bind free alone: Ferdie's reserve (3) does not cover them (read by
    // the bootstrap only); Eve's lock is read when her transfer names her.
    run = await start("rococo", ({ api, dev }) => setAccountData(api, dev.Ferdie.address, { reserved: 3n * KSM, miscFrozen: 40n * KSM, feeFrozen: 60n * KSM }));
    const { api, dev } = run;
    const tx = api.tx.assets;
    const alice = createSubmitter(api, dev.Alice);
    await alice.send(api.tx.utility.batchAll([tx.create(ASSET, dev.Alice.address, 1), tx.mint(ASSET, dev.Alice.address, 3_000), tx.mint(ASSET, dev.Bob.address, 2_000)]), "create and mint");
    await setAccountData(api, dev.Eve.address, { miscFrozen: 7n * KSM, feeFrozen: 0n });
    await createSubmitter(api, dev.Eve).send(api.tx.balances.transferKeepAlive(dev.Alice.address, KSM), "Eve sends 1 KSM to Alice");
    await caughtUp(run, await alice.send(tx.freeze(ASSET, dev.Bob.address), "freeze Bob"));
  }, LONG);

  afterAll(() => stop(run), 60_000);

  it("every indexed part equals chain storage at the checkpoint", async () => {
    const { dev, api } = run;
    expect(Object.keys((await api.query.system.account(dev.Eve.address)).data.toJSON() as object)).toEqual(["free", "reserved", "miscFrozen", "feeFrozen"]);
    const { byKey } = await compareWithChain(api, run.handle.db);
    const row = (token: number, who: KeyringPair) => byKey.get(`${token}|${who.address}`)!;
    expect(row(0, dev.Ferdie)).toMatchObject({ reserved: String(3n * KSM), frozen: String(60n * KSM), transferable: String(BigInt(row(0, dev.Ferdie).free!) - 60n * KSM) });
    expect(row(0, dev.Eve)).toMatchObject({ frozen: String(7n * KSM), transferable: String(BigInt(row(0, dev.Eve).free!) - 7n * KSM) });
    expect([row(ASSET, dev.Alice).status, row(ASSET, dev.Bob).status]).toEqual(["liquid", "frozen"]);
  });
});
