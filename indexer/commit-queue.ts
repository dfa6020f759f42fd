/**
 * A backfill chunk's commits, one at a time and in order, while the chunk derives its next batch:
 * the worker no longer stands idle while Postgres commits (a batch's transaction, then the next
 * batch's blocks). At most one batch waits behind the one in flight. A failed commit fails the
 * chunk at the next batch handed over, or at `drain`: the chunk is redone from its start, and
 * every history row is keyed by block, so the store ends as it would have one commit at a time.
 */
export class CommitQueue<B extends { size: number }> {
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly commit: (batch: B) => Promise<void>,
    private readonly onCommitted: (blocks: number) => void,
  ) {}

  /** Starts `batch`'s commit once the one before it is done (throws that one's failure). */
  async push(batch: B): Promise<void> {
    await this.last;
    const p = this.commit(batch).then(() => this.onCommitted(batch.size));
    // Observed by the next push or drain; until then it must not be an unhandled rejection.
    p.catch(() => {});
    this.last = p;
  }

  /** Every batch handed over, committed (or the first failure). */
  drain(): Promise<void> {
    return this.last;
  }

  /**
   * Waits for the commit in flight without throwing: a chunk that fails elsewhere lets it end
   * first, so that no count of committed blocks arrives after the chunk has taken its back.
   */
  settle(): Promise<void> {
    return this.last.catch(() => {});
  }
}
