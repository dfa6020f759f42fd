/**
 * Everything a run of blocks changed, merged so that each row is written once (the newest
 * block's value), and committed in one transaction together with the checkpoint: after a
 * crash the store is at the end of one batch or the next, never in between.
 */
import {
  addTokenCandles,
  announceBlocks,
  recordTokenStats,
  upsertLpHolders,
  type NewLpHolder,
  deleteTokens,
  insertBlocks,
  insertLiquidityEvents,
  insertPoolReserves,
  insertPrices,
  insertSwaps,
  replaceSkippedEvents,
  upsertForeignLocations,
  setCheckpoint,
  upsertHolders,
  upsertPools,
  upsertTokens,
  type Block,
  type BlockAnnouncement,
  type Database,
  type NewHolder,
  type NewLiquidityEvent,
  type NewPool,
  type NewPoolReserves,
  type NewSwap,
  type NewToken,
  type NewTokenPrice,
  type SkippedEventRow,
  type ForeignLocation,
  accountIds,
  insertTransfers,
  insertStagedTransfers,
  transferAddresses,
  type NewTransfer,
  recordBalances,
  recordDestroyed,
  recordTokens,
  type BalanceRow,
  type BlockExtrinsics,
  insertBlockExtrinsics,
} from "../db/index.js";

/** Rows per INSERT statement: well under Postgres' 65,535 bind parameters. */
const ROWS_PER_STATEMENT = 2_000;

export class Batch {
  readonly blocks: Block[] = [];
  /** A block of `blocks` whose state was read (a bootstrap's snapshot), not its events. */
  snapshotBlock: number | undefined;
  /**
   * A backfill's stage (db/queries/transfer-stages.ts): its transfers are appended there, and its
   * blocks are not recorded as held until the stage is attached.
   */
  stage: string | undefined;
  private readonly tokens = new Map<number, NewToken>();
  /** Destroyed tokens, with the block they were found gone at. */
  private readonly deleted = new Map<number, number>();
  private readonly holders = new Map<string, NewHolder>();
  private readonly lpHolders = new Map<string, NewLpHolder>();
  private readonly pools = new Map<string, NewPool>();
  readonly reserves: NewPoolReserves[] = [];
  readonly prices: NewTokenPrice[] = [];
  readonly swaps: NewSwap[] = [];
  readonly liquidity: NewLiquidityEvent[] = [];
  readonly transfers: NewTransfer[] = [];
  /** The extrinsic hashes of the batch's blocks whose rows name extrinsics (block_extrinsics). */
  readonly extrinsics: BlockExtrinsics[] = [];
  /** Every balance read, block by block (not merged: history keeps each block's value). */
  readonly balances: BalanceRow[] = [];
  /** Every token row read and every token found gone, block by block (token history). */
  private readonly tokenRows: NewToken[] = [];
  private readonly destroyedAt: Array<{ id: number; block: number }> = [];
  /** Events handled but not decoded or attributed, of the batch's blocks. */
  readonly skipped: SkippedEventRow[] = [];
  /** How to read the foreign tokens met in the batch (history too: a backfill may meet them first). */
  readonly foreignLocations: ForeignLocation[] = [];

  /**
   * A repair batch's block (indexer/repair.ts): its reads are at this block, which the store
   * already has; it is announced again and dates the rows, but not written as a block.
   */
  at: Block | undefined;

  get size(): number {
    return this.blocks.length;
  }

  get lastBlock(): Block | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  get holderRows(): number {
    return this.holders.size;
  }

  token(row: NewToken): void {
    // A token destroyed earlier in the batch and created again stays in `deleted`: its old
    // holders still go at the destroy block (commit deletes before it writes the new rows).
    this.tokens.set(row.id, row);
    this.tokenRows.push(row);
  }

  /** Token `id` no longer exists at `block`: its holders of this batch hold 0 there (the store's are zeroed at commit). */
  destroy(id: number, block: number): void {
    this.tokens.delete(id);
    for (const [key, h] of [...this.holders]) {
      if (h.tokenId !== id) continue;
      this.holders.delete(key);
      this.balances.push({ lp: false, tokenId: id, account: h.account, blockNumber: block, balance: "0" });
    }
    this.deleted.set(id, block);
    this.destroyedAt.push({ id, block });
  }

  holder(row: NewHolder): void {
    this.holders.set(`${row.tokenId}|${row.account}`, row);
    this.balances.push({ lp: false, tokenId: row.tokenId, account: row.account, blockNumber: row.blockNumber, balance: row.balance });
  }

  lpHolder(row: NewLpHolder): void {
    this.lpHolders.set(`${row.lpTokenId}|${row.account}`, row);
    this.balances.push({ lp: true, tokenId: row.lpTokenId, account: row.account, blockNumber: row.blockNumber, balance: row.balance });
  }

  pool(row: NewPool): void {
    this.pools.set(`${row.token0Id}/${row.token1Id}`, row);
  }

  /** One announcement per block of the batch, with what each wrote. */
  announcements(): BlockAnnouncement[] {
    const swaps = new Map<number, Set<number>>();
    for (const s of this.swaps) swaps.set(s.blockNumber, (swaps.get(s.blockNumber) ?? new Set()).add(s.eventIndex));
    const rowSets: Iterable<{ blockNumber: number }>[] = [this.liquidity, this.prices, this.reserves, this.holders.values(), this.tokens.values(), this.transfers];
    const [liquidity, prices, reserves, holders, tokens, transfers] = rowSets.map(countBy);
    return (this.blocks.length > 0 ? this.blocks : this.at ? [this.at] : []).map((b) => ({
      number: b.number,
      hash: b.hash,
      timestamp: b.timestamp,
      counts: {
        swaps: swaps.get(b.number)?.size ?? 0,
        liquidityEvents: liquidity!.get(b.number) ?? 0,
        prices: prices!.get(b.number) ?? 0,
        reserves: reserves!.get(b.number) ?? 0,
        holders: holders!.get(b.number) ?? 0,
        tokens: tokens!.get(b.number) ?? 0,
        transfers: transfers!.get(b.number) ?? 0,
      },
    }));
  }

  /**
   * Writes only the history rows, keyed by block (and event): a backfill's output. Re-running a
   * block writes the same keys with the same values, and current state (tokens, holders, pools)
   * and the follower's checkpoint are never touched, so nothing can move back in time.
   */
  async commitHistory(db: Database): Promise<void> {
    const ids = await this.accountIds(db);
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await this.writeHistory(t, ids);
    });
  }

  /**
   * The ids of the accounts the batch's transfers name, given out before its transaction (a
   * rolled-back one cannot take back ids others were handed: db/queries/account-ids.ts).
   */
  private accountIds(db: Database): Promise<Map<string, number>> {
    return accountIds(db, transferAddresses(this.transfers));
  }

  private async writeHistory(t: Database, ids: Map<string, number>): Promise<void> {
    for (const rows of chunks(this.reserves)) await insertPoolReserves(t, rows);
    for (const rows of chunks(this.prices)) await insertPrices(t, rows);
    const times = new Map([...this.blocks, ...(this.at ? [this.at] : [])].map((b) => [b.number, b.timestamp]));
    for (const rows of chunks(this.prices)) await addTokenCandles(t, rows, (n) => times.get(n));
    for (const rows of chunks(this.swaps)) await insertSwaps(t, rows);
    for (const rows of chunks(this.liquidity)) await insertLiquidityEvents(t, rows);
    if (this.stage !== undefined) await insertStagedTransfers(t, this.stage, this.transfers, ids);
    else for (const rows of chunks(this.transfers)) await insertTransfers(t, rows, ids);
    for (const rows of chunks(this.extrinsics)) await insertBlockExtrinsics(t, rows);
    for (const rows of chunks(this.foreignLocations)) await upsertForeignLocations(t, rows);
    if (this.blocks.length > 0) await replaceSkippedEvents(t, this.blocks.map((b) => b.number), []);
    for (const rows of chunks(this.skipped)) await replaceSkippedEvents(t, [], rows);
    // Last: it takes the event ranges' lock (recordEventRanges), held until commit.
    for (const rows of chunks(this.blocks)) await insertBlocks(t, rows, this.snapshotBlock, this.stage === undefined);
  }

  /**
   * `fence` runs first inside the transaction and throws to abort it (the writer lock is gone);
   * `after` runs last in it (a bootstrap's sweep and task state).
   */
  async commit(
    db: Database,
    checkpoint: { blockNumber: number; blockHash: string; chainFinalized: number },
    fence?: (tx: Database) => Promise<void>,
    after?: (tx: Database) => Promise<void>,
  ): Promise<void> {
    const ids = await this.accountIds(db);
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await fence?.(t);
      for (const [id, block] of this.deleted) await deleteTokens(t, [id], block);
      for (const rows of chunks([...this.tokens.values()])) await upsertTokens(t, rows, { history: false });
      // Their history is this.balances, block by block (writeHistory).
      for (const rows of chunks([...this.holders.values()])) await upsertHolders(t, rows, { history: false });
      for (const rows of chunks([...this.lpHolders.values()])) await upsertLpHolders(t, rows, { history: false });
      for (const rows of chunks([...this.pools.values()])) await upsertPools(t, rows);
      await this.writeHistory(t, ids);
      // Balance and token history: the follower's only. A backfill's blocks lie before the history
      // floor, where a row would outlive a change the store never saw (an account emptied, a token
      // destroyed before the floor) and answer wrongly from the floor on.
      for (const rows of chunks(this.balances)) await recordBalances(t, rows);
      for (const rows of chunks(this.tokenRows)) await recordTokens(t, rows);
      for (const { id, block } of this.destroyedAt) await recordDestroyed(t, [id], block);
      await after?.(t);
      // Supply and holder count of every token the batch changed, as they stand after it.
      const last = this.lastBlock ?? this.at;
      const touched = new Set([...this.tokens.keys(), ...this.deleted.keys(), ...[...this.holders.values()].map((h) => h.tokenId)]);
      if (last) await recordTokenStats(t, [...touched].sort((a, b) => a - b), last);
      await setCheckpoint(t, checkpoint);
      await announceBlocks(t, this.announcements());
    });
  }
}

/** Rows of a merged map counted at the block that wrote them (the newest). */
function countBy<T extends { blockNumber: number }>(rows: Iterable<T>): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) out.set(r.blockNumber, (out.get(r.blockNumber) ?? 0) + 1);
  return out;
}

function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) yield rows.slice(i, i + ROWS_PER_STATEMENT);
}
