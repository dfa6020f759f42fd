/**
 * Who pays for the /ws topics held, and who gives way when the server's budget is short.
 *
 * Every subscription is charged its topic's price (topicCost until its answer is computed, then
 * topicPrice) to each of its payers: the client's address key (an IPv4 address, an IPv6 /64),
 * the /48 around an IPv6 key (client-ip.ts widerPrefix says why IPv4 has none), and the user
 * whose token the connection carried when it subscribed. Each payer has a budget; a subscribe
 * past any of them is refused, so what an attacker holds grows with the addresses, /48s and
 * accounts it has all at once, never with one of them alone.
 *
 * The server's budget (HubLimits.maxCost) keeps a share (`newcomerShare`) for subscribes whose
 * payers hold nothing yet. A subscribe that does not fit may end the topics whose every
 * subscriber is strictly heavier (its heaviest payer's held ÷ budget) than the subscriber would
 * be with it — the heaviest first, the newest among equals, each taken from all its subscribers
 * (ending one of several frees nothing) — until it fits; when that room cannot be made, nothing
 * is ended and the subscribe is refused. This is max-min fairness: a light client takes room
 * from the heaviest, and never the other way round, so equals do not push each other out. A
 * price that rises with its answer is charged to every holder of the topic, and a budget it
 * passes is brought back the same way. Each decision is made synchronously, before the
 * subscribe's first await.
 */
import type { LiveHub, TopicBilling } from "./hub.js";

export type PayerKind = "address" | "prefix" | "user";

/** What each payer's subscriptions may cost per block, in topicCost units. */
export interface LedgerLimits {
  perAddress: number;
  perPrefix: number;
  perUser: number;
}

/** Who a subscribe is charged to: its client key, that key's /48 (IPv6), the user of its token. */
export interface Client {
  address: string;
  prefix: string | undefined;
  user: string | undefined;
}

interface Payer {
  kind: PayerKind;
  key: string;
  cap: number;
  held: number;
  holdings: Set<Holding>;
}

/** One subscription's charge, from its subscribe until it ends. */
export interface Holding {
  readonly payers: Payer[];
  cost: number;
  readonly seq: number;
  /** Set once the subscription is in the hub: then it can be ended to make room. */
  topic: string | undefined;
  end: ((reason: string) => void) | undefined;
  closed: boolean;
}

/** A subscribe refused: the budget it would pass, what it would cost that budget, its size. */
export interface Refusal {
  budget: PayerKind | "server";
  cost: number;
  cap: number;
}

export const REASONS = {
  lighter: "the server's topic budget is full and this topic's subscribers hold the most of it: a lighter client's subscription took its place",
  overServer: "a topic's price rose with its answer and took the server past its topic budget; this topic's subscribers hold the most of it",
  overOwn: (kind: PayerKind, cap: number) => `a topic's price rose with its answer and took this ${kind === "prefix" ? "IPv6 /48" : kind}'s subscriptions past their budget of ${cap} queries a block`,
};

const load = (p: Payer, held = p.held) => held / p.cap;

export class TopicLedger implements TopicBilling {
  private readonly payers = new Map<string, Payer>();
  private readonly byTopic = new Map<string, Set<Holding>>();
  private seq = 0;

  constructor(
    private readonly hub: LiveHub,
    readonly limits: LedgerLimits,
  ) {
    hub.billing = this;
  }

  /**
   * Charges a subscribe of price `cost` (and `serverCost` of the server's budget: 0 for a topic
   * held already) before its first await, making room if it may; the refused budget otherwise.
   * The server's part is reserved in the hub (hub.subscribe or hub.release gives it back).
   */
  open(client: Client, cost: number, serverCost: number): Holding | Refusal {
    const payers = this.payersOf(client);
    for (const p of payers) {
      if (p.held + cost > p.cap) {
        this.hub.refused.client += 1;
        return { budget: p.kind, cost: p.held + cost, cap: p.cap };
      }
    }
    if (serverCost > 0 && !this.makeRoom(payers, cost, serverCost)) {
      this.hub.refused.server += 1;
      return { budget: "server", cost: serverCost, cap: this.hub.limits.maxCost };
    }
    const holding: Holding = { payers, cost, seq: this.seq++, topic: undefined, end: undefined, closed: false };
    for (const p of payers) {
      p.held += cost;
      p.holdings.add(holding);
      this.payers.set(p.key, p);
    }
    return holding;
  }

  /** The subscription is in the hub: charged its topic's price from now on; `end` ends it. */
  live(holding: Holding, topic: string, end: (reason: string) => void): void {
    if (holding.closed) return;
    holding.topic = topic;
    holding.end = end;
    this.recharge(holding, this.hub.priceOf(topic));
    let same = this.byTopic.get(topic);
    if (!same) this.byTopic.set(topic, (same = new Set()));
    same.add(holding);
  }

  /** The subscription ended (or never started): its cost goes back to its payers. */
  close(holding: Holding): void {
    if (holding.closed) return;
    holding.closed = true;
    holding.end = undefined;
    for (const p of holding.payers) {
      p.held -= holding.cost;
      p.holdings.delete(holding);
      if (p.holdings.size === 0) this.payers.delete(p.key);
    }
    const same = holding.topic === undefined ? undefined : this.byTopic.get(holding.topic);
    same?.delete(holding);
    if (same?.size === 0) this.byTopic.delete(holding.topic!);
  }

  repriced(topic: string, cost: number): void {
    const holdings = [...(this.byTopic.get(topic) ?? [])];
    for (const h of holdings) this.recharge(h, cost);
    // A rise may take a payer past its own budget: its newest subscriptions go, any topic.
    for (const p of new Set(holdings.flatMap((h) => h.payers))) {
      while (p.held > p.cap) {
        const newest = this.newest(p, (h) => h.end !== undefined);
        if (!newest) break;
        this.evict(newest, REASONS.overOwn(p.kind, p.cap));
      }
    }
    // Or the server past its budget: the heaviest give way, as for a subscribe.
    const over = this.hub.totalCost - this.hub.limits.maxCost;
    if (over > 0) for (const h of this.plan(over, 0, true) ?? []) this.evict(h, REASONS.overServer);
  }

  priority(topic: string): number {
    let lightest = Infinity;
    for (const h of this.byTopic.get(topic) ?? []) {
      let heaviest = 0;
      for (const p of h.payers) heaviest = Math.max(heaviest, load(p));
      lightest = Math.min(lightest, heaviest);
    }
    return lightest === Infinity ? 0 : lightest;
  }

  /** What a payer holds now (tests, metrics). */
  held(kind: PayerKind, id: string): number {
    return this.payers.get(`${kind}:${id}`)?.held ?? 0;
  }

  private payersOf(client: Client): Payer[] {
    const wanted: Array<[PayerKind, string | undefined, number]> = [
      ["address", client.address, this.limits.perAddress],
      ["prefix", client.prefix, this.limits.perPrefix],
      ["user", client.user, this.limits.perUser],
    ];
    return wanted.flatMap(([kind, id, cap]) => (id === undefined ? [] : [this.payers.get(`${kind}:${id}`) ?? { kind, key: `${kind}:${id}`, cap, held: 0, holdings: new Set<Holding>() }]));
  }

  /** Reserves `serverCost` in the hub, ending the heaviest payers' subscriptions first if it may. */
  private makeRoom(payers: Payer[], cost: number, serverCost: number): boolean {
    const newcomer = payers.every((p) => p.held === 0);
    const { maxCost, newcomerShare } = this.hub.limits;
    const limit = newcomer ? maxCost : maxCost * (1 - newcomerShare);
    if (this.hub.reserve(serverCost, limit)) return true;
    let after = 0;
    for (const p of payers) after = Math.max(after, load(p, p.held + cost));
    const victims = this.plan(this.hub.totalCost + this.hub.reservedCost + serverCost - limit, after, false);
    if (!victims) return false;
    for (const h of victims) this.evict(h, REASONS.lighter);
    return this.hub.reserve(serverCost, limit);
  }

  /**
   * The subscriptions to end to free `short` of the server's budget: each time every
   * subscription to the topic whose lightest subscriber is the heaviest (its heaviest payer's
   * held ÷ budget; among equals the newest topic), while that subscriber is heavier than
   * `floor`. A topic any lighter client holds is never taken, and one the heavy hold from several
   * connections or identities is taken from all of them (ending one of its holders would free
   * nothing). Undefined when that cannot free enough (unless `partial`: then as much as it can).
   */
  private plan(short: number, floor: number, partial: boolean): Holding[] | undefined {
    // Most subscribes that do not fit come from clients as heavy as the heaviest: answered at once.
    let top = 0;
    for (const p of this.payers.values()) top = Math.max(top, load(p));
    if (top <= floor) return partial ? [] : undefined;
    const held = new Map<Payer, number>();
    const weight = (h: Holding) => h.payers.reduce((w, p) => Math.max(w, load(p, held.get(p) ?? p.held)), 0);
    const chosen: Holding[] = [];
    const taken = new Set<string>();
    let freed = 0;
    while (freed < short) {
      let victim: { topic: string; holdings: Set<Holding>; lightest: number; newest: number } | undefined;
      for (const [topic, holdings] of this.byTopic) {
        // Every subscriber of it is a holding here (one just added to the hub is not yet: skipped).
        if (taken.has(topic) || this.hub.priceOf(topic) === 0 || this.hub.sharedBy(topic) !== holdings.size) continue;
        let lightest = Infinity;
        let newest = -1;
        for (const h of holdings) [lightest, newest] = [Math.min(lightest, weight(h)), Math.max(newest, h.seq)];
        if (lightest <= floor) continue;
        if (!victim || lightest > victim.lightest || (lightest === victim.lightest && newest > victim.newest)) victim = { topic, holdings, lightest, newest };
      }
      if (!victim) return partial ? chosen : undefined;
      taken.add(victim.topic);
      freed += this.hub.priceOf(victim.topic);
      for (const h of victim.holdings) {
        chosen.push(h);
        for (const p of h.payers) held.set(p, (held.get(p) ?? p.held) - h.cost);
      }
    }
    return chosen;
  }

  private newest(p: Payer, wanted: (h: Holding) => boolean): Holding | undefined {
    let found: Holding | undefined;
    for (const h of p.holdings) if (wanted(h) && (!found || h.seq > found.seq)) found = h;
    return found;
  }

  private evict(holding: Holding, reason: string): void {
    const end = holding.end;
    if (!end) return;
    this.hub.evicted += 1;
    end(reason);
    this.close(holding);
  }

  private recharge(holding: Holding, cost: number): void {
    const delta = cost - holding.cost;
    if (delta === 0) return;
    holding.cost = cost;
    for (const p of holding.payers) p.held += delta;
  }
}
