/**
 * Checkpoints: where a writer stopped (the follower's is FOLLOWER_CHECKPOINT), written in the same
 * transaction as the data of that block. Apart from chain.ts: balance history reads the follower's,
 * and chain.ts's sweeps write balance history.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../database.js";
import { checkpoints } from "../schema/index.js";

export type Checkpoint = typeof checkpoints.$inferSelect;

export const FOLLOWER_CHECKPOINT = "follower";

export async function getCheckpoint(db: Database, name = FOLLOWER_CHECKPOINT): Promise<Checkpoint | undefined> {
  const [row] = await db.select().from(checkpoints).where(eq(checkpoints.name, name)).limit(1);
  return row;
}

export async function setCheckpoint(
  db: Database,
  cp: { name?: string; blockNumber: number; blockHash: string; chainFinalized: number },
): Promise<void> {
  const row = { name: cp.name ?? FOLLOWER_CHECKPOINT, blockNumber: cp.blockNumber, blockHash: cp.blockHash, chainFinalized: cp.chainFinalized };
  await db
    .insert(checkpoints)
    .values(row)
    .onConflictDoUpdate({
      target: checkpoints.name,
      set: { blockNumber: row.blockNumber, blockHash: row.blockHash, chainFinalized: row.chainFinalized, updatedAt: sql`now()` },
    });
}
