/**
 * A small market written through the db layer, as the indexer would write it: the native
 * token, a USD stablecoin, tokens with 0, 10 and 18 decimals, two tokens sharing a symbol,
 * holders, three pools, prices (one expired), blocks and swaps inside and outside the 24 h window.
 */
import {
  addTokenCandles,
  snapshotTaken,
  insertBlocks,
  recordEventRanges,
  schema,
  insertPoolReserves,
  insertPrices,
  insertSwaps,
  recordTokenStats,
  setCheckpoint,
  setTask,
  CHAIN_TASK,
  upsertLpHolders,
  upsertHolders,
  upsertPools,
  upsertTokens,
  type Database,
  type NewSwap,
  type NewToken,
} from "../../db/index.js";
import { sql } from "drizzle-orm";

export const HOUR = 3_600;
/** Unix seconds of the newest indexed block. */
export const HEAD_TIME = 1_795_000_000;
export const HEAD_BLOCK = 2_000;

export const KSM = 0;
export const USDT = 1984;
export const ZERO = 7;
export const TEN = 10;
export const WETH = 18;
export const DUP_A = 21;
export const DUP_B = 22;
export const LONELY = 30;
/** Asset 0 of the chain, served under 2^32 (its id is the native token's). */
export const DOG = 2 ** 32;
/** A foreign asset: Polkadot AH's USDC bridged to Kusama AH, under its location-derived id. */
export const PUSDC = 6_520_275_024_738_589;
export const PUSDC_LOCATION = { parents: 2, interior: { x4: [{ globalConsensus: { polkadot: null } }, { parachain: 1000 }, { palletInstance: 50 }, { generalIndex: 1337 }] } };

export const TREASURY = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";
export const ALICE = "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T";
export const BOB = "GsvVHgYPifoDdqKEtHFGeet7714GPMbG2wXHxHeYLi67yuV";
export const CHARLIE = "D8sM6vKjWaeKy2zCPYWGkLLbWdUtWQrXBTQqr4dSYnVQo21";
export const DAVE = "EaG2CRhJWPb7qmdcJvy3LiWdh26Jreu9Dx6R1rXxPmYXoDk";

function swap(block: number, eventIndex: number, time: number, pool: [number, number], volumeUsd: string, feeUsd: string, amountIn = "1000"): NewSwap {
  return {
    blockNumber: block,
    eventIndex,
    hop: 0,
    token0Id: pool[0],
    token1Id: pool[1],
    tokenIn: pool[0],
    tokenOut: pool[1],
    amountIn,
    amountOut: "990",
    fee: "3",
    volumeUsd,
    feeUsd,
    account: ALICE,
    timestamp: time,
  };
}

const asset = (t: Omit<NewToken, "kind" | "assetId">): NewToken => ({ ...t, kind: "asset", assetId: t.id });

export async function seedMarket(db: Database): Promise<void> {
  await insertBlocks(db, [
    { number: 1_000, hash: "0x" + "10".repeat(32), timestamp: HEAD_TIME - 25 * HOUR },
    { number: 1_500, hash: "0x" + "15".repeat(32), timestamp: HEAD_TIME - 23 * HOUR },
    { number: HEAD_BLOCK, hash: "0x" + "20".repeat(32), timestamp: HEAD_TIME },
  ]);
  // The store followed the chain from its first block to the head (the three above are those
  // with anything to show): every block's events are held, no gap (historyComplete).
  await recordEventRanges(db, [{ fromBlock: 0, toBlock: HEAD_BLOCK }]);
  await setTask(db, CHAIN_TASK, { ss58: 2, genesisHash: "0x" + "00".repeat(32), specName: "statemine" });
  await setCheckpoint(db, { blockNumber: HEAD_BLOCK, blockHash: "0x" + "20".repeat(32), chainFinalized: HEAD_BLOCK + 3 });
  const b = HEAD_BLOCK;
  await upsertTokens(db, [
    { id: KSM, name: "Kusama", symbol: "KSM", decimals: 12, supply: "15000000000000000000", owner: null, kind: "native", blockNumber: b },
    asset({ id: USDT, name: "Tether USD", symbol: "USDt", decimals: 6, supply: "1000000000000", owner: TREASURY, blockNumber: b }),
    asset({ id: ZERO, name: "Whole", symbol: "ZERO", decimals: 0, supply: "1000", owner: TREASURY, status: "frozen", blockNumber: b }),
    asset({ id: TEN, name: "Ten", symbol: "TEN", decimals: 10, supply: "1000000000000", owner: TREASURY, blockNumber: b }),
    asset({ id: WETH, name: "Wrapped Ether", symbol: "WETH", decimals: 18, supply: "500000000000000000000", owner: ALICE, blockNumber: b }),
    asset({ id: DUP_A, name: "Dup one", symbol: "DUP", decimals: 6, supply: "1", owner: ALICE, blockNumber: b }),
    asset({ id: DUP_B, name: "Dup two", symbol: "dup", decimals: 6, supply: "1", owner: ALICE, blockNumber: b }),
    asset({ id: LONELY, name: "Lonely", symbol: "LONE", decimals: 6, supply: "5", owner: ALICE, blockNumber: b }),
    { id: DOG, name: "Dog", symbol: "DOG", decimals: 10, supply: "70000000000", owner: ALICE, kind: "asset", assetId: 0, blockNumber: b },
    {
      id: PUSDC,
      name: "USD Coin (Polkadot)",
      symbol: "pUSDC",
      decimals: 6,
      supply: "5000000",
      owner: TREASURY,
      kind: "foreign",
      location: PUSDC_LOCATION,
      blockNumber: b,
    },
  ] satisfies NewToken[]);
  // TEN: five holders; BOB and CHARLIE tie, so the address decides their order. BOB's TEN
  // account is frozen, CHARLIE's blocked. KSM: DAVE's freeze (1) exceeds his reserve (0.5), so
  // 0.5 of his free 2 KSM stays; CHARLIE's (0.2) is covered by his reserve (0.7).
  const liquid = "liquid" as const;
  await upsertHolders(db, [
    { tokenId: TEN, account: TREASURY, balance: "400000000000", status: liquid, blockNumber: b },
    { tokenId: TEN, account: ALICE, balance: "300000000000", status: liquid, blockNumber: b },
    { tokenId: TEN, account: BOB, balance: "100000000000", status: "frozen", blockNumber: b },
    { tokenId: TEN, account: CHARLIE, balance: "100000000000", status: "blocked", blockNumber: b },
    { tokenId: TEN, account: DAVE, balance: "100000000000", status: liquid, blockNumber: b },
    { tokenId: USDT, account: TREASURY, balance: "250000000000", status: liquid, blockNumber: b },
    { tokenId: WETH, account: ALICE, balance: "1500000000000000000", status: liquid, blockNumber: b },
    { tokenId: DOG, account: ALICE, balance: "70000000000", status: liquid, blockNumber: b },
    { tokenId: PUSDC, account: TREASURY, balance: "4000000", status: liquid, blockNumber: b },
    { tokenId: PUSDC, account: BOB, balance: "1000000", status: liquid, blockNumber: b },
    { tokenId: KSM, account: DAVE, balance: "2500000000000", free: "2000000000000", reserved: "500000000000", frozen: "1000000000000", transferable: "1500000000000", blockNumber: b },
    { tokenId: KSM, account: CHARLIE, balance: "1000000000000", free: "300000000000", reserved: "700000000000", frozen: "200000000000", transferable: "300000000000", blockNumber: b },
  ]);
  await insertPrices(db, [
    { tokenId: USDT, blockNumber: 1_000, priceUsd: "1" },
    { tokenId: KSM, blockNumber: 1_000, priceUsd: "10" },
    { tokenId: KSM, blockNumber: b, priceUsd: "12.5" },
    { tokenId: TEN, blockNumber: b, priceUsd: "0.25" },
    { tokenId: WETH, blockNumber: b, priceUsd: "3000.123456789012345678" },
    { tokenId: PUSDC, blockNumber: b, priceUsd: "1" },
    // ZERO had a price (10 KSM / 4000 ZERO at 10 USD) until its pool fell below the liquidity
    // floor at block 1,500: its price expired there, and it has none at the head.
    { tokenId: ZERO, blockNumber: 1_000, priceUsd: "0.025" },
    { tokenId: ZERO, blockNumber: 1_500, priceUsd: null },
  ]);
  await upsertPools(db, [
    // 1000 KSM / 12500 USDt
    { token0Id: KSM, token1Id: USDT, lpTokenId: 1, account: "pool-ksm-usdt", reserve0: "1000000000000000", reserve1: "12500000000", lpSupply: "3535533905932", lpFeePpm: 3000, createdBlock: 900, blockNumber: b },
    // 10 KSM / 4000 ZERO (ZERO has no price any more: only the KSM side counts)
    { token0Id: KSM, token1Id: ZERO, lpTokenId: 2, account: "pool-ksm-zero", reserve0: "10000000000000", reserve1: "4000", lpSupply: "200000", lpFeePpm: 3000, createdBlock: 900, blockNumber: b },
    // 2 KSM / 0.5 WETH
    { token0Id: KSM, token1Id: WETH, lpTokenId: 3, account: "pool-ksm-weth", reserve0: "2000000000000", reserve1: "500000000000000000", lpSupply: "1000000", lpFeePpm: 3000, createdBlock: 900, blockNumber: b },
  ]);
  await insertPoolReserves(db, [
    // 24 h ago the pool stood at 1000 KSM / 10000 USDt (10 USDt per KSM); now 12.5.
    { token0Id: KSM, token1Id: USDT, blockNumber: 1_000, timestamp: HEAD_TIME - 25 * HOUR, reserve0: "1000000000000000", reserve1: "10000000000" },
    { token0Id: KSM, token1Id: USDT, blockNumber: 1_500, timestamp: HEAD_TIME - 23 * HOUR, reserve0: "1000000000000000", reserve1: "11000000000" },
    { token0Id: KSM, token1Id: USDT, blockNumber: b, timestamp: HEAD_TIME, reserve0: "1000000000000000", reserve1: "12500000000" },
  ]);
  // ALICE holds a fifth of the KSM/USDt pool's LP tokens.
  await upsertLpHolders(db, [{ lpTokenId: 1, account: ALICE, balance: "707106781186", blockNumber: b }]);
  const times = new Map([[1_000, HEAD_TIME - 25 * HOUR], [1_500, HEAD_TIME - 23 * HOUR], [b, HEAD_TIME]]);
  await addTokenCandles(db, await db.select().from(schema.tokenPrices), (n) => times.get(n));
  await recordTokenStats(db, [KSM, USDT, TEN], { number: 1_000, timestamp: HEAD_TIME - 25 * HOUR });
  await recordTokenStats(db, [KSM, USDT, TEN], { number: b, timestamp: HEAD_TIME });
  await insertSwaps(db, [
    swap(1_000, 3, HEAD_TIME - 25 * HOUR, [KSM, USDT], "999", "2.997"), // outside the window
    swap(1_500, 2, HEAD_TIME - 23 * HOUR, [KSM, USDT], "100", "0.3"),
    swap(b, 5, HEAD_TIME, [KSM, USDT], "50.5", "0.1515"),
    swap(b, 6, HEAD_TIME, [KSM, WETH], "10", "0.03"),
  ]);
  // The rows above are the store's first complete snapshot: balance history starts at the head.
  await snapshotTaken(db, "holders", b);
  await snapshotTaken(db, "lp", b);
}

/**
 * Token `id` ("BIG", 10 decimals) with `holders` current holders of random-looking balances,
 * written in one statement each, then analysed: the large token of the attack suites.
 */
export async function seedBigToken(db: Database, id: number, holders: number): Promise<void> {
  await db.execute(sql.raw(`insert into tokens (id, name, symbol, decimals, supply, owner, kind, asset_id, status, block_number) values (${id}, 'Big', 'BIG', 10, '1000000000000000000000', 'treasury', 'asset', ${id}, 'live', ${HEAD_BLOCK})`));
  await db.execute(
    sql.raw(`insert into holders (token_id, account, balance, block_number)
      select ${id}, 'acct' || lpad(i::text, 44, '0'), (('x' || substr(md5(i::text), 1, 12))::bit(48)::bigint)::numeric * 10000000000 + 1, ${HEAD_BLOCK} from generate_series(1, ${holders}) i`),
  );
  await db.execute(sql.raw(`insert into holder_counts (token_id, holders) values (${id}, ${holders}) on conflict (token_id) do update set holders = excluded.holders`));
  await db.execute(sql.raw("vacuum analyze holders"));
}
