/**
 * The integer ids transfer rows name accounts by (account_ids, db/schema/transfers.ts): looked
 * up, and given out to addresses seen for the first time.
 */
import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { LRUCache } from "lru-cache";
import { rowsOf, type Database } from "../database.js";
import { pgArray } from "./bulk.js";

/**
 * Ids a store's writer keeps (per database handle): an account busy in one block is mostly busy
 * in the next (fee collectors, pools, exchanges), so most rows resolve without a round trip.
 * 100,000 addresses are ≈ 15 MB.
 */
export const ACCOUNT_ID_CACHE_ENTRIES = 100_000;

const caches = new WeakMap<object, LRUCache<string, number>>();

/**
 * The id of each address in `addresses` (nulls skipped), giving new ones theirs. Ids are only
 * kept (cached) when `db` is not a transaction: an id given out inside one is gone if it rolls
 * back, and a row naming it later would name nothing. The writer resolves a batch's addresses
 * before its transaction (indexer/writer.ts), so the ids it caches are committed and, since ids
 * are never removed, stay right.
 */
export async function accountIds(db: Database, addresses: Iterable<string | null | undefined>): Promise<Map<string, number>> {
  const cache = db instanceof PgTransaction ? undefined : cacheOf(db);
  const ids = new Map<string, number>();
  const missing = new Set<string>();
  for (const a of addresses) {
    if (a === null || a === undefined || ids.has(a) || missing.has(a)) continue;
    const id = cache?.get(a);
    if (id === undefined) missing.add(a);
    else ids.set(a, id);
  }
  // Sorted: concurrent writers giving out ids take the unique index's entries in one order, so
  // two of them inserting the same new addresses wait for each other rather than deadlock.
  let ask = [...missing].sort();
  // A second pass only for an address another writer gave out after this statement's snapshot
  // (its insert found the conflict, its select did not see the row): a new statement sees it.
  for (let pass = 0; ask.length > 0; pass++) {
    if (pass === 3) throw new Error(`account ids: ${ask.length} addresses could be neither found nor inserted`);
    const list = pgArray(ask);
    const rows = rowsOf<{ id: number; address: string }>(
      await db.execute(sql`
        with known as (select id, address from account_ids where address = any(${list}::text[])),
        added as (
          insert into account_ids (address)
          select a from unnest(${list}::text[]) a where a not in (select address from known) order by a
          on conflict (address) do nothing
          returning id, address)
        select id, address from known union all select id, address from added`),
    );
    for (const r of rows) {
      ids.set(r.address, Number(r.id));
      cache?.set(r.address, Number(r.id));
    }
    ask = ask.filter((a) => !ids.has(a));
  }
  return ids;
}

/** The address of each id in `ids` (a page's rows: db/queries/transfer-walk.ts). */
export async function addressesOf(db: Database, ids: Iterable<number | null>): Promise<Map<number, string>> {
  const want = [...new Set([...ids].filter((i): i is number => i !== null))];
  if (want.length === 0) return new Map();
  const rows = rowsOf<{ id: number; address: string }>(await db.execute(sql`select id, address from account_ids where id = any(${pgArray(want)}::integer[])`));
  return new Map(rows.map((r) => [Number(r.id), r.address]));
}

/** The id of one address as a scalar subquery: null when no transfer has ever named it. */
export const accountIdQuery = (address: string) => sql`(select id from account_ids where address = ${address})`;

function cacheOf(db: Database): LRUCache<string, number> {
  let c = caches.get(db);
  if (c === undefined) caches.set(db, (c = new LRUCache<string, number>({ max: ACCOUNT_ID_CACHE_ENTRIES })));
  return c;
}
