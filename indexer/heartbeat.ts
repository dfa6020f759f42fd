/**
 * The writing indexer's heartbeat in the store: rewritten every few seconds while it makes
 * progress (a page, a commit, the chain's head confirmed), and not otherwise. A follower that
 * is stuck (a block failing again and again), cannot reach its node, or is gone, writes none,
 * and /health and `tokenpool status` say stale.
 */
import { getTask, HEARTBEAT_TASK, setTask, type Database, type HeartbeatState } from "../db/index.js";
import type { Logger } from "../shared/logger.js";

export class Heartbeat {
  /** Date.now() of the last progress, and of the last one written. */
  private progressAt = 0;
  private beatAt = 0;
  private beating: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (fn: (tx: Database) => Promise<void>) => Promise<void>,
    private readonly state: () => HeartbeatState,
    private readonly logger: Logger,
  ) {}

  progressed(): void {
    this.progressAt = Date.now();
  }

  /** Starts the clock (the first beat only starts the age of a store that has none) and beats every `ms`. */
  start(ms: number): void {
    this.progressAt = Date.now();
    this.beat(true);
    this.timer = setInterval(() => this.beat(), ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  /** One small upsert when there was progress since the last one. */
  private beat(first = false): void {
    if (this.beating || (!first && this.progressAt <= this.beatAt)) return;
    const at = this.progressAt;
    const state = this.state();
    this.beating = this.write(async (t) => {
      // The first, at start, only starts the clock of a store that has none (a new store, or
      // one from before heartbeats); an existing one keeps its age until this process progresses.
      if (first && (await getTask(t, HEARTBEAT_TASK)) !== undefined) return;
      await setTask(t, HEARTBEAT_TASK, state);
    })
      .then(
        () => void (this.beatAt = at),
        (err) => {
          if (first) this.beatAt = at;
          this.logger.debug({ err: err instanceof Error ? err.message : String(err) }, "indexer: heartbeat not written");
        },
      )
      .finally(() => (this.beating = undefined));
  }
}
