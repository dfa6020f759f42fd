/**
 * Reads that reach the database (cacheable routes past a cache miss) hold a pool connection for
 * their whole snapshot. Without a bound, one client inside the rate limit could hold all of them
 * with slow reads (deep holder pages), and every other client, /ws and the block switch would
 * wait behind it. So reads are admitted by a budget:
 *
 * - a client (the rate limit's key: an IPv4 address or an IPv6 /64) runs at most `perClient`
 *   reads at a time; up to `queuePerClient` more wait their turn, up to `queueMs`; past that it
 *   is answered 429 RATE_LIMITED at once, with Retry-After;
 * - all clients together run at most `total` reads (a pool's connections less two, which stay
 *   free for logins, /ws and the block switch); of these, `reserve` are only for a client that has
 *   none running, so a client that comes along while others flood finds a connection at once;
 * - a waiting read is let in round-robin between clients (a client with none running first, then
 *   the one let in longest ago), not first come first served, so the client with a hundred
 *   queued reads does not delay everyone else's by a hundred reads;
 * - a read that has waited `queueMs` without its turn is answered 503 SERVICE_UNAVAILABLE with
 *   Retry-After.
 *
 * Admission is decided and counted synchronously, before any await, so concurrent requests cannot
 * pass it together. A slot is held until the read's snapshot has ended (its connection is back in
 * the pool), but the client's own count drops as soon as the request is answered: a read its
 * deadline answered 503 still counts in `total` until its connection is free, and not against the
 * client's next requests.
 */
import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";
import type { AppEnv } from "../env.js";
import { sendError } from "../errors.js";
import { CACHEABLE, prewarmOf } from "./cache.js";
import { clientIp } from "./client-ip.js";
import { deadlineOf } from "./deadline.js";

export interface ReadBudgetOptions {
  /** Reads one client runs at a time. */
  perClient: number;
  /** Reads all clients run at a time. */
  total: number;
  /** Of `total`, the slots only a client with no read running may take. */
  reserve: number;
  /** Of `total`, the heavy reads (pages of more than HEAVY_ROWS rows) running at a time, one per client (default 1: see HEAVY_ROWS). */
  heavy?: number;
  /** Reads of one client that may wait for a slot (default 2 × perClient). */
  queuePerClient?: number;
  /** How long a read waits for a slot before it is answered 503 (default 2,000 ms). */
  queueMs?: number;
}

/** The budget of a store: on Postgres its pool less two connections; PGlite runs one statement at a time. */
export function readBudgetFor(store: "pglite" | "postgres", poolSize: number, perClient: number): ReadBudgetOptions {
  const total = store === "postgres" ? Math.max(1, poolSize - 2) : 2;
  return { perClient, total, reserve: Math.min(2, total - 1) };
}

interface Client {
  /** Reads running whose request is not yet answered; of these, heavy ones. */
  running: number;
  heavy: number;
  waiting: Waiter[];
  /** When it was last let in (a count of grants): the longest unserved goes first. */
  served: number;
}

/** What a slot holds: a place in `total` and one in its client's count. */
interface Held {
  heavy: boolean;
  total: boolean;
  client: boolean;
}

interface Waiter {
  held: Held;
  grant(ok: boolean): void;
}

/** A read admitted: `ready` resolves true when it may run, false when it gave up waiting. */
export interface Slot {
  ready: Promise<boolean>;
  /** The request was answered (its deadline passed): the client's count drops, `total`'s does not. */
  leave(): void;
  /** The read is over (its snapshot ended): frees the slot. Idempotent. */
  release(): void;
}

const NOW = Promise.resolve(true);

/**
 * A read asking for more rows than this (`limit`: holder pages up to 1,000, pool and trade lists
 * up to 500) is heavy: a 1,000-row holder page costs ≈ 20 ms of the database and ≈ 20 ms of the
 * API's own thread (rows, JSON, ETag) against ≈ 2–4 ms for a small read, and a few of them in a
 * row leave the event loop no time for anyone else's.
 */
export const HEAVY_ROWS = 100;

export class ReadBudget {
  private running = 0;
  private heavyRunning = 0;
  private grants = 0;
  private readonly clients = new Map<string, Client>();
  /** The clients with reads waiting. */
  private readonly queued = new Map<string, Client>();
  readonly perClient: number;
  private readonly total: number;
  private readonly shared: number;
  private readonly heavy: number;
  private readonly queuePerClient: number;
  private readonly queueMs: number;
  /** Reads answered 429 (refused) and 503 (waited in vain) by the budget. */
  refused = 0;
  timedOut = 0;

  constructor(o: ReadBudgetOptions) {
    this.perClient = Math.max(1, o.perClient);
    this.total = Math.max(1, o.total);
    this.shared = Math.max(1, this.total - Math.max(0, o.reserve));
    this.heavy = Math.max(1, o.heavy ?? 1);
    this.queuePerClient = o.queuePerClient ?? 2 * this.perClient;
    this.queueMs = o.queueMs ?? 2_000;
  }

  /** Reads running now (slots held). */
  get inUse(): number {
    return this.running;
  }

  private canRun(client: Client, heavy: boolean): boolean {
    if (client.running >= this.perClient) return false;
    if (heavy && (client.heavy > 0 || this.heavyRunning >= this.heavy)) return false;
    return this.running < this.shared || (client.running === 0 && this.running < this.total);
  }

  /** Admits a read of `key`, or refuses it (undefined) when the client already has its fill running and waiting. */
  enter(key: string, heavy = false, signal?: AbortSignal): Slot | undefined {
    let client = this.clients.get(key);
    if (!client) {
      client = { running: 0, heavy: 0, waiting: [], served: 0 };
      this.clients.set(key, client);
    }
    const held: Held = { heavy, total: false, client: false };
    if (client.waiting.length === 0 && this.canRun(client, heavy)) {
      this.count(client, held);
      return this.slot(key, client, held, NOW);
    }
    if (client.running + client.waiting.length >= this.perClient + this.queuePerClient || signal?.aborted) {
      this.refused += 1;
      this.forget(key, client);
      return undefined;
    }
    const c = client;
    let resolve!: (ok: boolean) => void;
    const ready = new Promise<boolean>((r) => (resolve = r));
    const giveUp = () => {
      const at = c.waiting.indexOf(waiter);
      if (at < 0) return;
      c.waiting.splice(at, 1);
      if (c.waiting.length === 0) this.queued.delete(key);
      this.forget(key, c);
      this.timedOut += 1;
      waiter.grant(false);
    };
    const waiter: Waiter = {
      held,
      grant: (ok) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", giveUp);
        resolve(ok);
      },
    };
    const timer = setTimeout(giveUp, this.queueMs);
    signal?.addEventListener("abort", giveUp, { once: true });
    c.waiting.push(waiter);
    if (!this.queued.has(key)) this.queued.set(key, c);
    return this.slot(key, c, held, ready);
  }

  /** Counts a read of `client` as running (synchronously: the count is what admission reads). */
  private count(client: Client, held: Held): void {
    client.running += 1;
    this.running += 1;
    if (held.heavy) {
      client.heavy += 1;
      this.heavyRunning += 1;
    }
    client.served = ++this.grants;
    held.total = held.client = true;
  }

  private slot(key: string, client: Client, held: Held, ready: Promise<boolean>): Slot {
    const leave = () => {
      if (!held.client) return;
      held.client = false;
      client.running -= 1;
      if (held.heavy) client.heavy -= 1;
      this.forget(key, client);
      this.dispatch();
    };
    return {
      ready,
      leave,
      release: () => {
        leave();
        if (!held.total) return;
        held.total = false;
        this.running -= 1;
        if (held.heavy) this.heavyRunning -= 1;
        this.dispatch();
      },
    };
  }

  /**
   * Lets waiting reads in while there are slots: of the clients that may run one, those with none
   * running first, then the one let in longest ago (round-robin between clients, whatever the
   * length of their queues).
   */
  private dispatch(): void {
    for (;;) {
      let chosen: [string, Client] | undefined;
      for (const entry of this.queued) {
        const c = entry[1];
        if (!this.canRun(c, c.waiting[0]!.held.heavy)) continue;
        const best = chosen?.[1];
        if (!best || (c.running === 0 && best.running > 0) || ((c.running === 0) === (best.running === 0) && c.served < best.served)) chosen = entry;
      }
      if (!chosen) return;
      const [key, client] = chosen;
      const waiter = client.waiting.shift()!;
      if (client.waiting.length === 0) this.queued.delete(key);
      this.count(client, waiter.held);
      waiter.grant(true);
    }
  }

  private forget(key: string, client: Client): void {
    if (client.running === 0 && client.waiting.length === 0 && this.clients.get(key) === client) this.clients.delete(key);
  }
}

/**
 * The budget as middleware: placed after the response cache (only misses reach it) and right
 * before the snapshot, on the same requests (GET and HEAD of cacheable paths). Computations ahead
 * of a block switch (prewarm) are the server's own, bounded by their count, and not a client's.
 */
export function readBudget(budget: ReadBudget, trustProxy: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if ((c.req.method !== "GET" && c.req.method !== "HEAD") || !CACHEABLE.test(c.req.path) || prewarmOf(c)) return next();
    const deadline = deadlineOf(c);
    const limit = Number(c.req.query("limit"));
    const slot = budget.enter(clientIp(c, trustProxy), limit > HEAVY_ROWS, deadline);
    if (!slot) {
      return sendError(c, new AppError("RATE_LIMITED", `At most ${budget.perClient} reads per client are computed at a time; retry once yours have been answered.`, { "Retry-After": "1" }));
    }
    deadline?.addEventListener("abort", slot.leave, { once: true });
    try {
      if (!(await slot.ready)) return sendError(c, new AppError("SERVICE_UNAVAILABLE", "The database is busy with other reads; retry shortly.", { "Retry-After": "1" }));
      await next();
    } finally {
      deadline?.removeEventListener("abort", slot.leave);
      slot.release();
    }
  };
}
