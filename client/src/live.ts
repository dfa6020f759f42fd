/**
 * The /ws client: JSON-RPC 2.0 subscriptions to TokenPool's topics, each pushed once a block
 * with the same body the topic's REST route answers. The connection is kept: when it drops,
 * the client reconnects with backoff, sends its bearer token again (`auth`) and subscribes
 * again to every topic still held; the server's `unsubscribed` notification (an expired token)
 * ends a subscription, and its `onEnd` says why.
 */
import type { Push, Topic, TopicResult } from "./topics.js";


/** A JSON-RPC error answered to a call (subscribe refused: unknown topic, no token, over budget). */
export class LiveError extends Error {
  override name = "LiveError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The subset of the WHATWG WebSocket this client uses: the global one (browsers, Node 22+) or
 * the `ws` package's, both assignable as they are. Listeners take `any`: each implementation has
 * its own event classes, and only a message's `data` is read.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  addEventListener(type: "open" | "close" | "error" | "message", listener: (event: any) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface LiveOptions {
  /** ws:// or wss:// address of /ws. */
  url: string;
  /** The bearer token to send (`auth`) on each connection, when there is one. */
  token?: () => string | undefined;
  /** Default: globalThis.WebSocket (Node 22+, browsers); on Node 20 pass the `ws` package's. */
  WebSocket?: WebSocketConstructor;
  /** Reconnect backoff: first wait and cap (default 500 ms, 15 s), doubled per failed attempt, with jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Each time the connection opens or drops. */
  onState?: (state: "open" | "closed") => void;
  /** An exception thrown by an onPush or onEnd callback (caught: it must not end the connection). */
  onError?: (err: unknown) => void;
}

export interface Subscription<T> {
  readonly topic: string;
  /** The latest push (or the subscribe answer). */
  readonly last: Push<T> | undefined;
  /** Resolves once the server has stopped sending this topic to this client. */
  unsubscribe(): Promise<void>;
}

interface Held {
  topic: string;
  onPush: (push: Push<unknown>) => void;
  onEnd?: (reason: string) => void;
  /** The server's id on the current connection (undefined until it answered there). */
  serverId?: string;
  last?: Push<unknown>;
  ended: boolean;
  /** The first subscribe's outcome (the caller awaits it). */
  settle?: { resolve: () => void; reject: (err: Error) => void };
  /** A subscribe is on its way (one at a time: a second would be refused as already subscribed). */
  sending?: boolean;
  /** Resubscribes refused for a passing reason (rate, store down) in a row: the backoff. */
  retries?: number;
}

/** Refusals that pass (the in-flight limit, a store that is down): a resubscribe is tried again later. */
const PASSING = new Set(["RATE_LIMITED", "SERVICE_UNAVAILABLE", "INTERNAL_ERROR"]);
/** Resubscribes sent at once after a reconnect (the server takes 8 requests in flight). */
const RESUBSCRIBE_AT_ONCE = 4;
/** A call unanswered this long: the connection is taken for dead and opened again. */
const CALL_TIMEOUT_MS = 30_000;
/** A connection that lived this long resets the reconnect backoff (one closed at once does not). */
const STABLE_MS = 10_000;

const OPEN = 1;

export class LiveClient {
  private socket: WebSocketLike | undefined;
  private readonly held = new Set<Held>();
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private openedAt = 0;
  /**
   * Pushes for a subscription whose answer is read but not yet handled (a push in the same
   * chunk as its answer is read first): delivered right after the answer. At most 64.
   */
  private readonly early = new Map<string, Push<unknown>>();
  /** While the token is sent on a new connection: a subscribe waits for resume() to send it (after auth). */
  private authing = false;
  private nextId = 1;
  private closed = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly Ctor: WebSocketConstructor;

  constructor(private readonly options: LiveOptions) {
    const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!Ctor) throw new Error("no WebSocket in this runtime (Node 20): pass options.WebSocket, e.g. the `ws` package's");
    this.Ctor = Ctor;
    this.open();
  }

  /**
   * Subscribes to `topic`: resolves once the server answered with the topic's current value
   * (passed to `onPush` first), rejects with LiveError when it refuses. Kept across reconnects.
   */
  subscribe<T extends Topic>(topic: T, onPush: (push: Push<TopicResult<T>>) => void, onEnd?: (reason: string) => void): Promise<Subscription<TopicResult<T>>> {
    if (this.closed) return Promise.reject(new Error("the live client is closed"));
    const held: Held = { topic, onPush: onPush as (p: Push<unknown>) => void, onEnd, ended: false };
    this.held.add(held);
    const sub: Subscription<TopicResult<T>> = {
      topic,
      get last() {
        return held.last as Push<TopicResult<T>> | undefined;
      },
      unsubscribe: () => this.drop(held),
    };
    return new Promise((resolve, reject) => {
      held.settle = { resolve: () => resolve(sub), reject };
      if (this.socket?.readyState === OPEN && !this.authing) void this.send(held);
    });
  }

  /** Ends every subscription and the connection; no reconnect after it. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    const closed = new Error("the live client is closed");
    for (const h of this.held) {
      h.ended = true;
      h.settle?.reject(closed);
      h.settle = undefined;
    }
    this.held.clear();
    this.failCalls(closed);
    this.socket?.close(1000, "client closed");
    this.socket = undefined;
  }

  private open(): void {
    const socket = new this.Ctor(this.options.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.openedAt = Date.now();
      this.options.onState?.("open");
      void this.resume();
    });
    socket.addEventListener("message", (event: { data: unknown }) => {
      if (socket === this.socket) this.receive(String(event.data));
    });
    // An error is followed by close: reconnecting is close's business.
    socket.addEventListener("error", () => {});
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = undefined;
      this.failCalls(new Error("connection closed"));
      this.early.clear();
      for (const h of this.held) h.serverId = undefined;
      this.options.onState?.("closed");
      if (this.closed) return;
      const initial = this.options.backoff?.initialMs ?? 500;
      const max = this.options.backoff?.maxMs ?? 15_000;
      // A server that accepts and closes at once (rate limit, shutdown) is not a recovery.
      if (this.openedAt && Date.now() - this.openedAt > STABLE_MS) this.failures = 0;
      this.openedAt = 0;
      const wait = Math.min(max, initial * 2 ** this.failures++) * (0.5 + Math.random() / 2);
      this.timer = setTimeout(() => this.open(), wait);
    });
  }

  /** On each (re)connection: the token, then every topic held, a few at a time. */
  private async resume(): Promise<void> {
    const socket = this.socket;
    const token = this.options.token?.();
    this.authing = true;
    if (token) await this.call("auth", { token }).catch(() => {});
    this.authing = false;
    const queue = [...this.held];
    const worker = async () => {
      for (let h = queue.shift(); h && socket === this.socket; h = queue.shift()) await this.send(h);
    };
    await Promise.all(Array.from({ length: RESUBSCRIBE_AT_ONCE }, worker));
  }

  private async send(held: Held): Promise<void> {
    if (held.ended || held.sending || held.serverId !== undefined) return;
    held.sending = true;
    let answer: { subscription: string; topic: string; block: number | null; result: unknown };
    try {
      answer = (await this.call("subscribe", { topic: held.topic })) as typeof answer;
    } catch (err) {
      held.sending = false;
      if (!(err instanceof LiveError)) return; // the connection dropped: sent again on the next one
      const code = (err.data as { code?: string } | undefined)?.code;
      if (!held.settle && code !== undefined && PASSING.has(code) && !held.ended) {
        // A resubscribe refused for now: tried again later on this connection, the topic kept.
        const wait = Math.min(15_000, 500 * 2 ** (held.retries = (held.retries ?? 0) + 1));
        setTimeout(() => void this.send(held), wait);
        return;
      }
      this.held.delete(held);
      held.ended = true;
      held.settle?.reject(err);
      held.settle = undefined;
      this.safely(() => held.onEnd?.(err.message));
      return;
    }
    held.sending = false;
    held.retries = 0;
    if (held.ended) {
      void this.call("unsubscribe", { subscription: answer.subscription }).catch(() => {});
      return;
    }
    held.serverId = answer.subscription;
    this.deliver(held, { topic: answer.topic, block: answer.block, result: answer.result, answer: true });
    const early = this.early.get(answer.subscription);
    this.early.delete(answer.subscription);
    if (early) this.deliver(held, early);
    held.settle?.resolve();
    held.settle = undefined;
  }

  private async drop(held: Held): Promise<void> {
    if (held.ended) return;
    held.ended = true;
    this.held.delete(held);
    if (held.serverId !== undefined && this.socket?.readyState === OPEN) await this.call("unsubscribe", { subscription: held.serverId }).catch(() => {});
  }

  private deliver(held: Held, push: Push<unknown>): void {
    held.last = push;
    this.safely(() => held.onPush(push));
  }

  /** A caller's callback that throws must not end the connection (nor, on Node, the process). */
  private safely(f: () => void): void {
    try {
      f();
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private failCalls(err: Error): void {
    for (const [, call] of this.calls) {
      clearTimeout(call.timer);
      call.reject(err);
    }
    this.calls.clear();
  }

  private call(method: string, params: unknown): Promise<unknown> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return Promise.reject(new Error("not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // No answer in time: the connection is taken for dead (half-open) and opened again.
      const timer = setTimeout(() => {
        this.calls.delete(id);
        reject(new Error(`no answer to ${method} within ${CALL_TIMEOUT_MS} ms`));
        if (socket === this.socket) socket.close(4000, "unanswered call");
      }, CALL_TIMEOUT_MS);
      this.calls.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  private receive(text: string): void {
    let msg: { id?: number; result?: unknown; error?: { code: number; message: string; data?: unknown }; method?: string; params?: Record<string, unknown> };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg === null || typeof msg !== "object") return; // not JSON-RPC: ignored
    if (typeof msg.id === "number") {
      const call = this.calls.get(msg.id);
      this.calls.delete(msg.id);
      if (call) clearTimeout(call.timer);
      if (msg.error) call?.reject(new LiveError(msg.error.code, msg.error.message, msg.error.data));
      else call?.resolve(msg.result);
      return;
    }
    const p = msg.params && typeof msg.params === "object" ? msg.params : {};
    const held = [...this.held].find((h) => h.serverId !== undefined && h.serverId === p.subscription);
    if (!held) {
      if (msg.method === "subscription" && typeof p.subscription === "string" && (this.early.has(p.subscription) || this.early.size < 64)) {
        this.early.set(p.subscription, { topic: String(p.topic), block: (p.block as number | null) ?? null, result: p.result, answer: false });
      }
      return;
    }
    if (msg.method === "subscription") this.deliver(held, { topic: String(p.topic), block: (p.block as number | null) ?? null, result: p.result, answer: false });
    else if (msg.method === "unsubscribed") {
      held.ended = true;
      this.held.delete(held);
      this.safely(() => held.onEnd?.(String(p.reason ?? "unsubscribed by the server")));
    }
  }
}
