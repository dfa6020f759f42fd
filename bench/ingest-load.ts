/**
 * The indexer's write load for "reads under ingest" (bench/suite.ts): commits one block a second
 * (BLOCK_MS) through the indexer's own writer (indexer/writer.ts Batch.commit: one transaction,
 * checkpoint, NOTIFY), each with 5,000 holder changes of the big token — its top 4,900 balances
 * moved so that their last six digits are the block number, and 100 new holders — and 200 swaps,
 * a reserves point and a KSM price on KSM/USDt. A read that mixed two blocks shows balances of one
 * block beside the holder count of another (the suite checks that, see consistency()).
 *
 * Run as a child: `tsx bench/ingest-load.ts` with DATABASE_URL; prints "ready" once the first
 * block is committed, and on SIGTERM the blocks committed and the median commit time as JSON.
 * A line "pause" on stdin pauses it after the block being committed ("paused" once no block is
 * under way), "resume" resumes it ("resumed" once the next block is committed): the suite
 * alternates idle and busy runs on one child (bench/under-ingest.ts). Lines on stdin, not signals:
 * SIGUSR1 is Node's own (it starts the inspector).
 */
import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import { createDb, latestBlock } from "../db/index.js";
import { Batch } from "../indexer/writer.js";
import { BIG, INGEST, KSM, USDT } from "./synthetic.js";

const { UPDATED, NEW_PER_BLOCK, SWAPS_PER_BLOCK } = INGEST;
const BLOCK_MS = Number(process.env.BLOCK_MS ?? 1_000);

async function main(): Promise<void> {
  const handle = await createDb({ databaseUrl: process.env.DATABASE_URL!, maxConnections: 2 });
  const db = handle.db;
  const head = (await latestBlock(db))!;
  const rows = (await db.execute(sql`select account, balance::text as amount from holders where token_id = ${BIG} order by balance desc nulls last, account limit ${UPDATED}`)) as unknown as { account: string; amount: string }[];
  // (`amount`, not `balance`: an output column named balance would make ORDER BY sort the text.)
  const top = rows.map((r) => ({ account: r.account, floor: BigInt(r.amount) - (BigInt(r.amount) % 1_000_000n) }));
  let stopping = false;
  let paused = false;
  let wake: (() => void) | undefined;
  let resumed = false;
  process.on("SIGTERM", () => {
    stopping = true;
    wake?.();
  });
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line === "pause") paused = true;
    else if (line === "resume") {
      paused = false;
      resumed = true;
      wake?.();
    }
  });
  const commits: number[] = [];
  for (let n = head.number + 1; !stopping; n++) {
    const started = performance.now();
    const timestamp = head.timestamp + (n - head.number) * 12;
    const batch = new Batch();
    batch.blocks.push({ number: n, hash: `0x${n.toString(16).padStart(64, "0")}`, timestamp });
    for (const t of top) batch.holder({ tokenId: BIG, account: t.account, balance: String(t.floor + BigInt(n % 1_000_000)), blockNumber: n });
    for (let i = 0; i < NEW_PER_BLOCK; i++) batch.holder({ tokenId: BIG, account: `ingest${String(n).padStart(10, "0")}${String(i).padStart(34, "0")}`, balance: "1", blockNumber: n });
    for (let i = 0; i < SWAPS_PER_BLOCK; i++) {
      const amount = 1_000_000_000_000n + BigInt(i) * 1_000_000n;
      batch.swaps.push({ blockNumber: n, eventIndex: i, hop: 0, token0Id: KSM, token1Id: USDT, tokenIn: KSM, tokenOut: USDT, amountIn: String(amount), amountOut: String(amount / 40_000n), fee: String((amount * 3n) / 1000n), volumeUsd: "25", feeUsd: "0.075", account: `trader${i}`, timestamp, extrinsicIndex: i, hops: 1 });
    }
    batch.reserves.push({ token0Id: KSM, token1Id: USDT, blockNumber: n, timestamp, reserve0: String(1_000_000_000_000_000n + BigInt(n)), reserve1: String(25_000_000_000n + BigInt(n)) });
    batch.prices.push({ tokenId: KSM, blockNumber: n, priceUsd: `25.${String(n % 1000).padStart(3, "0")}` });
    await batch.commit(db, { blockNumber: n, blockHash: batch.blocks[0]!.hash, chainFinalized: n });
    commits.push(performance.now() - started);
    if (commits.length === 1) process.stdout.write("ready\n");
    if (resumed) {
      resumed = false;
      process.stdout.write("resumed\n");
    }
    await new Promise((r) => setTimeout(r, Math.max(0, BLOCK_MS - (performance.now() - started))));
    if (paused && !stopping) {
      process.stdout.write("paused\n");
      await new Promise<void>((r) => (wake = r));
      wake = undefined;
    }
  }
  const sorted = [...commits].sort((a, b) => a - b);
  process.stdout.write(`${JSON.stringify({ blocks: commits.length, first: head.number + 1, commitMs: Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1)), commitMsMax: Number(sorted[sorted.length - 1]!.toFixed(1)) })}\n`);
  await handle.close();
  process.exit(0);
}

await main();
