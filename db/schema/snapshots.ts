import { bigserial, boolean, index, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { address, amount, int64 } from "./tokens.js";

/**
 * Holder snapshots (POST /snapshots, `tokenpool snapshot`): every holder of a token — or of an LP
 * token (`lp`: PoolAssets ids, their own id space, as in balance_history), a pool's providers — as
 * of a block, computed once from balance history and kept. One row per (lp, token, block): asking
 * again for the same one gives the same snapshot.
 *
 * `state`: queued → running → done (or failed, with `error`). `accountsDone` counts the
 * accounts read so far (progress, against `accountsEstimate`, the history's account count for
 * the token when the job started).
 */
export const holderSnapshots = pgTable(
  "holder_snapshots",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** An LP token's snapshot (tokenId is then an LP token id). */
    lp: boolean().notNull().default(false),
    tokenId: int64().notNull(),
    blockNumber: int64().notNull(),
    state: text({ enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    accountsDone: int64().notNull().default(0),
    accountsEstimate: int64(),
    holders: int64(),
    total: amount(),
    /** Bytes of its CSV (header line included), set when it is done: the download's Content-Length. */
    csvBytes: int64(),
    error: text(),
    /** The last account read (accounts are walked in descending order); null when none yet, or done. */
    resumeAfter: address(),
    /** The user who asked first (null from the CLI). */
    requestedBy: uuid(),
    /** Their client key (an IPv4 address or an IPv6 /64; null from the CLI): unfinished ones are bounded per key. */
    requestedFrom: text(),
    /** Rows this snapshot holds a place for under the disk cap while unfinished (0 once finished). */
    reservedRows: int64().notNull().default(0),
    /** Non-zero balances written so far (while running). */
    rowsWritten: int64().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [unique("holder_snapshots_lp_token_id_block_number_unique").on(t.lp, t.tokenId, t.blockNumber)],
);

/**
 * A snapshot's balances while it is computed, by account (the keyset it walks: a job that stops
 * resumes after the last account written); emptied when the ranked list is written.
 */
export const snapshotBalances = pgTable(
  "snapshot_balances",
  {
    snapshotId: int64().notNull(),
    account: address().notNull(),
    balance: amount().notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.account] })],
);

/** A finished snapshot's holders by rank (balance descending, then address): its pages and CSV. */
export const snapshotHolders = pgTable(
  "snapshot_holders",
  {
    snapshotId: int64().notNull(),
    rank: int64().notNull(),
    account: address().notNull(),
    balance: amount().notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.rank] })],
);

/**
 * What each request for new snapshot work was charged, for the rows-per-day budgets (per user and
 * per client key, over the last 24 hours): the estimate when asked, settled to the rows the
 * snapshot holds when it finishes (0 if it failed). Kept apart from the snapshots, so that a
 * snapshot deleted by the disk cap or by age is still counted for its day.
 */
export const snapshotCharges = pgTable(
  "snapshot_charges",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    snapshotId: int64().notNull(),
    userId: uuid(),
    clientKey: text().notNull(),
    rows: int64().notNull(),
    settled: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("snapshot_charges_user_idx").on(t.userId, t.createdAt), index("snapshot_charges_client_idx").on(t.clientKey, t.createdAt), index("snapshot_charges_snapshot_idx").on(t.snapshotId)],
);
