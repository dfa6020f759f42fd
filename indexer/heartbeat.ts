/**
 * The writing indexer's heartbeat in the store: rewritten every few seconds while it makes
 * progress (a page, a commit, the chain's head confirmed), and not otherwise. A follower that
 * is stuck (a block failing again and again), cannot reach its node, or is gone, writes none,
 * and /health and `tokenpool status` say stale.
 */
import { getTask, HEARTBEAT_TASK, setTask, type Database, type HeartbeatState } from "../db/index.js";
import type { Logger } from "../shared/logger.js";

/** Without progress this long, the follower says what it is waiting on (and again each time as long). */
export const STALL_WARN_MS = 60_000;

export class Heartbeat {
  /** What the follower is doing now, named when it stalls. */
  stage = "starting";
  /** Date.now() of the last progress, and of the last one written. */
  private progressAt = 0;
  /** Stall warnings given since the last progress. */
  private warned = 0;
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
    this.warned = 0;
  }

  /** Starts the clock (the first beat only starts the age of a store that has none) and beats every `ms`. */
  start(ms: number): void {
    this.progressAt = Date.now();
    this.beat(true);
    this.timer = setInterval(() => {
      this.checkStall();
      this.beat();
    }, ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  /**
   * A follower that neither moves nor stands at the head (a query or a call that never answers)
   * is silent otherwise: the warning names the stage, so an operator (and a failing test) sees
   * where it waits.
   */
  private checkStall(): void {
    const idle = Date.now() - this.progressAt;
    if (idle < STALL_WARN_MS * (this.warned + 1)) return;
    this.warned++;
    this.logger.warn({ stage: this.stage, seconds: Math.round(idle / 1000) }, `indexer: no progress for ${Math.round(idle / 1000)} s; waiting on: ${this.stage}`);
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
