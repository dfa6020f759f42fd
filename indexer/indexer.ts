/**
 * Turns blocks into rows. `bootstrap` snapshots the whole state at one block; `processBlock`
 * reads a block's events, works out what they touched, reads those values at the block's
 * hash and adds them to the batch. Nothing is derived by adding up event amounts.
 */
import { deleteLpHoldersBefore, deleteTask, getCheckpoint, getTask, setTask, sweepSnapshot, upsertHolders, upsertLpHolders, type Database } from "../db/index.js";
import { formatFixed, USD_SCALE } from "../shared/decimal.js";
import type { Logger } from "../shared/logger.js";
import { chainAnchors } from "./anchors.js";
import { decodeEvents, readEvents, type ChainEvent } from "./chain/events.js";
import type { TokenDirectory } from "./chain/directory.js";
import { BALANCE_MAPS, type At, type BalanceState, type ChainReader, type LpBalance, type PoolBalances, type TokenState } from "./chain/reader.js";
import type { RuntimeVersion } from "@polkadot/types/interfaces";
import { Market, type AnchorConfig, type AnchorNotice, type OracleSettings } from "./market.js";
import { liquidityRows, swapRows } from "./swaps.js";
import { collectChanges, type BlockChanges, type PoolRef, type SkippedEvent } from "./touched.js";
import { Batch } from "./writer.js";

export interface IndexerOptions {
  oracle: OracleSettings;
  /** Blocks per transaction while catching up. */
  batchBlocks: number;
  logger: Logger;
  /** Checks, inside each commit's transaction (each page of a bootstrap too), that this process is still the one writer. */
  fence?: (tx: Database) => Promise<void>;
  /**
   * Aborted when the process stops (SIGTERM, or the writer lock lost): a bootstrap then ends
   * after the page in flight with BootstrapStopped; its resume point is stored with each page.
   */
  signal?: AbortSignal;
  /** Storage entries per page of a bootstrap (default 1,000). */
  bootstrapPageSize?: number;
  /** Called with the state of a long task (bootstrap, history) each time it moves. */
  onTask?: (name: TaskName, state: BootstrapTask | HistoryTask) => void;
}

/** "history": a backfill, which reads no holder balances and writes no current state. */
export type Scope = "all" | "history";

interface BlockPlan {
  changes: BlockChanges;
  /** Token ids the events name, and those of them the directory can read. */
  wanted: Set<number>;
  readable: Set<number>;
  tokenIds: number[];
  pairs: { tokenId: number; account: string }[];
  lpPairs: { lpTokenId: number; account: string }[];
  refs: PoolRef[];
  /** The reads in a canonical form: equal keys, equal reads. */
  key: string;
}

interface BlockReads {
  tokens: { tokens: TokenState[]; missing: number[] };
  balances: BalanceState[];
  lpBalances: LpBalance[];
  pools: PoolBalances[];
}

/** A block fetched ahead of its turn (Indexer.fetchBlock). */
export interface FetchedBlock {
  number: number;
  block: Awaited<ReturnType<ChainReader["block"]>>;
  events: ChainEvent[];
  plan: BlockPlan;
  reads: BlockReads | undefined;
}

/** A bootstrap ended early because the process stops; a restart resumes the same snapshot. */
export class BootstrapStopped extends Error {
  override name = "BootstrapStopped";
}

export const BOOTSTRAP_TASK = "bootstrap";
export const HISTORY_TASK = "history";
/** The snapshot of LP positions (snapshotLpHolders): its block and the positions read. */
export const LP_TASK = "lp-holders";
export type TaskName = typeof BOOTSTRAP_TASK | typeof HISTORY_TASK;

/** A bootstrap snapshot as stored in indexer_tasks (and shown by /health and status). */
export interface BootstrapTask {
  /** The pinned block. */
  number: number;
  hash: string;
  /** Where the snapshot continues: an index in BALANCE_MAPS and the last storage key read of it. */
  map: number;
  lastKey: string | null;
  /** Storage entries read, all maps (zero balances too), and non-zero balances written. */
  accounts: number;
  holders: number;
  /** Entries read of the current map, and the share of its key space read. */
  mapEntries: number;
  fraction: number;
  /** Entries per second in this process; seconds left for the current map at that rate. */
  perSecond: number | null;
  etaSeconds: number | null;
  startedAt: string;
  /** Times a process continued it after an interruption. */
  resumed: number;
  finished: boolean;
  /** Why this snapshot was started or resumed, when it continues or replaces another. */
  note: string | null;
}

/** The first start's history backfill, as stored in indexer_tasks. */
export interface HistoryTask {
  from: number;
  to: number;
  hours: number;
  /** Blocks committed. */
  done: number;
  finished: boolean;
  /** Why it could not run (a pruned node), when it did not. */
  error: string | null;
}

export class Indexer {
  private market!: Market;
  private readonly anchors: AnchorConfig;
  /** The LP fee of the last runtime whose constant was understood: pools keep it through an unknown one. */
  private lastLpFeePpm = 0n;
  private readonly feeProblems = new Set<string>();

  constructor(
    readonly db: Database,
    readonly reader: ChainReader,
    readonly options: IndexerOptions,
  ) {
    const configured = options.oracle.stablecoins;
    const chain = chainAnchors(reader.identity, reader.nativeTokenId);
    this.anchors = configured ?? { ids: chain.ids, symbols: [] };
    options.logger.info(
      configured ? { chain: chain.chain, anchors: configured } : { chain: chain.chain, anchors: chain.names, ids: chain.ids },
      configured ? "oracle: USD anchors from USD_STABLECOINS" : "oracle: USD anchors of this chain",
    );
  }

  /** (Re)loads the in-memory market from the committed state; returns the checkpoint. */
  async load() {
    this.market = await Market.load(this.db, this.options.oracle, this.anchors, this.reader.directory, this.anchorNotice);
    return getCheckpoint(this.db);
  }

  private readonly anchorNotice = (n: AnchorNotice): void => {
    const log = this.options.logger;
    if (n.kind === "pinned") log.warn({ symbol: n.symbol, tokenId: n.id }, "oracle: USD_STABLECOINS symbol pinned to the one token that has it (for this run; prefer ids)");
    else if (n.kind === "ambiguous") log.error({ symbol: n.symbol, ids: n.ids }, "oracle: a USD_STABLECOINS symbol names several tokens; none of them is an anchor (use an id)");
    else log.warn({ symbol: n.symbol }, "oracle: no token has this USD_STABLECOINS symbol (yet)");
  };

  /**
   * Builds the in-memory market from chain storage at block `number` instead of the database:
   * the starting point of a backfill chunk, which may lie anywhere in history.
   */
  async loadAt(number: number): Promise<void> {
    const block = await this.reader.block(number);
    this.market = new Market(this.options.oracle, this.anchors, this.anchorNotice);
    const { tokens } = await this.reader.tokens(block.at, await this.reader.allTokenIds(block.at));
    for (const t of tokens) this.market.setToken(t);
    const { pools, unusable } = await this.reader.allPools(block.at);
    this.reportUnusable(number, unusable);
    for (const p of await this.reader.pools(block.at, pools)) this.market.setPool(p.ref, BigInt(p.reserve0), BigInt(p.reserve1));
    this.market.reprice();
  }

  private reportUnusable(block: number, unusable: { pool: string; reason: string }[]): void {
    for (const u of unusable) this.options.logger.error({ block, ...u }, "indexer: pool cannot be indexed");
    for (const c of this.reader.collisions.splice(0)) {
      this.options.logger.error({ block, tokenId: c.id, location: c.key }, "indexer: foreign asset not indexed: its location derives the id of another location");
    }
  }

  /** The foreign locations learned since the last batch, to store with it. */
  private storeLearned(batch: Batch, blockNumber: number): void {
    for (const [tokenId, key] of this.reader.directory.drainLearned()) batch.foreignLocations.push({ tokenId, locationKey: key.key, location: key.location, blockNumber });
  }

  /** The block runtime's LP fee, or why it cannot be told (then pools keep the last one, swaps are skipped). */
  private lpFee(at: At): { ppm: bigint; unknown?: string } {
    try {
      const ppm = this.reader.lpFeePpm(at);
      if (ppm === null) return at.query.assetConversion ? { ppm: this.lastLpFeePpm, unknown: "the runtime has no assetConversion.LPFee constant" } : { ppm: 0n };
      this.lastLpFeePpm = ppm;
      return { ppm };
    } catch (err) {
      const unknown = err instanceof Error ? err.message : String(err);
      if (!this.feeProblems.has(unknown)) this.options.logger.error({ specVersion: at.runtimeVersion.specVersion.toNumber(), reason: unknown }, "indexer: LP fee of this runtime not understood; its swaps are recorded as skipped");
      this.feeProblems.add(unknown);
      return { ppm: this.lastLpFeePpm, unknown };
    }
  }

  /**
   * Writes the complete state at one block: a fresh deployment, or a store whose checkpoint the
   * node no longer has the state after (re-bootstrap). Resumable: the pinned block and the last
   * storage key read are stored with each page of holders, so a restart continues the same
   * snapshot while the node still has that block's state, and otherwise starts a new one at
   * `head` and says why. At the end, in the transaction that writes the checkpoint, rows of
   * current state the snapshot did not see (from an aborted attempt, or from before a
   * re-bootstrap) are removed and the holder counts are recounted, so they are exact.
   */
  async bootstrap(head: { number: number; hash: string }, chainFinalized: number): Promise<void> {
    const log = this.options.logger;
    if (this.options.signal?.aborted) throw new BootstrapStopped("bootstrap not started: stopping");
    const task = await this.bootstrapTask(head);
    const block = await this.reader.blockByHash(task.hash, task.number);
    const batch = new Batch();
    const ids = await this.reader.allTokenIds(block.at);
    this.lpFee(block.at);
    await this.applyTokens(block.at, ids, batch, task.number);
    const run = { started: Date.now(), entries: 0, logged: 0 };
    this.report(task);
    for await (const page of this.reader.allBalances(block.at, { map: task.map, lastKey: task.lastKey }, this.options.bootstrapPageSize)) {
      if (page.map !== task.map) Object.assign(task, { map: page.map, mapEntries: 0 });
      run.entries += page.entries;
      const seconds = (Date.now() - run.started) / 1000;
      const perSecond = seconds > 0 ? Math.round(run.entries / seconds) : null;
      const mapTotal = page.last ? task.mapEntries + page.entries : page.fraction > 0 ? Math.round((task.mapEntries + page.entries) / page.fraction) : null;
      Object.assign(task, {
        lastKey: page.lastKey,
        accounts: task.accounts + page.entries,
        holders: task.holders + page.rows.length,
        mapEntries: task.mapEntries + page.entries,
        fraction: page.last ? 1 : page.fraction,
        perSecond,
        etaSeconds: mapTotal !== null && perSecond ? Math.round((mapTotal - task.mapEntries - page.entries) / perSecond) : null,
      });
      // The page's rows and where the snapshot stands, together: a crash resumes after the
      // last page whose rows are in, and no page is lost or half written. Fenced like every
      // commit: a process that lost the writer lock (a standby may be resuming this very
      // snapshot) writes no further page.
      await this.db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        await this.options.fence?.(t);
        await upsertHolders(t, page.rows.map((b) => ({ ...b, blockNumber: task.number })));
        await setTask(t, BOOTSTRAP_TASK, task);
      });
      this.report(task);
      if (Date.now() - run.logged >= 5_000 || page.last) {
        run.logged = Date.now();
        log.info({ block: task.number, map: BALANCE_MAPS[task.map], accounts: task.accounts, holders: task.holders, perSecond, etaSeconds: task.etaSeconds }, "bootstrap: reading balances");
      }
      // Stopping (SIGTERM, lock lost): after this page, not after the whole snapshot (minutes
      // on a large chain); the page and the resume point are in, so a restart continues here.
      if (this.options.signal?.aborted) {
        log.info({ block: task.number, map: BALANCE_MAPS[task.map], accounts: task.accounts, holders: task.holders }, "bootstrap: stopped; a restart resumes the snapshot here");
        throw new BootstrapStopped(`bootstrap stopped at ${task.accounts} accounts`);
      }
    }
    const { pools, unusable } = await this.reader.allPools(block.at);
    this.reportUnusable(task.number, unusable);
    await this.applyPools(block.at, pools, batch, task.number, block.timestamp);
    this.applyPrices(batch, task.number);
    this.storeLearned(batch, task.number);
    batch.blocks.push({ number: task.number, hash: task.hash, timestamp: block.timestamp });
    const done: BootstrapTask = { ...task, map: BALANCE_MAPS.length, lastKey: null, fraction: 1, etaSeconds: 0, finished: true };
    await batch.commit(this.db, { blockNumber: task.number, blockHash: task.hash, chainFinalized: Math.max(chainFinalized, task.number) }, this.options.fence, async (t) => {
      await sweepSnapshot(t, task.number);
      await setTask(t, BOOTSTRAP_TASK, done);
      // A new snapshot of tokens calls for one of LP positions too (snapshotLpHolders, next).
      await deleteTask(t, LP_TASK);
    });
    this.report(done);
    log.info({ block: task.number, tokens: ids.length, accounts: task.accounts, holders: task.holders, pools: pools.length, resumed: task.resumed }, "bootstrap: done");
  }

  /** The snapshot to continue, or a new one at `head` (and why, when one was on record). */
  private async bootstrapTask(head: { number: number; hash: string }): Promise<BootstrapTask> {
    const log = this.options.logger;
    const prior = await getTask<BootstrapTask>(this.db, BOOTSTRAP_TASK);
    const fresh = (note: string | null): BootstrapTask => ({
      number: head.number,
      hash: head.hash,
      map: 0,
      lastKey: null,
      accounts: 0,
      holders: 0,
      mapEntries: 0,
      fraction: 0,
      perSecond: null,
      etaSeconds: null,
      startedAt: new Date().toISOString(),
      resumed: 0,
      finished: false,
      note,
    });
    if (!prior || prior.finished) {
      log.info({ block: head.number }, prior ? "bootstrap: a new snapshot (re-bootstrap)" : "bootstrap: a new snapshot");
      if (!prior) return fresh(null);
      // Named by where the store stood (its checkpoint), not by the earlier snapshot's block.
      const cp = await getCheckpoint(this.db);
      return fresh(`re-bootstrap at block ${head.number} of a store indexed to block ${cp?.blockNumber ?? prior.number} (its previous snapshot was of block ${prior.number})`);
    }
    if (await this.reader.hasState(prior.hash)) {
      log.info({ block: prior.number, map: BALANCE_MAPS[prior.map], accounts: prior.accounts }, "bootstrap: resuming the snapshot where it stopped");
      return { ...prior, resumed: prior.resumed + 1, note: `resumed at ${prior.accounts} accounts` };
    }
    const note = `the node no longer has the state of block ${prior.number}, where the interrupted snapshot was pinned (${prior.accounts} accounts read); a new snapshot at block ${head.number}`;
    log.warn({ block: prior.number, head: head.number }, `bootstrap: ${note}`);
    return fresh(note);
  }

  /**
   * Every LP position of the chain at `head`, once per store (and again after a re-bootstrap):
   * stores indexed before positions were kept get theirs, and a new store its first ones. Rows
   * the snapshot did not see are removed in the same transaction; blocks between the checkpoint
   * and `head` then cannot move a position back (a row only moves forward in blocks).
   */
  async snapshotLpHolders(head: { number: number; hash: string }): Promise<void> {
    if (await getTask(this.db, LP_TASK)) return;
    const block = await this.reader.blockByHash(head.hash, head.number);
    const rows = await this.reader.allLpBalances(block.at);
    await this.db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await this.options.fence?.(t);
      await deleteLpHoldersBefore(t, head.number);
      await upsertLpHolders(t, rows.map((r) => ({ ...r, blockNumber: head.number })));
      await setTask(t, LP_TASK, { block: head.number, positions: rows.length });
    });
    this.options.logger.info({ block: head.number, positions: rows.length }, "indexer: LP positions read");
  }

  private report(task: BootstrapTask): void {
    this.options.onTask?.(BOOTSTRAP_TASK, task);
  }

  /**
   * Block `number`'s chain data, fetched ahead of its turn (a pipelined catch-up): hash,
   * events, timestamp, and the state reads its events call for, planned against the market as
   * it stands now (a copy: nothing shared moves). processBlock uses the reads only if, at the
   * block's turn, the same reads are called for — a pool created or a location learned in a
   * block between changes the plan, and the block then reads again. `version` is the runtime
   * version of the block's parent state when known (no header or version round trip).
   */
  async fetchBlock(number: number, version?: RuntimeVersion, scope: Scope = "all"): Promise<FetchedBlock> {
    const hash = (await this.reader.api.rpc.chain.getBlockHash(number)).toHex();
    const { block, records } = await this.reader.blockAndEvents(hash, number, version, true);
    const events = decodeEvents(records!, this.reader.ss58);
    const plan = this.plan(events, new Map(this.market.refs), this.reader.directory.fork(), scope);
    // Speculative: a read the block's turn would not make (a token the real directory does
    // not know yet) fails here and is simply made again then.
    const reads = await this.readPlan(block.at, plan).catch(() => undefined);
    return { number, block, events, plan, reads };
  }

  /** What a block's events call for reading: tokens, (token, account) balances and pools. */
  private plan(events: ChainEvent[], pools: Map<string, PoolRef>, directory: TokenDirectory, scope: Scope): BlockPlan {
    const changes = collectChanges(events, { nativeTokenId: this.reader.nativeTokenId, pools, tokens: directory });
    for (const id of changes.destroyed) changes.tokens.add(id);
    const wanted = new Set([...changes.tokens, ...changes.balances.keys(), ...[...changes.pools].flatMap((k) => k.split("/").map(Number))]);
    const readable = new Set([...wanted].filter((id) => directory.key(id) !== undefined));
    const tokenIds = [...changes.tokens].filter((id) => readable.has(id)).sort((a, b) => a - b);
    const pairs = scope === "all" ? [...changes.balances].flatMap(([tokenId, accounts]) => (readable.has(tokenId) ? [...accounts].map((account) => ({ tokenId, account })) : [])) : [];
    const refs = [...changes.pools].map((k) => pools.get(k)).filter((r): r is PoolRef => r !== undefined && readable.has(r.token0Id) && readable.has(r.token1Id));
    const lpPairs = scope === "all" ? [...changes.lpBalances].flatMap(([lpTokenId, accounts]) => [...accounts].map((account) => ({ lpTokenId, account }))) : [];
    const key = JSON.stringify([
      tokenIds,
      pairs.map((p) => `${p.tokenId}|${p.account}`).sort(),
      refs.map((r) => `${r.token0Id}/${r.token1Id}|${r.account}|${r.lpTokenId}`).sort(),
      lpPairs.map((p) => `${p.lpTokenId}|${p.account}`).sort(),
    ]);
    return { changes, wanted, readable, tokenIds, pairs, lpPairs, refs, key };
  }

  private async readPlan(at: At, plan: BlockPlan): Promise<BlockReads> {
    const [tokens, balances, pools, lpBalances] = await Promise.all([
      plan.tokenIds.length > 0 ? this.reader.tokens(at, plan.tokenIds) : { tokens: [], missing: [] },
      plan.pairs.length > 0 ? this.reader.balances(at, plan.pairs) : [],
      plan.refs.length > 0 ? this.reader.pools(at, plan.refs) : [],
      plan.lpPairs.length > 0 ? this.reader.lpBalances(at, plan.lpPairs) : [],
    ]);
    return { tokens, balances, pools, lpBalances };
  }

  /**
   * Adds block `number` to `batch`. With `history` only, holder balances are not read: a
   * backfill writes history (swaps, liquidity, reserves, prices, blocks), never current state.
   * `fetched` is the block fetched ahead (fetchBlock); without it the block is read now.
   */
  async processBlock(number: number, batch: Batch, scope: Scope = "all", fetched?: FetchedBlock): Promise<{ events: number; swaps: number; skipped: number; codeUpdated: boolean }> {
    const { block, events } = fetched ?? { block: await this.reader.block(number), events: undefined };
    const blockEvents = events ?? (await readEvents(block.at, this.reader.ss58));
    const plan = this.plan(blockEvents, this.market.refs, this.reader.directory, scope);
    for (const id of plan.wanted) if (!plan.readable.has(id)) this.options.logger.error({ block: number, tokenId: id }, "indexer: token not read: no location is known for this foreign token id");
    const reads = fetched?.reads && fetched.plan.key === plan.key ? fetched.reads : await this.readPlan(block.at, plan);
    const { changes } = plan;
    const missing = this.applyTokenStates(reads.tokens, batch, number);
    if (scope === "all") for (const b of reads.balances) if (!missing.has(b.tokenId)) batch.holder({ ...b, blockNumber: number });
    for (const b of reads.lpBalances) batch.lpHolder({ ...b, blockNumber: number });
    const fee = this.lpFee(block.at);
    this.applyPoolStates(reads.pools, batch, number, block.timestamp, fee.ppm);
    this.applyPrices(batch, number);
    const at = { number, timestamp: block.timestamp };
    const valuation = { prices: this.market.prices, decimals: this.market.decimals, lpFeePpm: fee.ppm, feeUnknown: fee.unknown };
    const swaps = swapRows(changes.swaps, this.market.refs, valuation, at);
    batch.swaps.push(...swaps.rows);
    batch.liquidity.push(...liquidityRows(changes.liquidity, this.market.refs, at));
    this.storeLearned(batch, number);
    batch.blocks.push({ number, hash: block.hash, timestamp: block.timestamp });
    const skipped = [...changes.skipped, ...swaps.skipped];
    this.recordSkipped(number, skipped, batch);
    // The next block runs the new runtime: its version must be read, not assumed.
    const codeUpdated = blockEvents.some((e) => e.section === "system" && e.method === "CodeUpdated");
    return { events: blockEvents.length, swaps: swaps.rows.length, skipped: skipped.length, codeUpdated };
  }

  /** Never silently: each skipped event is an error line, a row for /health and status. */
  private recordSkipped(block: number, skipped: SkippedEvent[], batch: Batch): void {
    for (const s of skipped) {
      this.options.logger.error({ block, eventIndex: s.eventIndex, event: s.event, reason: s.reason }, "indexer: event not indexed");
      batch.skipped.push({ blockNumber: block, eventIndex: s.eventIndex, event: s.event, reason: s.reason });
    }
  }

  private async applyTokens(at: At, ids: number[], batch: Batch, blockNumber: number): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return this.applyTokenStates(await this.reader.tokens(at, ids), batch, blockNumber);
  }

  private applyTokenStates({ tokens, missing }: { tokens: TokenState[]; missing: number[] }, batch: Batch, blockNumber: number): Set<number> {
    for (const t of tokens) {
      batch.token({ ...t, blockNumber });
      this.market.setToken(t);
    }
    for (const id of missing) {
      batch.destroy(id);
      this.market.deleteToken(id);
    }
    return new Set(missing);
  }

  private async applyPools(at: At, refs: PoolRef[], batch: Batch, blockNumber: number, timestamp: number, feePpm = this.lastLpFeePpm): Promise<void> {
    if (refs.length === 0) return;
    this.applyPoolStates(await this.reader.pools(at, refs), batch, blockNumber, timestamp, feePpm);
  }

  private applyPoolStates(states: PoolBalances[], batch: Batch, blockNumber: number, timestamp: number, feePpm: bigint): void {
    const lpFeePpm = Number(feePpm);
    for (const p of states) {
      const { ref } = p;
      this.market.setPool(ref, BigInt(p.reserve0), BigInt(p.reserve1));
      batch.pool({
        ...ref,
        reserve0: p.reserve0,
        reserve1: p.reserve1,
        lpSupply: p.lpSupply,
        lpFeePpm,
        // Ignored on update: a pool's creation block is written once.
        createdBlock: blockNumber,
        blockNumber,
      });
      batch.reserves.push({ token0Id: ref.token0Id, token1Id: ref.token1Id, blockNumber, timestamp, reserve0: p.reserve0, reserve1: p.reserve1 });
    }
  }

  private applyPrices(batch: Batch, blockNumber: number): void {
    for (const [tokenId, price] of this.market.reprice()) batch.prices.push({ tokenId, blockNumber, priceUsd: price === null ? null : formatFixed(price, USD_SCALE) });
  }
}
