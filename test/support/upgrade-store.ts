/**
 * The fake Asset Hub chain (fake-chain.ts) as the truth a store is held to after a runtime
 * upgrade: every current-state table at the store's checkpoint against the plain values the
 * chain's blocks were built from (not a decoder's reading of them), and the history rows of a
 * range, to compare two stores (a follower's and a backfill's) row for row.
 */
import { sql } from "drizzle-orm";
import { encodeAddress } from "@polkadot/util-crypto";
import { expect } from "vitest";
import { getCheckpoint, type Database } from "../../db/index.js";
import { selectRows } from "./db.js";
import type { FakeChain } from "./fake-chain.js";
import { USDT } from "./fake-market.js";

const ss58 = (hex: string) => encodeAddress(hex, 0);

/**
 * Tokens, holders (balances and native parts), pools and LP positions against the fake chain's
 * state at the store's checkpoint; no skipped events. Returns the checkpoint.
 */
export async function expectStoreEqualsChain(db: Database, chain: FakeChain): Promise<number> {
  const cp = (await getCheckpoint(db))!;
  const block = chain.blocks[cp.blockNumber]!;
  expect(cp.blockHash).toBe(block.hash);
  const { state } = block;
  expect(await selectRows(db, sql`select block_number::int, event, reason from skipped_events`)).toEqual([]);

  type Holder = { token: string; account: string; balance: string; free: string | null; reserved: string | null; frozen: string | null };
  const holders = await selectRows<Holder>(db, sql`select token_id::text as token, account, balance::text as balance, free::text as free, reserved::text as reserved, frozen::text as frozen from holders order by token_id, account`);
  const expected = new Map<string, string>();
  for (const [who, a] of state.native) if (a.free + a.reserved > 0n) expected.set(`0|${ss58(who)}`, `${a.free + a.reserved}|${a.free}|${a.reserved}|${a.frozen}`);
  for (const asset of state.assets.values()) for (const [who, balance] of asset.balances) if (balance > 0n) expected.set(`${asset.id}|${ss58(who)}`, `${balance}|null|null|null`);
  const actual = new Map(holders.map((h) => [`${h.token}|${h.account}`, `${h.balance}|${h.free}|${h.reserved}|${h.frozen}`]));
  expect(holders.length, `holders at block ${cp.blockNumber}`).toBe(expected.size);
  expect(actual, `holders at block ${cp.blockNumber}`).toEqual(expected);

  const tokens = await selectRows<{ id: string; supply: string; accounts: string | null }>(db, sql`select id::text as id, supply::text as supply, accounts::text as accounts from tokens order by tokens.id`);
  const assets = [...state.assets.values()].sort((a, b) => a.id - b.id);
  const want = [{ id: "0", supply: String(state.issuance()), accounts: null }, ...assets.map((a) => ({ id: String(a.id), supply: String(state.supply(a.id)), accounts: String(a.balances.size) }))];
  expect(tokens, `tokens at block ${cp.blockNumber}`).toEqual(want.sort((x, y) => Number(x.id) - Number(y.id)));

  const pools = await selectRows(db, sql`select token0_id::text as t0, token1_id::text as t1, reserve0::text as r0, reserve1::text as r1, lp_supply::text as lp from pools`);
  const reserves = state.reserves(USDT);
  const lp = [...state.lpTokens.get(0)!.balances.values()].reduce((a, b) => a + b, 0n);
  expect(pools, `pools at block ${cp.blockNumber}`).toEqual([{ t0: "0", t1: String(USDT), r0: String(reserves.native), r1: String(reserves.asset), lp: String(lp) }]);
  const positions = await selectRows<{ account: string; balance: string }>(db, sql`select account, balance::text as balance from lp_holders order by account`);
  const wantPositions = [...state.lpTokens.get(0)!.balances].filter(([, b]) => b > 0n).map(([who, b]) => ({ account: ss58(who), balance: String(b) }));
  expect(positions, `LP positions at block ${cp.blockNumber}`).toEqual(wantPositions.sort((x, y) => x.account.localeCompare(y.account)));
  return cp.blockNumber;
}
