/**
 * What the verification sweep (indexer/sweep.ts) compares with chain storage: the store's current
 * rows as text (amounts as decimal strings), with the block each was read at.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";

/** A stored holder row as compared (parts as decimal strings, null when absent). */
export interface StoredHolder {
  token_id: string;
  account: string;
  balance: string;
  free: string | null;
  reserved: string | null;
  frozen: string | null;
  transferable: string | null;
  status: string | null;
  block_number: string;
}

const pgList = (values: (string | number)[]) => `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;

const HOLDER_COLUMNS = sql`h.token_id::text, h.account, h.balance::text, h.free::text, h.reserved::text, h.frozen::text, h.transferable::text, h.status, h.block_number::text`;

export async function storedHolders(db: Database, pairs: { tokenId: number; account: string }[]): Promise<Map<string, StoredHolder>> {
  if (pairs.length === 0) return new Map();
  const rows = rowsOf<StoredHolder>(
    await db.execute(sql`select ${HOLDER_COLUMNS} from holders h
      join unnest(${pgList(pairs.map((p) => p.tokenId))}::bigint[], ${pgList(pairs.map((p) => p.account))}::text[]) as p(token_id, account)
        on h.token_id = p.token_id and h.account = p.account`),
  );
  return new Map(rows.map((r) => [`${r.token_id}|${r.account}`, r]));
}

export async function holderPageAfter(db: Database, after: { tokenId: number; account: string } | null, limit: number): Promise<StoredHolder[]> {
  const where = after ? sql`where (h.token_id, h.account) > (${after.tokenId}::bigint, ${after.account}::text collate "C")` : sql``;
  return rowsOf<StoredHolder>(await db.execute(sql`select ${HOLDER_COLUMNS} from holders h ${where} order by h.token_id, h.account limit ${limit}`));
}

export async function storedTokens(db: Database) {
  return rowsOf<{ id: string; name: string; symbol: string; decimals: number; supply: string; owner: string | null; kind: string; status: string; accounts: string | null; block_number: string }>(
    await db.execute(sql`select id::text, name, symbol, decimals, supply::text, owner, kind, status, accounts::text, block_number::text from tokens`),
  );
}

export async function storedPools(db: Database) {
  return rowsOf<{ token0_id: string; token1_id: string; lp_token_id: string; account: string; reserve0: string; reserve1: string; lp_supply: string; block_number: string }>(
    await db.execute(sql`select token0_id::text, token1_id::text, lp_token_id::text, account, reserve0::text, reserve1::text, lp_supply::text, block_number::text from pools`),
  );
}

export async function storedLpHolders(db: Database) {
  return rowsOf<{ lp_token_id: string; account: string; balance: string; block_number: string }>(await db.execute(sql`select lp_token_id::text, account, balance::text, block_number::text from lp_holders`));
}
