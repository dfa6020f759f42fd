/**
 * What holder snapshots cost, for their budgets (api/services/snapshots.ts): rows charged per user
 * and per client key over the last 24 hours (snapshot_charges), unfinished snapshots per user and
 * key, and the disk cap in rows over the kept snapshots (SNAPSHOTS_MAX_ROWS).
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";

/** The window the rows-per-day budgets are counted over. */
const DAY = sql`interval '24 hours'`;

/**
 * The rows a snapshot of `tokenId` at `block` will hold, known before it runs: the token's holder
 * count as of the block (token_stats, written as the indexer follows), else its count now, else 0.
 */
export async function snapshotEstimate(db: Database, tokenId: number, block: number, lp = false): Promise<number> {
  // An LP token's providers: its current positions (a pool has few; no per-block count is kept).
  if (lp) {
    const [row] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from lp_holders where lp_token_id = ${tokenId} and balance > 0`));
    return Number(row?.n ?? 0);
  }
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`select coalesce(
      (select holders from token_stats where token_id = ${tokenId} and block_number <= ${block} order by block_number desc limit 1),
      (select holders from holder_counts where token_id = ${tokenId}), 0) as n`),
  );
  return Number(row?.n ?? 0);
}

export interface SnapshotUsage {
  /** Unfinished snapshots: in all, asked for by this user, from this client key, and from any key of its wider prefix (an IPv6 /64's /48; 0 without one). */
  all: number;
  mine: number;
  client: number;
  prefix: number;
  /** Rows the unfinished ones hold a place for under the disk cap. */
  reserved: number;
  /** Rows charged over the last 24 hours to this user and to this client key. */
  userRows: number;
  clientRows: number;
}

/**
 * The counts a new snapshot is checked against (run under the snapshots' advisory lock). `prefix`
 * is a client key's wider prefix (`a:b:c::/48`): the unfinished snapshots of every /64 key in it
 * are counted by their recorded keys (`a:b:c:<any>::/64`).
 */
export async function snapshotUsage(db: Database, user: string, clientKey: string, prefix?: string): Promise<SnapshotUsage> {
  const within = prefix?.endsWith("::/48") ? sql`requested_from like ${`${prefix.slice(0, -"::/48".length)}:%::/64`}` : sql`false`;
  const [row] = rowsOf<Record<keyof SnapshotUsage, string | number | null>>(
    await db.execute(sql`
      select count(*) as all, count(*) filter (where requested_by = ${user}) as mine,
        count(*) filter (where requested_from = ${clientKey}) as client, count(*) filter (where ${within}) as prefix, coalesce(sum(reserved_rows), 0) as reserved,
        (select coalesce(sum(rows), 0) from snapshot_charges where user_id = ${user} and created_at > now() - ${DAY}) as "userRows",
        (select coalesce(sum(rows), 0) from snapshot_charges where client_key = ${clientKey} and created_at > now() - ${DAY}) as "clientRows"
      from holder_snapshots where state in ('queued', 'running')`),
  );
  const n = (k: keyof SnapshotUsage) => Number(row?.[k] ?? 0);
  return { all: n("all"), mine: n("mine"), client: n("client"), prefix: n("prefix"), reserved: n("reserved"), userRows: n("userRows"), clientRows: n("clientRows") };
}

/**
 * When a rows-per-day budget of `budget` rows frees enough for `rows` more: the time its oldest
 * charges of the window, added up, leave room (the 24-hour window slides past them).
 */
export async function budgetFreesAt(db: Database, who: { user: string } | { clientKey: string }, rows: number, budget: number): Promise<Date> {
  const whose = "user" in who ? sql`user_id = ${who.user}` : sql`client_key = ${who.clientKey}`;
  const [row] = rowsOf<{ at: Date | string | null }>(
    await db.execute(sql`
      with c as (
        select created_at, sum(rows) over (order by created_at, id) as freed, sum(rows) over () as used
        from snapshot_charges where ${whose} and created_at > now() - ${DAY}
      )
      select min(created_at + ${DAY}) as at from c where used - freed + ${rows} <= ${budget}`),
  );
  return row?.at ? new Date(row.at) : new Date(Date.now() + 86_400_000);
}

/** Charges `rows` (the estimate) for new work on snapshot `snapshotId`; the charges older than the window are dropped. */
export async function chargeSnapshot(db: Database, c: { snapshotId: number; user: string; clientKey: string; rows: number }): Promise<void> {
  await db.execute(sql`delete from snapshot_charges where created_at <= now() - ${DAY}`);
  await db.execute(sql`insert into snapshot_charges (snapshot_id, user_id, client_key, rows) values (${c.snapshotId}, ${c.user}, ${c.clientKey}, ${c.rows})`);
}

/** Settles the open charges of snapshot `id` to `rows` (its holders when done, 0 when it failed). */
export async function settleCharges(db: Database, id: number, rows: number | ReturnType<typeof sql>): Promise<void> {
  await db.execute(sql`update snapshot_charges set rows = ${rows}, settled = true where snapshot_id = ${id} and not settled`);
}

/**
 * Keeps the kept snapshots' rows (finished ones' holders, unfinished ones' reservations) within
 * `maxRows` by deleting finished snapshots, oldest first, with their rows; returns the ids deleted
 * and whether the rest now fits (it does not when the unfinished reservations alone pass the cap).
 */
export async function makeRoom(db: Database, maxRows: number): Promise<{ deleted: number[]; fits: boolean }> {
  const [use] = rowsOf<{ kept: string | number; reserved: string | number }>(
    await db.execute(sql`select coalesce(sum(holders) filter (where state = 'done'), 0) as kept,
      coalesce(sum(reserved_rows) filter (where state in ('queued', 'running')), 0) as reserved from holder_snapshots`),
  );
  const kept = Number(use?.kept ?? 0);
  const reserved = Number(use?.reserved ?? 0);
  if (kept + reserved <= maxRows) return { deleted: [], fits: true };
  const room = maxRows - reserved;
  // The newest finished ones are kept while their running sum fits what the reservations leave.
  const deleted = rowsOf<{ id: string | number }>(
    await db.execute(sql`
      with ranked as (
        select id, sum(holders) over (order by id desc) as running from holder_snapshots where state = 'done'
      ), gone as (
        delete from holder_snapshots where id in (select id from ranked where running > ${room}) returning id
      ), rows as (
        delete from snapshot_holders where snapshot_id in (select id from gone)
      )
      select id from gone`),
  ).map((r) => Number(r.id));
  return { deleted, fits: room >= 0 };
}
