/**
 * The fan-out of one API process: who is subscribed to what, and, on each block the indexer
 * announces, which subscribed topics changed. Every subscribed topic is recomputed once per
 * round (however many connections share it) and pushed only when its JSON differs from what was
 * last pushed. Blocks arriving while a round runs are folded into the next round; the `blocks`
 * topic itself gets every announcement at once.
 */
import type { BlockAnnouncement, Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";
import type { ResponseCache } from "../middleware/cache.js";
import type { Topic } from "./topics.js";

export interface Peer {
  /** Queues one JSON-RPC message; the transport drops peers that cannot keep up. */
  send(message: unknown): void;
}

interface Entry {
  topic: Topic;
  /** Subscribers and their subscription id. */
  peers: Map<Peer, string>;
  /** JSON of the last value pushed (or answered on subscribe). */
  last: string | undefined;
}

export interface Notification {
  jsonrpc: "2.0";
  method: "subscription";
  params: { subscription: string; topic: string; block: number | null; result: unknown };
}

/** A failed computation as the notification's result (e.g. the token was destroyed). */
function failure(err: unknown): { error: { code: string; message: string } } {
  if (err instanceof AppError) return { error: { code: err.code, message: err.message } };
  return { error: { code: "INTERNAL_ERROR", message: "An unexpected error occurred." } };
}

export class LiveHub {
  private readonly entries = new Map<string, Entry>();
  private block: number | null = null;
  private running: Promise<void> | undefined;
  private pending = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    /** The REST response cache: a subscribe or push costs what a cached REST read does. */
    private readonly cache?: ResponseCache,
    /** Runs a computation in one read snapshot (api/snapshot.ts), so a push never mixes two blocks. */
    private readonly snapshot: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn(),
  ) {}

  /** A topic's current answer as JSON text (the REST body). */
  private async json(topic: Topic & { compute: NonNullable<Topic["compute"]> }): Promise<string> {
    const compute = () => this.snapshot(() => topic.compute(this.db));
    return this.cache && topic.path ? this.cache.through(topic.path, compute) : JSON.stringify(await compute());
  }

  /** The newest block announced to this process (null before the first). */
  get head(): number | null {
    return this.block;
  }

  get topicCount(): number {
    return this.entries.size;
  }

  /**
   * Adds a subscription and answers with the topic's current value. A value that cannot be
   * computed now (unknown token, no such pool) throws, and nothing is subscribed — except a token
   * without a current price (PRICE_UNAVAILABLE): a later block may price it, so it is subscribed
   * and answered with the error as a push would carry it.
   */
  async subscribe(peer: Peer, topic: Topic, subscription: string, stillWanted: () => boolean = () => true): Promise<{ added: boolean; value: unknown }> {
    let json: string | undefined;
    try {
      json = topic.compute ? await this.json({ ...topic, compute: topic.compute }) : undefined;
    } catch (err) {
      if (!(err instanceof AppError && err.code === "PRICE_UNAVAILABLE")) throw err;
      json = JSON.stringify(failure(err));
    }
    // Checked and added in one synchronous step after the await: a subscribe cancelled (or its
    // connection closed) while its value was computed is never added, so it cannot overwrite or
    // remove a later subscription of the same peer to the same topic.
    if (!stillWanted()) return { added: false, value: undefined };
    let entry = this.entries.get(topic.name);
    if (!entry) {
      entry = { topic, peers: new Map(), last: json };
      this.entries.set(topic.name, entry);
    }
    entry.peers.set(peer, subscription);
    return { added: true, value: json === undefined ? null : JSON.parse(json) };
  }

  unsubscribe(peer: Peer, topicName: string): void {
    const entry = this.entries.get(topicName);
    if (!entry) return;
    entry.peers.delete(peer);
    if (entry.peers.size === 0) this.entries.delete(topicName);
  }

  /** Called for each block announcement from the indexer. */
  onBlock(block: BlockAnnouncement): void {
    this.block = Math.max(this.block ?? 0, block.number);
    const blocks = this.entries.get("blocks");
    if (blocks) for (const [peer, subscription] of blocks.peers) peer.send(notification(subscription, "blocks", block.number, block));
    this.pending = true;
    // A tick later: blocks announced together (one NOTIFY batch, or the blocks a lagging replica
    // held back) fold into one round, labelled with the newest of them — the one its values are.
    this.running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain()).finally(() => (this.running = undefined));
  }

  /**
   * Recomputes every topic without a block announcement: after the notification connection was
   * lost, blocks may have been committed unheard (the cache is cleared alongside). Pushes only
   * what changed, labelled with `head` (the newest block the store has), if known.
   */
  refresh(head: number | undefined): void {
    if (head !== undefined) this.block = Math.max(this.block ?? 0, head);
    this.pending = true;
    this.running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain()).finally(() => (this.running = undefined));
  }

  /** Resolves when no recomputation is running or pending (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending) {
      this.pending = false;
      await this.round(this.block);
    }
  }

  private async round(block: number | null): Promise<void> {
    for (const entry of [...this.entries.values()]) {
      if (!entry.topic.compute || entry.peers.size === 0) continue;
      let json: string;
      try {
        json = await this.json({ ...entry.topic, compute: entry.topic.compute });
      } catch (err) {
        if (!(err instanceof AppError)) this.logger.error({ err, topic: entry.topic.name }, "live: topic failed");
        json = JSON.stringify(failure(err));
      }
      if (json === entry.last) continue;
      entry.last = json;
      const value: unknown = JSON.parse(json);
      for (const [peer, subscription] of entry.peers) peer.send(notification(subscription, entry.topic.name, block, value));
    }
  }
}

export function notification(subscription: string, topic: string, block: number | null, result: unknown): Notification {
  return { jsonrpc: "2.0", method: "subscription", params: { subscription, topic, block, result } };
}
