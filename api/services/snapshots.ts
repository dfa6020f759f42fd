/**
 * Holder snapshots for the API: asking for one (checked against the store's history and the
 * token as of the block, held to its budgets), its state and its ranked pages (the CSV:
 * api/services/snapshot-csv.ts).
 */
import { sql } from "drizzle-orm";
import { budgetFreesAt, chargeSnapshot, RANKING_COPIES, getSnapshot, poolsByLpToken, requestSnapshot, rowsOf, SNAPSHOTS_LOCK, snapshotEstimate, snapshotPage, snapshotUsage, tokenAt, type Database, type Snapshot } from "../../db/index.js";
import { formatFixed, ratio } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { widerPrefix } from "../middleware/client-ip.js";
import type { SnapshotRunner } from "../snapshot-runner.js";
import { resolveAsOf } from "./as-of.js";

export async function snapshotView(db: Database, id: number, known?: Snapshot) {
  const s = known ?? (await getSnapshot(db, id));
  if (!s) throw new AppError("SNAPSHOT_NOT_FOUND", `Holder snapshot ${id} was not found.`);
  const [block] = rowsOf<{ timestamp: string | number }>(await db.execute(sql`select timestamp from blocks where number = ${s.blockNumber}`));
  const total = s.accountsEstimate;
  return {
    id: s.id,
    ...idsOf(s),
    blockNumber: s.blockNumber,
    timestamp: block ? Number(block.timestamp) : null,
    state: s.state,
    progress: {
      accountsRead: s.accountsDone,
      accountsTotal: total ?? null,
      fraction: s.state === "done" ? "1" : total ? formatFixed(ratio(BigInt(Math.min(s.accountsDone, total)), BigInt(total), 4), 4) : "0",
    },
    holders: s.holders ?? null,
    totalBalance: s.total ?? null,
    error: s.error ?? null,
    createdAt: s.createdAt.toISOString(),
    finishedAt: s.finishedAt?.toISOString() ?? null,
    links: { holders: `/snapshots/${s.id}/holders`, csv: `/snapshots/${s.id}/holders.csv` },
  };
}

/** A snapshot's subject: a token (tokenId) or an LP token (lpTokenId), the other null. */
export const idsOf = (s: Pick<Snapshot, "lp" | "tokenId">) => (s.lp ? { tokenId: null, lpTokenId: s.tokenId } : { tokenId: s.tokenId, lpTokenId: null });

/** What a snapshot is of, for messages: "token 1984", "LP token 3". */
const subject = (q: { lp: boolean; tokenId: number }) => `${q.lp ? "LP token" : "token"} ${q.tokenId}`;

/** What new snapshot work is held to (api/app.ts SNAPSHOT_LIMITS; docs/security.md). */
export interface SnapshotLimits {
  /** Unfinished snapshots at once: in all, of one user, from one client key, from one IPv6 /48 (its /64 keys together). */
  queued: number;
  perUser: number;
  perClient: number;
  perPrefix: number;
  /** Rows charged over the last 24 hours, per user and per client key. */
  rowsPerUserDay: number;
  rowsPerClientDay: number;
  /** The disk cap: rows the kept snapshots hold, with the reservations of unfinished ones (SNAPSHOTS_MAX_ROWS). */
  maxRows: number;
}

const rows = (n: number) => n.toLocaleString("en");

/** Refuses new work past a limit, saying the numbers and, where waiting helps, when (Retry-After). */
async function checkBudgets(t: Database, q: { lp: boolean; tokenId: number; block: number; userId: string; clientKey: string }, estimate: number, limits: SnapshotLimits): Promise<void> {
  const prefix = widerPrefix(q.clientKey);
  const u = await snapshotUsage(t, q.userId, q.clientKey, prefix);
  const wait = { "Retry-After": "30" };
  if (u.mine >= limits.perUser) throw new AppError("TOO_MANY_SNAPSHOTS", `You have ${u.mine} holder snapshots queued or running (at most ${limits.perUser}); ask again when one has finished.`, wait);
  if (u.client >= limits.perClient) throw new AppError("TOO_MANY_SNAPSHOTS", `${u.client} holder snapshots asked for from your address (${q.clientKey}) are queued or running (at most ${limits.perClient} per address); ask again when one has finished.`, wait);
  if (prefix && u.prefix >= limits.perPrefix) throw new AppError("TOO_MANY_SNAPSHOTS", `${u.prefix} holder snapshots asked for from your network (${prefix}) are queued or running (at most ${limits.perPrefix} per IPv6 /48); ask again when one has finished.`, wait);
  if (u.all >= limits.queued) throw new AppError("TOO_MANY_SNAPSHOTS", `${u.all} holder snapshots are queued or running (at most ${limits.queued}); ask again when one has finished.`, wait);
  const what = `The snapshot of ${subject(q)} at block ${q.block} would hold ≈ ${rows(estimate)} rows`;
  // Being ranked, a snapshot holds RANKING_COPIES copies of its rows under the disk cap: one larger than that share could never finish.
  const cap = Math.min(limits.rowsPerUserDay, limits.rowsPerClientDay, Math.floor(limits.maxRows / RANKING_COPIES));
  if (estimate > cap) throw new AppError("SNAPSHOT_TOO_LARGE", `${what}: more than ${rows(cap)}, the most one user may ask for in a day and this server can compute (SNAPSHOTS_MAX_ROWS = ${rows(limits.maxRows)}, where a snapshot being ranked holds ${RANKING_COPIES} copies of its rows). The operator can write it with \`tokenpool snapshot\`.`);
  for (const [used, budget, who, whose] of [
    [u.userRows, limits.rowsPerUserDay, { user: q.userId }, "You have"],
    [u.clientRows, limits.rowsPerClientDay, { clientKey: q.clientKey }, `Users from your address (${q.clientKey}) have`],
  ] as const) {
    if (used + estimate <= budget) continue;
    const at = await budgetFreesAt(t, who, estimate, budget);
    const seconds = Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
    throw new AppError("TOO_MANY_SNAPSHOTS", `${what}. ${whose} asked for ${rows(used)} of ${rows(budget)} snapshot rows in the last 24 hours; enough is free again at ${at.toISOString()} (in ${seconds} s).`, { "Retry-After": String(seconds) });
  }
  if (u.reserved + estimate > limits.maxRows) {
    throw new AppError("TOO_MANY_SNAPSHOTS", `${what}; the snapshots being computed hold ${rows(u.reserved)} of the ${rows(limits.maxRows)} rows this server keeps (SNAPSHOTS_MAX_ROWS); ask again when one has finished.`, wait);
  }
}

/**
 * The snapshot of a token — or of an LP token (`lpTokenId`: a pool's providers) — as of a block
 * (`block`, `atTime`, or the newest): the existing one (shared: it costs the asker nothing), or a
 * new one queued — held to `limits` (unfinished ones per user, per client key and in all; rows per
 * day per user and per client key, charged from the estimate now and settled when it finishes;
 * the disk cap). The checks and the insert are one transaction under an advisory lock, so
 * concurrent requests cannot both pass the last place.
 */
export async function createSnapshot(
  db: Database,
  runner: SnapshotRunner | undefined,
  asked: { tokenId?: number | undefined; lpTokenId?: number | undefined; block?: number | undefined; atTime?: number | undefined; userId: string; clientKey: string },
  limits: SnapshotLimits,
) {
  if ((asked.tokenId === undefined) === (asked.lpTokenId === undefined)) throw new AppError("VALIDATION_ERROR", 'Invalid body: give "tokenId" (a token) or "lpTokenId" (an LP token), one of them.');
  const lp = asked.lpTokenId !== undefined;
  const q = { ...asked, lp, tokenId: (asked.tokenId ?? asked.lpTokenId)! };
  if (!runner) throw new AppError("SERVICE_UNAVAILABLE", "Holder snapshots are not running in this process.");
  // An LP token's balances are exact from the LP positions' history floor on.
  const block = await resolveAsOf(db, { at: q.block, atTime: q.atTime, field: "body" }, lp ? "lp" : "holders", { kept: true });
  if (lp) {
    const [pool] = await poolsByLpToken(db, [q.tokenId]);
    if (!pool) throw new AppError("TOKEN_NOT_FOUND", `No pool has LP token ${q.tokenId}.`);
    if (pool.createdBlock > block.number) throw new AppError("TOKEN_NOT_FOUND", `LP token ${q.tokenId} did not exist at block ${block.number}: its pool was created at block ${pool.createdBlock}.`);
  } else if (!(await tokenAt(db, q.tokenId, block.number))) throw new AppError("TOKEN_NOT_FOUND", `Token ${q.tokenId} did not exist at block ${block.number}.`);
  const estimate = await snapshotEstimate(db, q.tokenId, block.number, lp);
  const { snapshot, created } = await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(sql`select pg_advisory_xact_lock(${SNAPSHOTS_LOCK})`);
    const [existing] = rowsOf<{ state: string }>(await t.execute(sql`select state from holder_snapshots where lp = ${lp}::boolean and token_id = ${q.tokenId} and block_number = ${block.number}`));
    if (existing && existing.state !== "failed") return requestSnapshot(t, q.tokenId, block.number, q.userId, { lp });
    // New work (a new snapshot, or a failed one asked for again) is checked and charged.
    await checkBudgets(t, { ...q, block: block.number }, estimate, limits);
    const made = await requestSnapshot(t, q.tokenId, block.number, q.userId, { clientKey: q.clientKey, reservedRows: estimate, lp });
    await chargeSnapshot(t, { snapshotId: made.snapshot.id, user: q.userId, clientKey: q.clientKey, rows: estimate });
    return made;
  });
  if (created) await runner.enqueue(snapshot.id);
  return snapshotView(db, snapshot.id, snapshot);
}

/** Snapshot `id`, finished: SNAPSHOT_NOT_FOUND or SNAPSHOT_NOT_READY (saying its state) otherwise. */
export async function finishedSnapshot(db: Database, id: number): Promise<Snapshot> {
  const s = await getSnapshot(db, id);
  if (!s) throw new AppError("SNAPSHOT_NOT_FOUND", `Holder snapshot ${id} was not found.`);
  if (s.state !== "done") throw new AppError("SNAPSHOT_NOT_READY", `Holder snapshot ${id} is ${s.state}${s.state === "failed" ? ` (${s.error ?? "no reason kept"})` : ": poll GET /snapshots/" + id + " until its state is done"}.`);
  return s;
}

/** A cursor is the last rank of the page before, in one spelling (`r` and the rank). */
function rankOfCursor(cursor: string): number {
  const m = /^r([1-9]\d{0,14})$/.exec(cursor);
  if (!m) throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": not a cursor returned by this endpoint (use nextCursor).');
  return Number(m[1]);
}

export async function snapshotHolderPage(db: Database, id: number, q: { page?: number | undefined; limit: number; cursor?: string | undefined }) {
  const s = await finishedSnapshot(db, id);
  const after = q.cursor !== undefined ? rankOfCursor(q.cursor) : ((q.page ?? 1) - 1) * q.limit;
  const rows = await snapshotPage(db, id, after, q.limit);
  const total = s.holders ?? 0;
  const last = rows[rows.length - 1];
  return {
    snapshotId: s.id,
    ...idsOf(s),
    blockNumber: s.blockNumber,
    page: Math.min(Math.floor(after / q.limit) + 1, Math.ceil(total / q.limit) + 1),
    limit: q.limit,
    totalHolders: total,
    totalPages: Math.ceil(total / q.limit),
    holders: rows.map((r) => ({ rank: r.rank, address: r.account, balance: r.balance, share: formatFixed(ratio(BigInt(r.balance), BigInt(s.total ?? "0"), 18), 18) })),
    nextCursor: last && last.rank < total ? `r${last.rank}` : null,
  };
}
