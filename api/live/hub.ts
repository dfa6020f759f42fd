/**
 * The fan-out of one API process: who is subscribed to what, and, on each block the indexer
 * announces, which subscribed topics changed. Every subscribed topic is recomputed once per
 * round (however many connections share it) and pushed only when its JSON differs from what was
 * last pushed. Blocks arriving while a round runs are folded into the next round; the `blocks`
 * topic itself gets every announcement at once.
 *
 * The per-block work is bounded: the topics held cost at most `maxCost` (in queries, topicCost),
 * reserved before the first await of a subscribe, and each is re-priced from its answer whenever
 * that changes (topicPrice); who pays, and who gives way when the budget is short, is the
 * ledger's (api/live/ledger.ts). A round computes `concurrency` topics at once: those of the
 * lightest clients first (the ledger's priority), then the cheapest (and, among equals, the one
 * computed longest ago), so the clients holding the most wait for everyone else instead of the
 * other way round; a round stops starting computations past `deadlineMs`, or when a newer block
 * is announced (the next round computes every topic again, for the newer block). Topics left out
 * are counted (`skipped`).
 */
import type { BlockAnnouncement, Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";
import type { ResponseCache } from "../middleware/cache.js";
import { topicPrice, type Topic } from "./topics.js";

export interface Peer {
  /** Queues one JSON-RPC message; the transport drops peers that cannot keep up. */
  send(message: unknown): void;
}

interface Entry {
  topic: Topic;
  /** What computing it costs at every block: its price from its latest answer (topicPrice). */
  cost: number;
  /** Subscribers and their subscription id. */
  peers: Map<Peer, string>;
  /** JSON of the last value pushed (or answered on subscribe). */
  last: string | undefined;
  /** The round it was last computed in (rounds that ran out of time start with the longest-waiting). */
  computed: number;
}

export interface HubLimits {
  /** What the topics held may cost in all, per block (topicCost units). */
  maxCost: number;
  /** Topics computed at once in a round. */
  concurrency: number;
  /** A round starts no computation after this long (ms). */
  deadlineMs: number;
  /**
   * The share of maxCost only a client holding nothing yet may take (api/live/ledger.ts): however
   * full the others keep the budget, a newcomer's first topic fits. A fifth: 1,200 of 6,000.
   */
  newcomerShare: number;
}

export const HUB_LIMITS: HubLimits = { maxCost: 6_000, concurrency: 4, deadlineMs: 4_000, newcomerShare: 0.2 };

/** Who pays for the topics held (api/live/ledger.ts), as the hub asks it. */
export interface TopicBilling {
  /** A held topic's price changed (its answer did): called synchronously, after the hub's own total. */
  repriced(topic: string, cost: number): void;
  /** The order a round computes topics in, lowest first: how heavy the lightest client holding it is. */
  priority(topic: string): number;
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
  private rounds = 0;
  /** The cost of the topics held, and of subscribes under way (reserved). */
  private cost = 0;
  private reserved = 0;
  readonly limits: HubLimits;
  /** Topic computations a round left out (deadline, or a newer block). */
  skipped = 0;
  /** Subscribes refused for a budget: the client's (its address, /48 or user) or the server's (maxCost). */
  readonly refused = { client: 0, server: 0 };
  /** Subscriptions ended to make room: for a lighter client, or after a price rose past a budget. */
  evicted = 0;
  /** Set by the ledger that charges the topics held. */
  billing: TopicBilling | undefined;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    /** The REST response cache: a subscribe or push costs what a cached REST read does. */
    private readonly cache?: ResponseCache,
    /** Runs a computation in one read snapshot (api/snapshot.ts), so a push never mixes two blocks. */
    private readonly snapshot: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn(),
    limits: Partial<HubLimits> = {},
  ) {
    this.limits = { ...HUB_LIMITS, ...limits };
  }

  /** A topic's current answer as JSON text (the REST body, under the REST answer's cache key). */
  private async json(topic: Topic & { compute: NonNullable<Topic["compute"]> }): Promise<string> {
    const compute = () => this.snapshot(() => topic.compute(this.db));
    return this.cache && topic.path ? this.cache.through(this.cache.canonical(topic.path), compute, false) : JSON.stringify(await compute());
  }

  /** The per-block cost of the topics held. */
  get totalCost(): number {
    return this.cost;
  }

  /** The cost reserved by subscribes still under way (0 when every subscribe has resolved). */
  get reservedCost(): number {
    return this.reserved;
  }

  /** Whether `name` is held already (subscribing to it adds no per-block work). */
  holds(name: string): boolean {
    return this.entries.has(name);
  }

  /** A held topic's price now (0 when it is not held). */
  priceOf(name: string): number {
    return this.entries.get(name)?.cost ?? 0;
  }

  /** How many subscriptions share a topic (ending one of several frees no work). */
  sharedBy(name: string): number {
    return this.entries.get(name)?.peers.size ?? 0;
  }

  /**
   * Reserves `cost` of the total budget for a subscribe about to resolve and compute its topic
   * (synchronously, before its first await); false when the budget, up to `limit`, cannot take it.
   * subscribe() gives the reservation back, as does release() on a path that never reaches it.
   */
  reserve(cost: number, limit = this.limits.maxCost): boolean {
    if (this.cost + this.reserved + cost > limit) return false;
    this.reserved += cost;
    return true;
  }

  release(cost: number): void {
    this.reserved -= cost;
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
   * and answered with the error as a push would carry it. A topic new to the hub is priced from
   * this first answer (topicPrice); one held already keeps its price.
   */
  async subscribe(peer: Peer, topic: Topic, subscription: string, stillWanted: () => boolean = () => true, reserved = 0): Promise<{ added: boolean; value: unknown }> {
    let json: string | undefined;
    try {
      json = topic.compute ? await this.json({ ...topic, compute: topic.compute }) : undefined;
    } catch (err) {
      if (!(err instanceof AppError && err.code === "PRICE_UNAVAILABLE")) {
        this.release(reserved);
        throw err;
      }
      json = JSON.stringify(failure(err));
    }
    this.release(reserved);
    // Checked and added in one synchronous step after the await: a subscribe cancelled (or its
    // connection closed) while its value was computed is never added, so it cannot overwrite or
    // remove a later subscription of the same peer to the same topic.
    if (!stillWanted()) return { added: false, value: undefined };
    const value: unknown = json === undefined ? null : JSON.parse(json);
    let entry = this.entries.get(topic.name);
    if (!entry) {
      const cost = topicPrice(topic, value);
      entry = { topic, cost, peers: new Map(), last: json, computed: this.rounds };
      this.entries.set(topic.name, entry);
      this.cost += cost;
    }
    entry.peers.set(peer, subscription);
    return { added: true, value };
  }

  /** A new answer, a new price: the hub's total first, then the ledger (which may end subscriptions). */
  private reprice(entry: Entry, cost: number): void {
    if (cost === entry.cost || this.entries.get(entry.topic.name) !== entry) return;
    this.cost += cost - entry.cost;
    entry.cost = cost;
    this.billing?.repriced(entry.topic.name, cost);
  }

  unsubscribe(peer: Peer, topicName: string): void {
    const entry = this.entries.get(topicName);
    if (!entry) return;
    entry.peers.delete(peer);
    if (entry.peers.size === 0) {
      this.entries.delete(topicName);
      this.cost -= entry.cost;
    }
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
    const round = ++this.rounds;
    const deadline = performance.now() + this.limits.deadlineMs;
    const priority = (e: Entry) => this.billing?.priority(e.topic.name) ?? 0;
    const queue = [...this.entries.values()]
      .filter((e) => e.topic.compute)
      .map((e) => ({ e, p: priority(e) }))
      .sort((a, b) => a.p - b.p || a.e.cost - b.e.cost || a.e.computed - b.e.computed)
      .map(({ e }) => e);
    let next = 0;
    const worker = async () => {
      // A newer block, or the deadline: what is left waits for the next round (computed first
      // among its equals there).
      while (next < queue.length && !this.pending && performance.now() < deadline) {
        const entry = queue[next++]!;
        if (entry.peers.size === 0) continue;
        entry.computed = round;
        let json: string;
        try {
          json = await this.json({ ...entry.topic, compute: entry.topic.compute! });
        } catch (err) {
          if (!(err instanceof AppError)) this.logger.error({ err, topic: entry.topic.name }, "live: topic failed");
          json = JSON.stringify(failure(err));
        }
        if (json !== entry.last && entry.peers.size > 0) {
          entry.last = json;
          const value: unknown = JSON.parse(json);
          for (const [peer, subscription] of entry.peers) peer.send(notification(subscription, entry.topic.name, block, value));
          this.reprice(entry, topicPrice(entry.topic, value));
        }
        // Between topics, the event loop serves sockets: PGlite answers in the same thread, and
        // a round of chained computations would otherwise hold every request (and the pushes
        // just queued) until its end.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.limits.concurrency, queue.length) }, worker));
    const left = queue.length - next;
    if (left > 0) {
      this.skipped += left;
      this.logger.warn({ block, left, topics: queue.length, reason: this.pending ? "a newer block" : `${this.limits.deadlineMs} ms deadline` }, "live: topics left for the next round");
    }
  }
}

export function notification(subscription: string, topic: string, block: number | null, result: unknown): Notification {
  return { jsonrpc: "2.0", method: "subscription", params: { subscription, topic, block, result } };
}
