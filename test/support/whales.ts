/** Accounts whose portfolios are costly to compute: what a topic's price is measured against. */
import { randomBytes } from "node:crypto";
import { encodeAddress } from "@polkadot/util-crypto";
import { upsertHolders, upsertTokens, type Database } from "../../db/index.js";
import { HEAD_BLOCK } from "./fixtures.js";

/** The ids of the whales' tokens start here (above the fixture market's asset ids). */
const FIRST = 700_000;

/**
 * `count` new accounts, each holding `tokens` tokens (500: a portfolio of 500 rows, the most an
 * `accounts:` topic is charged, 6), written as the indexer writes them.
 */
export async function seedWhales(db: Database, count: number, tokens = 500): Promise<string[]> {
  await upsertTokens(
    db,
    Array.from({ length: tokens }, (_, i) => ({ id: FIRST + i, name: `Whale ${i}`, symbol: `W${i}`, decimals: 6, supply: "1000000000", owner: null, kind: "asset" as const, assetId: FIRST + i, blockNumber: HEAD_BLOCK })),
  );
  const whales = Array.from({ length: count }, () => encodeAddress(randomBytes(32), 2));
  await upsertHolders(
    db,
    whales.flatMap((account) => Array.from({ length: tokens }, (_, i) => ({ tokenId: FIRST + i, account, balance: "1000", status: "liquid" as const, blockNumber: HEAD_BLOCK }))),
  );
  return whales;
}
