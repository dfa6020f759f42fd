/**
 * Places for CSV downloads (docs/api.md, "CSV downloads"): a download runs while its user has
 * fewer than `perUser` running, its client key (an IPv4 address or an IPv6 /64) fewer than
 * `perClient`, the IPv6 /48 around that key fewer than `perPrefix` (client-ip.ts widerPrefix:
 * one site holds 65,536 /64s), and all together fewer than `total`. Otherwise it waits, instead
 * of being refused at once: in a queue bounded per client (`queuePerClient`), per /48
 * (`queuePerPrefix`) and in all (`queue`), let in
 * round-robin between client keys (the key let in longest ago first, whatever the length of its
 * queue), for at most `queueMs` — then 429 RATE_LIMITED with Retry-After. Past either queue bound
 * it is 429 at once.
 *
 * Hand-written rather than a semaphore library (p-limit, async-sema): none has per-key limits
 * with round-robin between keys. It follows the read budget's queue (api/middleware/read-budget.ts).
 * Admission is decided and counted synchronously in `enter`, before anything awaits.
 */
import { AppError } from "../../shared/errors.js";
import { widerPrefix } from "../middleware/client-ip.js";

export interface DownloadSlotLimits {
  total: number;
  perUser: number;
  perClient: number;
  /** Running per IPv6 /48 (over all its /64s); IPv4 keys have no wider prefix. */
  perPrefix: number;
  /** Downloads waiting in all, per client key, and per IPv6 /48. */
  queue: number;
  queuePerClient: number;
  queuePerPrefix: number;
  /** How long one waits for its place (keep it under REQUEST_TIMEOUT_MS: the wait is part of the request). */
  queueMs: number;
}

interface Waiter {
  user: string;
  grant(ok: boolean): void;
}


interface Client {
  /** Its IPv6 /48, if any (widerPrefix). */
  prefix: string | undefined;
  running: number;
  waiting: Waiter[];
  /** When it was last let in (a count of grants). */
  served: number;
}

/** A place: `ready` resolves when it may run (rejects with the 429 when the wait ran out); `release` gives it back (idempotent). */
export interface DownloadSlot {
  ready: Promise<void>;
  release(): void;
}

export class DownloadSlots {
  private running = 0;
  private waitingAll = 0;
  private grants = 0;
  private readonly clients = new Map<string, Client>();
  private readonly users = new Map<string, number>();
  /** Running and waiting downloads per IPv6 /48. */
  private readonly prefixes = new Map<string, { running: number; waiting: number }>();
  /** Downloads refused at once, and after waiting their `queueMs`. */
  refused = 0;
  timedOut = 0;

  constructor(readonly limits: DownloadSlotLimits) {}

  get inUse(): number {
    return this.running;
  }

  get waiting(): number {
    return this.waitingAll;
  }

  private canRun(client: Client, user: string): boolean {
    const prefix = client.prefix === undefined ? undefined : this.prefixes.get(client.prefix);
    return (
      this.running < this.limits.total &&
      client.running < this.limits.perClient &&
      (prefix?.running ?? 0) < this.limits.perPrefix &&
      (this.users.get(user) ?? 0) < this.limits.perUser
    );
  }

  /** The counts of `client`'s /48 (created on first use; forget() drops them at zero). */
  private prefixOf(client: Client): { running: number; waiting: number } | undefined {
    if (client.prefix === undefined) return undefined;
    let p = this.prefixes.get(client.prefix);
    if (!p) {
      p = { running: 0, waiting: 0 };
      this.prefixes.set(client.prefix, p);
    }
    return p;
  }

  private tooMany(what: string): AppError {
    const l = this.limits;
    return new AppError(
      "RATE_LIMITED",
      `${what}: CSV downloads of this kind run at most ${l.perUser} per user, ${l.perClient} per address (IPv6: per /64), ${l.perPrefix} per IPv6 /48 and ${l.total} in all, and wait at most ${Math.round(l.queueMs / 1000)} s for a place; retry when one of yours has finished.`,
      { "Retry-After": String(Math.max(1, Math.ceil(l.queueMs / 1000))) },
    );
  }

  /** A place for `user` from `clientKey`: throws the 429 at once when the queues are full. `signal` (the request's deadline) gives up a wait. */
  enter(clientKey: string, user: string, signal?: AbortSignal): DownloadSlot {
    let client = this.clients.get(clientKey);
    if (!client) {
      client = { prefix: widerPrefix(clientKey), running: 0, waiting: [], served: 0 };
      this.clients.set(clientKey, client);
    }
    const c = client;
    if (c.waiting.length === 0 && this.canRun(c, user)) {
      this.count(c, user);
      return { ready: Promise.resolve(), release: this.releaser(clientKey, c, user) };
    }
    const prefix = this.prefixOf(c);
    if (c.waiting.length >= this.limits.queuePerClient || (prefix?.waiting ?? 0) >= this.limits.queuePerPrefix || this.waitingAll >= this.limits.queue || signal?.aborted) {
      this.refused += 1;
      this.forget(clientKey, c);
      throw this.tooMany("Too many CSV downloads waiting");
    }
    let settle!: (ok: boolean) => void;
    const granted = new Promise<boolean>((r) => (settle = r));
    const giveUp = () => {
      const i = c.waiting.indexOf(waiter);
      if (i < 0) return;
      c.waiting.splice(i, 1);
      this.waitingAll -= 1;
      if (prefix) prefix.waiting -= 1;
      this.timedOut += 1;
      this.forget(clientKey, c);
      waiter.grant(false);
      // A place this one could not take may suit another waiter.
      this.dispatch();
    };
    let held = false;
    const waiter: Waiter = {
      user,
      grant: (ok) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", giveUp);
        held = ok;
        settle(ok);
      },
    };
    const timer = setTimeout(giveUp, this.limits.queueMs);
    signal?.addEventListener("abort", giveUp, { once: true });
    c.waiting.push(waiter);
    this.waitingAll += 1;
    if (prefix) prefix.waiting += 1;
    const release = this.releaser(clientKey, c, user);
    const ready = granted.then((ok) => {
      if (!ok) throw this.tooMany(`No place for this CSV download within ${Math.round(this.limits.queueMs / 1000)} s`);
    });
    // Released while still waiting (its request gave up): it leaves the queue instead.
    return {
      ready,
      release: () => {
        if (c.waiting.includes(waiter)) giveUp();
        else if (held) release();
      },
    };
  }

  private count(client: Client, user: string): void {
    client.running += 1;
    this.running += 1;
    const prefix = this.prefixOf(client);
    if (prefix) prefix.running += 1;
    this.users.set(user, (this.users.get(user) ?? 0) + 1);
    client.served = ++this.grants;
  }

  private releaser(key: string, client: Client, user: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      client.running -= 1;
      this.running -= 1;
      const prefix = this.prefixOf(client);
      if (prefix) prefix.running -= 1;
      const left = (this.users.get(user) ?? 1) - 1;
      if (left === 0) this.users.delete(user);
      else this.users.set(user, left);
      this.forget(key, client);
      this.dispatch();
    };
  }

  /** Lets waiting downloads in while there are places: the client key let in longest ago first. */
  private dispatch(): void {
    for (;;) {
      let chosen: Client | undefined;
      for (const c of this.clients.values()) {
        if (c.waiting.length === 0 || !this.canRun(c, c.waiting[0]!.user)) continue;
        if (!chosen || c.served < chosen.served) chosen = c;
      }
      if (!chosen) return;
      const waiter = chosen.waiting.shift()!;
      this.waitingAll -= 1;
      const prefix = this.prefixOf(chosen);
      if (prefix) prefix.waiting -= 1;
      this.count(chosen, waiter.user);
      waiter.grant(true);
    }
  }

  private forget(key: string, client: Client): void {
    if (client.running === 0 && client.waiting.length === 0 && this.clients.get(key) === client) this.clients.delete(key);
    const prefix = client.prefix === undefined ? undefined : this.prefixes.get(client.prefix);
    if (prefix && prefix.running === 0 && prefix.waiting === 0) this.prefixes.delete(client.prefix!);
  }
}
