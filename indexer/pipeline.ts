/**
 * Orders the stages for a run of blocks: fetch → decode → derive, then the caller writes. Up to
 * `depth` blocks are fetched and decoded ahead of their turn (against a remote node a block
 * costs a few round trips; one after the other that is 1–2 blocks/s at 50 ms, with 32 in flight
 * it is the node's throughput instead), and applied strictly in order.
 *
 * Fetching ahead guesses nothing that decoding depends on: each block's runtime comes from its
 * own state (fetch.ts), so a block after an upgrade is decoded with the new runtime whether it
 * was fetched before or after the upgrade was applied. What a block fetched ahead cannot know is
 * the market at its turn (a pool created or a location learned in a block between): its state
 * reads are planned against copies, and made again at its turn if the real plan differs.
 */
import type { ChainReader } from "./chain/reader.js";
import { decodeBlock, extrinsicHashesOf, movesBalances, type DecodedBlock } from "./decode.js";
import type { BlockPlan, BlockResult, Deriver, Scope } from "./derive.js";
import { fetchBlock, fetchExtrinsics, fetchState, type BlockReads } from "./fetch.js";
import type { Batch } from "./writer.js";

/** A block fetched and decoded, with the state it seemed to call for when it was fetched ahead. */
interface Prepared {
  block: DecodedBlock;
  plan?: BlockPlan;
  reads?: BlockReads;
}

export class Pipeline {
  private readonly ahead = new Map<number, Promise<Prepared>>();
  private readonly hashes = new Map<number, Promise<string | undefined>>();

  /**
   * `hashesAhead`: ask the hashes of the next `depth` blocks in one call (a backfill, whose
   * blocks are all final), rather than one call, and one round trip more, before each block.
   */
  constructor(
    private readonly reader: ChainReader,
    private readonly deriver: Deriver,
    private readonly depth: number,
    private readonly scope: Scope = "all",
    private readonly hashesAhead = false,
  ) {}

  /** Applies block `number` (the next in order) to `batch`, with the blocks after it up to `last` in flight. */
  async apply(number: number, last: number, batch: Batch): Promise<BlockResult> {
    for (const n of this.ahead.keys()) if (n < number) this.ahead.delete(n);
    for (const n of this.hashes.keys()) if (n < number) this.hashes.delete(n);
    for (let n = number; n <= Math.min(last, number + Math.max(1, this.depth) - 1); n++) {
      if (this.ahead.has(n)) continue;
      const prepared = this.prepare(n, n > number, this.hashOf(n, last));
      // Settled when its turn comes; one that is dropped first must not be an unhandled rejection.
      prepared.catch(() => {});
      this.ahead.set(n, prepared);
    }
    const prepared = await this.ahead.get(number)!;
    this.ahead.delete(number);
    const plan = this.deriver.plan(prepared.block.events, this.scope);
    const reads = prepared.reads && prepared.plan?.key === plan.key ? prepared.reads : await fetchState(this.reader, prepared.block.at, plan);
    return this.deriver.apply(prepared.block, plan, reads, batch, this.scope);
  }

  /** Block `n`'s hash, from one call for it and the `depth` − 1 blocks after it (undefined: fetchBlock asks). */
  private hashOf(n: number, last: number): Promise<string> | undefined {
    if (!this.hashesAhead) return undefined;
    if (!this.hashes.has(n)) {
      const numbers: number[] = [];
      for (let m = n; m <= Math.min(last, n + Math.max(1, this.depth) - 1) && !this.hashes.has(m); m++) numbers.push(m);
      const all = this.reader.hashesAt(numbers);
      numbers.forEach((m, i) => {
        const hash = all.then((h) => h[i]);
        // Settled when its block is prepared; one that is dropped first must not be an unhandled rejection.
        hash.catch(() => {});
        this.hashes.set(m, hash);
      });
    }
    return this.hashes.get(n)!.then((hash) => {
      if (hash === undefined) throw new Error(`the node has no block ${n}`);
      return hash;
    });
  }

  private async prepare(number: number, ahead: boolean, hash: Promise<string> | undefined): Promise<Prepared> {
    const block = decodeBlock(await fetchBlock(this.reader, number, await hash), this.reader.rpc, this.reader.ss58, this.deriver.codecMismatch);
    // The extrinsics' hashes its rows name (a second fetch, made ahead with the block's own).
    if (movesBalances(block.events)) block.extrinsics = extrinsicHashesOf(await fetchExtrinsics(this.reader, block.hash));
    if (!ahead) return { block };
    const plan = this.deriver.plan(block.events, this.scope, true);
    // A read its turn would not make (a token the real directory does not know yet) fails
    // here and is simply made again then.
    const reads = await fetchState(this.reader, block.at, plan).catch(() => undefined);
    return { block, plan, reads };
  }

  /** Drops what is in flight (a failure, the end of a session). */
  clear(): void {
    this.ahead.clear();
    this.hashes.clear();
  }
}
