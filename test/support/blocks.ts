/** A committed block as the indexer writes one: its row, a new KSM price, and the announcement /ws listens to. */
import { announceBlocks, insertBlocks, insertPrices, type Database } from "../../db/index.js";
import { HEAD_BLOCK, HEAD_TIME, KSM } from "./fixtures.js";

/** Commits block `number` (after the fixture's head) with KSM at 10 + (number − head) USD; resolves with that price. */
export async function commitPriceBlock(db: Database, number: number): Promise<string> {
  const price = `${10 + (number - HEAD_BLOCK)}`;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const b = { number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + (number - HEAD_BLOCK) * 12 };
    await insertBlocks(t, [b]);
    await insertPrices(t, [{ tokenId: KSM, blockNumber: number, priceUsd: price }]);
    await announceBlocks(t, [{ ...b, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } }]);
  });
  return price;
}
