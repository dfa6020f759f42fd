/**
 * Turns blocks into rows. `bootstrap` snapshots the whole state at one block; `processBlock`
 * reads a block's events, works out what they touched, reads those values at the block's
 * hash and adds them to the batch. Nothing is derived by adding up event amounts.
 */
import { getCheckpoint, upsertHolders, type Database } from "../db/index.js";
import { formatFixed, USD_SCALE } from "../shared/decimal.js";
import type { Logger } from "../shared/logger.js";
import { chainAnchors } from "./anchors.js";
import { readEvents } from "./chain/events.js";
import type { At, ChainReader } from "./chain/reader.js";
import { Market, type AnchorConfig, type AnchorNotice, type OracleSettings } from "./market.js";
import { liquidityRows, swapRows } from "./swaps.js";
import { collectChanges, type PoolRef, type SkippedEvent } from "./touched.js";
import { Batch } from "./writer.js";

export interface IndexerOptions {
  oracle: OracleSettings;
  /** Blocks per transaction while catching up. */
  batchBlocks: number;
  logger: Logger;
  /** Checks, inside each commit's transaction, that this process is still the one writer. */
  fence?: (tx: Database) => Promise<void>;
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

  /** Ids the reader can read (a foreign id whose location was never seen cannot be): the others are reported. */
  private readable(ids: Iterable<number>, block: number): Set<number> {
    const out = new Set<number>();
    for (const id of ids) {
      if (this.reader.directory.key(id)) out.add(id);
      else this.options.logger.error({ block, tokenId: id }, "indexer: token not read: no location is known for this foreign token id");
    }
    return out;
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

  /** Writes the complete state at `head` (no checkpoint yet: a fresh deployment). */
  async bootstrap(head: { number: number; hash: string }, chainFinalized: number): Promise<void> {
    const log = this.options.logger;
    const started = Date.now();
    const block = await this.reader.blockByHash(head.hash, head.number);
    const batch = new Batch();
    const ids = await this.reader.allTokenIds(block.at);
    this.lpFee(block.at);
    await this.applyTokens(block.at, ids, batch, head.number);
    // Holders go in page by page ahead of the final transaction: rewriting them after a crash
    // is harmless (same block, same values), and memory stays flat on a large chain.
    let holders = 0;
    for await (const page of this.reader.allBalances(block.at)) {
      await upsertHolders(this.db, page.map((b) => ({ ...b, blockNumber: head.number })));
      holders += page.length;
      log.info({ block: head.number, holders }, "bootstrap: holders");
    }
    const { pools, unusable } = await this.reader.allPools(block.at);
    this.reportUnusable(head.number, unusable);
    await this.applyPools(block.at, pools, batch, head.number, block.timestamp);
    this.applyPrices(batch, head.number);
    this.storeLearned(batch, head.number);
    batch.blocks.push({ number: head.number, hash: head.hash, timestamp: block.timestamp });
    await batch.commit(this.db, { blockNumber: head.number, blockHash: head.hash, chainFinalized }, this.options.fence);
    log.info({ block: head.number, tokens: ids.length, holders, pools: pools.length, ms: Date.now() - started }, "bootstrap: done");
  }

  /**
   * Adds block `number` to `batch`. With `history` only, holder balances are not read: a
   * backfill writes history (swaps, liquidity, reserves, prices, blocks), never current state.
   */
  async processBlock(number: number, batch: Batch, scope: "all" | "history" = "all"): Promise<{ events: number; swaps: number; skipped: number }> {
    const block = await this.reader.block(number);
    const events = await readEvents(block.at, this.reader.ss58);
    const changes = collectChanges(events, { nativeTokenId: this.reader.nativeTokenId, pools: this.market.refs, tokens: this.reader.directory });
    for (const id of changes.destroyed) changes.tokens.add(id);
    const readable = this.readable(new Set([...changes.tokens, ...changes.balances.keys(), ...[...changes.pools].flatMap((k) => k.split("/").map(Number))]), number);
    const missing = await this.applyTokens(block.at, [...changes.tokens].filter((id) => readable.has(id)), batch, number);
    const pairs = [...changes.balances].flatMap(([tokenId, accounts]) => (missing.has(tokenId) || !readable.has(tokenId) ? [] : [...accounts].map((account) => ({ tokenId, account }))));
    if (scope === "all") for (const b of await this.reader.balances(block.at, pairs)) batch.holder({ ...b, blockNumber: number });
    const refs = [...changes.pools].map((k) => this.market.refs.get(k)).filter((r): r is PoolRef => r !== undefined && readable.has(r.token0Id) && readable.has(r.token1Id));
    const fee = this.lpFee(block.at);
    await this.applyPools(block.at, refs, batch, number, block.timestamp, fee.ppm);
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
    return { events: events.length, swaps: swaps.rows.length, skipped: skipped.length };
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
    const { tokens, missing } = await this.reader.tokens(at, ids);
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
    const lpFeePpm = Number(feePpm);
    for (const p of await this.reader.pools(at, refs)) {
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
    for (const [tokenId, price] of this.market.reprice()) batch.prices.push({ tokenId, blockNumber, priceUsd: formatFixed(price, USD_SCALE) });
  }
}
