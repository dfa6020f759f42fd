/**
 * Transfer lists, newest first: a token's (or an LP token's), and an account's, with its token
 * and counterparty filters looked for among a bounded number of its rows. Each walks the
 * partitions through transfer-walk.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { accountIdQuery } from "./account-ids.js";
import { inListOrder } from "./list-order.js";
import { byKind, bySlice, named, sweepSlice, toTransfer, type ReadTransfer, type Transfer, type TransferFilter, type TransferPosition } from "./transfer-walk.js";

/** A token's rows (tokenId) or an LP token's (lpTokenId): the one filter an account's list walks for. */
export type TransferAsset = { tokenId: number; lpTokenId?: undefined } | { lpTokenId: number; tokenId?: undefined };

/**
 * Transfers of an account a page filtered by token examines at most: that filter is not in the
 * account's index, so its matches are looked for among the account's newest rows from the
 * cursor, this many of them, and a page that finds fewer than asked for says where it stopped
 * (docs/api.md, "Transfers"). The worst filter a list has: 5.3 ms uncached p50 on 2M transfers
 * when none of the 2,000 match (docs/performance.md).
 */
export const TRANSFER_SCAN_ROWS = 2_000;

/** A token's (or an LP token's) transfers, newest first, `limit` rows at most: index ranges only. */
export async function tokenTransfers(db: Database, asset: TransferAsset, f: TransferFilter, limit: number): Promise<Transfer[]> {
  const key = asset.tokenId !== undefined ? sql`token_id = ${asset.tokenId}::bigint` : sql`lp_token_id = ${asset.lpTokenId}::bigint`;
  const found: ReadTransfer[] = [];
  return inListOrder(db, async (tx) => {
    await bySlice(tx, f, () => found.length, async (s, sparse) => {
      const left = limit - found.length;
      const swept = sparse && s.kind === undefined ? await sweepSlice(tx, [key], s, left) : undefined;
      found.push(...(swept ?? rowsOf<Record<string, unknown>>(await tx.execute(sql`select * from (${byKind(key, s, left)}) t order by nb, ne limit ${left}`))).map(toTransfer));
      return found.length >= limit;
    });
    return named(tx, found);
  });
}

/**
 * Whether the store knows LP token `id` at all: a pool's, or one its balances or transfers name
 * (an LP token outlives its pool in history). Index seeks only: pools' unique LP key, then
 * balance_history's key (lp, token_id, …).
 */
export async function lpTokenKnown(db: Database, id: number): Promise<boolean> {
  const [r] = rowsOf<{ known: boolean }>(
    await db.execute(sql`select exists (select 1 from pools where lp_token_id = ${id}::bigint) or exists (select 1 from balance_history where lp and token_id = ${id}::bigint) as known`),
  );
  return r?.known === true;
}

/**
 * The merged ranges of an account's sent and received rows (transfers_from_idx,
 * transfers_to_idx), each row once (a transfer to oneself is on both sides), newest first.
 */
function accountRows(account: number, direction: "in" | "out" | undefined, f: TransferFilter, limit: number): SQL {
  const ranges = accountSides(account, direction).map((side) => byKind(side, f, limit));
  return sql`select distinct on (nb, ne) * from (${sql.join(ranges, sql` union all `)}) t order by nb, ne limit ${limit}`;
}

/** The keys of an account's sides a list reads: sent (transfers_from_idx), received (transfers_to_idx), or both. */
function accountSides(account: number, direction: "in" | "out" | undefined): SQL[] {
  const sides = direction === "out" ? ["from_id"] : direction === "in" ? ["to_id"] : ["from_id", "to_id"];
  return sides.map((side) => sql`${sql.raw(side)} = ${account}::integer`);
}

export interface AccountTransfers {
  /** The page's rows, newest first, `limit` at most. */
  rows: Transfer[];
  /**
   * With an asset or counterparty filter, when the scan examined TRANSFER_SCAN_ROWS rows before
   * finding `limit` matches: the last row it examined (the next page starts below it).
   */
  stoppedAt?: TransferPosition;
}

/** The filters an account's list looks for among its rows (not in its index): a token or LP token, and the other side. */
export interface AccountScanFilter {
  asset?: TransferAsset | undefined;
  /** Only rows between the account and this address (either direction; itself: its self-transfers). */
  counterparty?: string | undefined;
}

/**
 * An account's transfers, newest first, `limit` rows at most. Direction, kind, blocks and cursor
 * are index ranges; a token or LP token filter (`asset`) and a counterparty are looked for among
 * at most `scanRows` of the account's rows from the cursor (TRANSFER_SCAN_ROWS): the account's
 * side indexes are read in order and each row's other id compared, so a counterparty the account
 * never dealt with costs what a token it never moved does, never a walk of the counterparty's
 * rows. `stoppedAt` says when that bound ended the page.
 */
export async function accountTransfers(db: Database, account: string, direction: "in" | "out" | undefined, f: TransferFilter & AccountScanFilter, limit: number, scanRows = TRANSFER_SCAN_ROWS): Promise<AccountTransfers> {
  const { asset, counterparty } = f;
  const found: ReadTransfer[] = [];
  if (asset === undefined && counterparty === undefined) {
    return inListOrder<AccountTransfers, number | string>(db, async (tx, known) => {
      if (known === null) return { rows: [] };
      const id = Number(known);
      await bySlice(tx, f, () => found.length, async (s, sparse) => {
        const left = limit - found.length;
        const swept = sparse && s.kind === undefined ? await sweepSlice(tx, accountSides(id, direction), s, left) : undefined;
        found.push(...(swept ?? rowsOf<Record<string, unknown>>(await tx.execute(accountRows(id, direction, s, left)))).map(toTransfer));
        return found.length >= limit;
      });
      return { rows: await named(tx, found) };
    }, accountIdQuery(account));
  }
  let scanned = 0;
  let stoppedAt: TransferPosition | undefined;
  const rows = await inListOrder<Transfer[], number | string>(db, async (tx, known) => {
    if (known === null) return [];
    const id = Number(known);
    // A counterparty with no id is in no row: nothing to read.
    const [cp] = counterparty === undefined ? [] : rowsOf<{ id: number | string | null }>(await tx.execute(sql`select ${accountIdQuery(counterparty)} as id`));
    const other = cp?.id == null ? undefined : Number(cp.id);
    if (counterparty !== undefined && other === undefined) return [];
    const match = scanMatch(id, asset, other);
    await bySlice(tx, f, () => scanned, async (s) => {
      // The matches among the slice's scanned rows, and (scanned not null) the last row scanned with the count.
      const rows = rowsOf<Record<string, unknown> & { scanned: number | string | null }>(
        await tx.execute(sql`
          with scan as (${accountRows(id, direction, s, scanRows - scanned)})
          (select *, null::integer as scanned from scan where ${match} order by nb, ne limit ${limit - found.length})
          union all
          (select *, (select count(*)::integer from scan) as scanned from scan order by nb desc, ne desc limit 1)`),
      );
      const tail = rows.find((r) => r.scanned !== null);
      found.push(...rows.filter((r) => r.scanned === null).map(toTransfer));
      scanned += tail === undefined ? 0 : Number(tail.scanned);
      if (found.length >= limit) return true;
      if (scanned < scanRows) return false;
      stoppedAt = { blockNumber: Number(tail!.blockNumber), eventIndex: Number(tail!.eventIndex) };
      return true;
    });
    return named(tx, found);
  }, accountIdQuery(account));
  return stoppedAt ? { rows, stoppedAt } : { rows };
}

/** The condition a scanned row of account `id` (a row of accountRows) must meet. */
function scanMatch(id: number, asset: TransferAsset | undefined, other: number | undefined): SQL {
  const c = [sql`true`];
  if (asset !== undefined) c.push(asset.tokenId !== undefined ? sql`"tokenId" = ${asset.tokenId}::bigint` : sql`"lpTokenId" = ${asset.lpTokenId}::bigint`);
  if (other !== undefined) c.push(sql`(("fromId" = ${id}::integer and "toId" = ${other}::integer) or ("toId" = ${id}::integer and "fromId" = ${other}::integer))`);
  return sql.join(c, sql` and `);
}
