/** Transfer rows and chunk loads of the bulk path's tests (db/queries/transfer-stages.ts). */
import { accountIds, insertBlocks, insertStagedTransfers, transferAddresses, type Database, type NewTransfer } from "../../db/index.js";

/** Two transfers a block (a fee and a transfer), alice → bob and bob → carol. */
export const transfersOf = (from: number, to: number): NewTransfer[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i).flatMap((n) => [
    { blockNumber: n, eventIndex: 0, timestamp: n * 6, tokenId: 1984, fromAccount: "alice", toAccount: "bob", amount: String(n), kind: "fee" as const, event: "assets.Transferred" },
    { blockNumber: n, eventIndex: 1, timestamp: n * 6, tokenId: 1984, fromAccount: "bob", toAccount: "carol", amount: String(n + 1), kind: "transfer" as const, event: "assets.Transferred" },
  ]);

/** A chunk's batch as the backfill commits it into a stage: its transfers appended, its blocks not held. */
export async function loadChunk(db: Database, stage: string, from: number, to: number): Promise<void> {
  const rows = transfersOf(from, to);
  const ids = await accountIds(db, transferAddresses(rows));
  const blocks = Array.from({ length: to - from + 1 }, (_, i) => ({ number: from + i, hash: `0x${(from + i).toString(16)}`, timestamp: (from + i) * 6 }));
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await insertStagedTransfers(t, stage, rows, ids);
    await insertBlocks(t, blocks, undefined, false);
  });
}
