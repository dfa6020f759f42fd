/**
 * Extrinsic hashes (block_extrinsics, db/schema/chain.ts): a block's, written with its rows, and
 * a page's, read for the (block, extrinsic index) pairs its rows name.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { pgArray } from "./bulk.js";
import { ensurePartitions } from "./partitions.js";

/** A block's extrinsic hashes: blake2_256 of each extrinsic, 32 bytes each in the block's order, as hex (no 0x). */
export interface BlockExtrinsics {
  blockNumber: number;
  hashes: string;
}

/** Writes blocks' extrinsic hashes in one statement; a block written again takes the new ones. */
export async function insertBlockExtrinsics(db: Database, rows: BlockExtrinsics[]): Promise<void> {
  if (rows.length === 0) return;
  // One row per block in the statement (ON CONFLICT cannot update a row twice): the last one given.
  rows = [...new Map(rows.map((r) => [r.blockNumber, r])).values()];
  await ensurePartitions(db, "block_extrinsics", rows.map((r) => r.blockNumber));
  await db.execute(sql`
    insert into block_extrinsics (block_number, hashes)
    select b, decode(h, 'hex') from unnest(${pgArray(rows.map((r) => r.blockNumber))}::bigint[], ${pgArray(rows.map((r) => r.hashes))}::text[]) x(b, h)
    on conflict (block_number) do update set hashes = excluded.hashes`);
}

/** "block/index": the key extrinsicHashes answers by. */
export const extrinsicKey = (blockNumber: number, extrinsicIndex: number) => `${blockNumber}/${extrinsicIndex}`;

/**
 * The hashes (0x-hex) of the extrinsics `rows` name, by extrinsicKey: one statement for a page,
 * a primary-key step per block. A row outside an extrinsic, or in a block whose extrinsics were
 * not recorded (indexed before migration 0027), has none.
 */
export async function extrinsicHashes(db: Database, rows: Array<{ blockNumber: number; extrinsicIndex: number | null }>): Promise<Map<string, string>> {
  const keys = new Map<string, { b: number; i: number }>();
  for (const r of rows) if (r.extrinsicIndex !== null) keys.set(extrinsicKey(r.blockNumber, r.extrinsicIndex), { b: r.blockNumber, i: r.extrinsicIndex });
  if (keys.size === 0) return new Map();
  const wanted = [...keys.values()];
  const found = rowsOf<{ b: string | number; i: number; hash: string }>(
    await db.execute(sql`
      select x.b, x.i, encode(substring(e.hashes from x.i * 32 + 1 for 32), 'hex') as hash
      from unnest(${pgArray(wanted.map((k) => k.b))}::bigint[], ${pgArray(wanted.map((k) => k.i))}::integer[]) x(b, i)
      join block_extrinsics e on e.block_number = x.b
      where octet_length(e.hashes) >= (x.i + 1) * 32`),
  );
  return new Map(found.map((r) => [extrinsicKey(Number(r.b), Number(r.i)), `0x${r.hash}`]));
}
