/** The transfer bench's rows and its writer, shared by the ingestion runs (bench/ledger.ts) and the bulk load (bench/bulk-load.ts). */
import { accountIds, transferAddresses, type DbHandle, type NewTransfer } from "../db/index.js";

/** A thousand accounts; the first is the busy one (every 4th row's sender). */
export const BENCH_ACCOUNTS = Array.from({ length: 1_000 }, (_, i) => `acct${String(i).padStart(44, "0")}`);

/** `n` transfer rows, ten a block, from block `start`. */
export const benchTransfers = (start: number, n: number): NewTransfer[] =>
  Array.from({ length: n }, (_, i) => ({
    blockNumber: start + Math.floor(i / 10),
    eventIndex: i % 10,
    extrinsicIndex: i % 10,
    timestamp: 1_700_000_000 + i,
    tokenId: i % 7,
    lpTokenId: null,
    fromAccount: i % 4 === 0 ? BENCH_ACCOUNTS[0]! : BENCH_ACCOUNTS[i % BENCH_ACCOUNTS.length]!,
    toAccount: BENCH_ACCOUNTS[(i * 7 + 1) % BENCH_ACCOUNTS.length]!,
    amount: String(BigInt(i + 1) * 1_000_000_007n),
    kind: "transfer",
    event: "balances.Transfer",
    valueUsd: `${i}.25`,
  }));

/**
 * `data` written as the indexer writes it: each 10,000 rows' accounts given their ids first
 * (accountIds on the pool), then a transaction of `insert` calls of `piece` rows each: 2,000 on
 * the per-row path (indexer/writer.ts ROWS_PER_STATEMENT), all of them into a stage (one COPY).
 */
export async function writeAsIndexer(handle: DbHandle, data: NewTransfer[], insert: (tx: never, rows: NewTransfer[], ids: Map<string, number>) => Promise<void>, piece = 2_000): Promise<void> {
  for (let i = 0; i < data.length; i += 10_000) {
    const batch = data.slice(i, i + 10_000);
    const ids = await accountIds(handle.db, transferAddresses(batch));
    await handle.db.transaction(async (tx) => {
      for (let j = 0; j < batch.length; j += piece) await insert(tx as never, batch.slice(j, j + piece), ids);
    });
  }
}
