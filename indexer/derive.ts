/**
 * The derive stage: a decoded block's events and the state they touched become rows. It never
 * talks to the node or the store: `plan` says which state a block's events call for (the fetch
 * stage reads it), `apply` turns the reads into rows of the batch and moves the in-memory market
 * (pools, reserves, decimals, prices) forward. Nothing is derived by adding up event amounts.
 */
import type { Database } from "../db/index.js";
import { formatFixed, USD_SCALE } from "../shared/decimal.js";
import type { Logger } from "../shared/logger.js";
import { chainAnchors } from "./anchors.js";
import type { ChainEvent } from "./chain/events.js";
import type { TokenDirectory } from "./chain/directory.js";
import type { At, ChainIdentity, PoolBalances, PoolRef, TokenState } from "./chain/reader.js";
import { lpFeePpm } from "./chain/runtime.js";
import type { SpecId } from "./chain/runtimes.js";
import type { DecodedBlock } from "./decode.js";
import type { BlockReads, WantedState } from "./fetch.js";
import { Market, type AnchorConfig, type AnchorNotice, type OracleSettings } from "./market.js";
import { liquidityRows, swapRows } from "./swaps.js";
import { transferRows } from "./transfers.js";
import { collectChanges } from "./touched.js";
import type { BlockChanges, SkippedEvent } from "./block-changes.js";
import type { Batch } from "./writer.js";

/** "history": a backfill, which reads no holder balances and writes no current state. */
export type Scope = "all" | "history";

/** The state a block's events call for (fetch.ts reads it), and what the plan was made from. */
export interface BlockPlan extends WantedState {
  changes: BlockChanges;
  /** Token ids the events name, and those of them the directory can read. */
  wanted: Set<number>;
  readable: Set<number>;
  /** The reads in a canonical form: equal keys, equal reads. */
  key: string;
}

export interface BlockResult {
  block: DecodedBlock;
  events: number;
  swaps: number;
  skipped: number;
  /** The block is the first of a runtime other than the block's before it (an upgrade took effect). */
  upgraded: boolean;
  /** Tokens whose accounts changed without events naming them (AccountsDestroyed): their holders are read again. */
  reread: number[];
}

export interface DeriveOptions {
  oracle: OracleSettings;
  logger: Logger;
}

export class Deriver {
  market!: Market;
  readonly anchors: AnchorConfig;
  /** The LP fee of the last runtime whose constant was understood: pools keep it through an unknown one. */
  private lastLpFeePpm = 0n;
  private readonly feeProblems = new Set<string>();
  /** The runtime of the block applied last (undefined: not known yet, no upgrade can be told). */
  private runtime: SpecId | undefined;
  constructor(
    private readonly chain: { identity: ChainIdentity; nativeTokenId: number; directory: TokenDirectory },
    private readonly options: DeriveOptions,
  ) {
    this.anchors = options.oracle.stablecoins ?? { ids: chainAnchors(chain.identity, chain.nativeTokenId).ids, symbols: [] };
  }

  /** Says which tokens are worth 1 USD: once a connection (the follower), not once a backfill chunk. */
  announceAnchors(): void {
    const configured = this.options.oracle.stablecoins;
    const anchors = chainAnchors(this.chain.identity, this.chain.nativeTokenId);
    this.options.logger.info(
      configured ? { chain: anchors.chain, anchors: configured } : { chain: anchors.chain, anchors: anchors.names, ids: anchors.ids },
      configured ? "oracle: USD anchors from USD_STABLECOINS" : "oracle: USD anchors of this chain",
    );
  }

  /** The market as the store last committed it (at start, and after a re-read). */
  async load(db: Database): Promise<void> {
    this.market = await Market.load(db, this.options.oracle, this.anchors, this.chain.directory, this.anchorNotice);
  }

  /** Pools the chain has but the indexer cannot use, and foreign locations refused: never silently. */
  reportUnusable(block: number, unusable: { pool: string; reason: string }[], collisions: { id: number; key: string }[]): void {
    for (const u of unusable) this.options.logger.error({ block, ...u }, "indexer: pool cannot be indexed");
    for (const c of collisions.splice(0)) {
      this.options.logger.error({ block, tokenId: c.id, location: c.key }, "indexer: foreign asset not indexed: its location derives the id of another location");
    }
  }

  /** A market with nothing in it yet (a backfill chunk fills it from chain storage). */
  emptyMarket(): Market {
    return (this.market = new Market(this.options.oracle, this.anchors, this.anchorNotice));
  }

  /** Never silently: a kind of event the bytes decoder read otherwise than polkadot-js (which decodes it from then on). */
  readonly codecMismatch = (kind: string): void => {
    this.options.logger.warn({ event: kind }, "indexer: an event kind decodes differently from the bytes than through polkadot-js; polkadot-js decodes it from now on (slower, same rows)");
  };

  /** The runtime of the state the next block starts from (its parent's). */
  startFrom(runtime: SpecId): void {
    this.runtime = { specName: runtime.specName, specVersion: runtime.specVersion };
  }

  readonly anchorNotice = (n: AnchorNotice): void => {
    const log = this.options.logger;
    if (n.kind === "pinned") log.warn({ symbol: n.symbol, tokenId: n.id }, "oracle: USD_STABLECOINS symbol pinned to the one token that has it (for this run; prefer ids)");
    else if (n.kind === "ambiguous") log.error({ symbol: n.symbol, ids: n.ids }, "oracle: a USD_STABLECOINS symbol names several tokens; none of them is an anchor (use an id)");
    else log.warn({ symbol: n.symbol }, "oracle: no token has this USD_STABLECOINS symbol (yet)");
  };

  /** The block runtime's LP fee, or why it cannot be told (then pools keep the last one, swaps are skipped). */
  lpFee(at: At): { ppm: bigint; unknown?: string } {
    try {
      const ppm = lpFeePpm(at);
      if (ppm === null) return at.query.assetConversion ? { ppm: this.lastLpFeePpm, unknown: "the runtime has no assetConversion.LPFee constant" } : { ppm: 0n };
      this.lastLpFeePpm = ppm;
      return { ppm };
    } catch (err) {
      const unknown = err instanceof Error ? err.message : String(err);
      if (!this.feeProblems.has(unknown)) this.options.logger.error({ specVersion: at.runtime.specVersion, reason: unknown }, "indexer: LP fee of this runtime not understood; its swaps are recorded as skipped");
      this.feeProblems.add(unknown);
      return { ppm: this.lastLpFeePpm, unknown };
    }
  }

  /**
   * What a block's events call for reading: tokens, (token, account) balances and pools. A
   * speculative plan (a block fetched ahead of its turn) is made against copies of the market's
   * pools and of the directory, so nothing shared moves.
   */
  plan(events: ChainEvent[], scope: Scope, speculative = false): BlockPlan {
    const pools = speculative ? new Map(this.market.refs) : this.market.refs;
    const directory = speculative ? this.chain.directory.fork() : this.chain.directory;
    const changes = collectChanges(events, { nativeTokenId: this.chain.nativeTokenId, pools, tokens: directory });
    for (const id of [...changes.destroyed, ...changes.accountsDropped]) changes.tokens.add(id);
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

  /**
   * Adds `block` to `batch` from its plan and the reads the plan called for. With `history`
   * only, no holder balances: a backfill writes history (swaps, liquidity, reserves, prices,
   * blocks), never current state.
   */
  apply(block: DecodedBlock, plan: BlockPlan, reads: BlockReads, batch: Batch, scope: Scope): BlockResult {
    const { number } = block;
    for (const id of plan.wanted) if (!plan.readable.has(id)) this.options.logger.error({ block: number, tokenId: id }, "indexer: token not read: no location is known for this foreign token id");
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
    batch.transfers.push(...transferRows(changes.transfers, valuation, at));
    this.storeLearned(batch, number);
    batch.blocks.push({ number, hash: block.hash, timestamp: block.timestamp });
    if (block.extrinsics !== undefined) batch.extrinsics.push({ blockNumber: number, hashes: block.extrinsics });
    const skipped = [...changes.skipped, ...swaps.skipped];
    this.recordSkipped(number, skipped, batch);
    const upgraded = this.runtime !== undefined && (this.runtime.specName !== block.runtime.specName || this.runtime.specVersion !== block.runtime.specVersion);
    this.startFrom(block.runtime);
    const reread = scope === "all" ? [...changes.accountsDropped].filter((id) => !missing.has(id) && plan.readable.has(id)) : [];
    return { block, events: block.events.length, swaps: swaps.rows.length, skipped: skipped.length, upgraded, reread };
  }

  /** Never silently: each skipped event is an error line, a row for /health and status. */
  private recordSkipped(block: number, skipped: SkippedEvent[], batch: Batch): void {
    for (const s of skipped) {
      this.options.logger.error({ block, eventIndex: s.eventIndex, event: s.event, reason: s.reason }, "indexer: event not indexed");
      batch.skipped.push({ blockNumber: block, eventIndex: s.eventIndex, event: s.event, reason: s.reason });
    }
  }

  /** Token states read at `blockNumber` into the batch and the market; returns the ids that no longer exist. */
  applyTokenStates({ tokens, missing }: { tokens: TokenState[]; missing: number[] }, batch: Batch, blockNumber: number): Set<number> {
    for (const t of tokens) {
      batch.token({ ...t, blockNumber });
      this.market.setToken(t);
    }
    for (const id of missing) {
      batch.destroy(id, blockNumber);
      this.market.deleteToken(id);
    }
    return new Set(missing);
  }

  applyPoolStates(states: PoolBalances[], batch: Batch, blockNumber: number, timestamp: number, feePpm: bigint = this.lastLpFeePpm): void {
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
      batch.reserves.push({ token0Id: ref.token0Id, token1Id: ref.token1Id, blockNumber, timestamp, reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply, lpFeePpm });
    }
  }

  applyPrices(batch: Batch, blockNumber: number): void {
    for (const [tokenId, price] of this.market.reprice()) batch.prices.push({ tokenId, blockNumber, priceUsd: price === null ? null : formatFixed(price, USD_SCALE) });
  }

  /** The foreign locations learned since the last batch, to store with it. */
  storeLearned(batch: Batch, blockNumber: number): void {
    for (const [tokenId, key] of this.chain.directory.drainLearned()) batch.foreignLocations.push({ tokenId, locationKey: key.key, location: key.location, blockNumber });
  }
}
