/**
 * Blocks fetched ahead of their turn, `depth` at a time, applied strictly in order. Against a
 * remote node a block costs a few round trips (hash, events and timestamp, the state reads its
 * events call for); one after the other that is 1–2 blocks/s at 50 ms, with 32 in flight it is
 * the node's throughput instead. The runtime version of the blocks ahead is taken from the last
 * block fetched, so api.at makes no header or version call; a block that updates the code
 * (system.CodeUpdated) drops what was fetched after it, which is then fetched again with the
 * new runtime's version.
 */
import type { RuntimeVersion } from "@polkadot/types/interfaces";
import type { FetchedBlock, Indexer, Scope } from "./indexer.js";

export class Pipeline {
  private readonly ahead = new Map<number, Promise<FetchedBlock>>();
  private version: RuntimeVersion | undefined;

  constructor(
    private readonly indexer: Indexer,
    private readonly depth: number,
    private readonly scope: Scope = "all",
  ) {}

  /** Block `number` (the next to apply), with the fetches of the blocks after it up to `last` started. */
  async next(number: number, last: number): Promise<FetchedBlock | undefined> {
    if (this.depth <= 1) return undefined; // the sequential path: processBlock reads the block itself
    for (const n of this.ahead.keys()) if (n < number) this.ahead.delete(n);
    if (!this.version && !this.ahead.has(number)) {
      // The first block alone: the blocks after it reuse its runtime's version.
      const first = await this.indexer.fetchBlock(number, undefined, this.scope);
      this.version = first.block.at.runtimeVersion as unknown as RuntimeVersion;
      this.ahead.set(number, Promise.resolve(first));
    }
    for (let n = number; n <= Math.min(last, number + this.depth - 1); n++) {
      if (this.ahead.has(n)) continue;
      const fetched = this.indexer.fetchBlock(n, this.version, this.scope);
      // Settled when its turn comes; one that is dropped first must not be an unhandled rejection.
      fetched.catch(() => {});
      this.ahead.set(n, fetched);
    }
    const fetched = this.ahead.get(number)!;
    this.ahead.delete(number);
    const block = await fetched;
    this.version ??= block.block.at.runtimeVersion as unknown as RuntimeVersion;
    return block;
  }

  /** Block `number` updated the runtime: what was fetched after it used the old one. */
  codeUpdated(): void {
    this.ahead.clear();
    this.version = undefined;
  }

  /** Drops what is in flight (a failure, the end of a session). */
  clear(): void {
    this.ahead.clear();
  }
}
