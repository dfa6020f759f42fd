/**
 * The /ws client: JSON-RPC 2.0 subscriptions to TokenPool's topics, each pushed once a block
 * with the same body the topic's REST route answers. The connection is kept: when it drops,
 * the client reconnects with backoff, sends its bearer token again (`auth`) and subscribes
 * again to every topic still held; the server's `unsubscribed` notification (an expired token)
 * ends a subscription, and its `onEnd` says why.
 */
import type { components } from "./schema.js";

type S = components["schemas"];

/** A block as the `blocks` topic pushes it (not a REST answer, so not in the API document). */
export interface BlockSummary {
  number: number;
  hash: string;
  timestamp: number;
  counts: { swaps: number; liquidityEvents: number; prices: number; reserves: number; holders: number; tokens: number; transfers?: number };
}

/**
 * What a topic pushes when its REST route would answer an error (a token whose price expired,
 * one destroyed): the subscription goes on, and a later block may push a value again.
 */
export interface TopicError {
  error: { code: string; message: string };
}

export type Topic =
  | `oracle.value:${number}`
  | `assets.metadata:${number}`
  | `assets.holders:${number}`
  | `accounts:${string}`
  | `transfers:${string}`
  | "pool.stats"
  | `pool.pair:${string}/${string}`
  | "blocks";

/**
 * What a topic pushes: its REST route's answer, or that route's error (TopicError) — test with
 * `"error" in result`. `blocks` pushes each block (null at subscribe, which names no block yet).
 */
export type TopicResult<T extends string> = T extends "blocks"
  ? BlockSummary | null
  :
      | TopicError
      | (T extends `oracle.value:${string}`
          ? S["OracleValue"]
          : T extends `assets.metadata:${string}`
            ? S["AssetMetadata"]
            : T extends `assets.holders:${string}`
              ? S["HolderPage"]
              : T extends `accounts:${string}`
                ? S["Portfolio"]
                : T extends `transfers:${string}`
                  ? S["AccountTransferPage"]
                  : T extends "pool.stats"
                    ? S["PoolStats"]
                    : T extends `pool.pair:${string}`
                      ? S["PairStats"]
                      : unknown);

export interface Push<T> {
  /** The topic as the server named it (a pair's symbols resolved to ids). */
  topic: string;
  block: number | null;
  result: T;
  /** True for the subscribe answer (the value now, also after a reconnect); false for a block's push. */
  answer: boolean;
}

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
}

const OPEN = 1;

export class LiveClient {
  private socket: WebSocketLike | undefined;
  private readonly held = new Set<Held>();
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
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
      if (this.socket?.readyState === OPEN) void this.send(held);
    });
  }

  /** Ends every subscription and the connection; no reconnect after it. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const h of this.held) h.ended = true;
    this.held.clear();
    this.socket?.close(1000, "client closed");
    this.socket = undefined;
  }

  private open(): void {
    const socket = new this.Ctor(this.options.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.failures = 0;
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
      for (const [, call] of this.calls) call.reject(new Error("connection closed"));
      this.calls.clear();
      for (const h of this.held) h.serverId = undefined;
      this.options.onState?.("closed");
      if (this.closed) return;
      const initial = this.options.backoff?.initialMs ?? 500;
      const max = this.options.backoff?.maxMs ?? 15_000;
      const wait = Math.min(max, initial * 2 ** this.failures++) * (0.5 + Math.random() / 2);
      this.timer = setTimeout(() => this.open(), wait);
    });
  }

  /** On each (re)connection: the token, then every topic held. */
  private async resume(): Promise<void> {
    const token = this.options.token?.();
    if (token) await this.call("auth", { token }).catch(() => {});
    await Promise.all([...this.held].map((h) => this.send(h)));
  }

  private async send(held: Held): Promise<void> {
    if (held.ended || held.serverId !== undefined) return;
    let answer: { subscription: string; topic: string; block: number | null; result: unknown };
    try {
      answer = (await this.call("subscribe", { topic: held.topic })) as typeof answer;
    } catch (err) {
      if (!(err instanceof LiveError)) return; // the connection dropped: sent again on the next one
      this.held.delete(held);
      held.ended = true;
      held.settle?.reject(err);
      held.settle = undefined;
      held.onEnd?.(err.message);
      return;
    }
    if (held.ended) {
      void this.call("unsubscribe", { subscription: answer.subscription }).catch(() => {});
      return;
    }
    held.serverId = answer.subscription;
    this.deliver(held, { topic: answer.topic, block: answer.block, result: answer.result, answer: true });
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
    held.onPush(push);
  }

  private call(method: string, params: unknown): Promise<unknown> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return Promise.reject(new Error("not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
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
    if (typeof msg.id === "number") {
      const call = this.calls.get(msg.id);
      this.calls.delete(msg.id);
      if (msg.error) call?.reject(new LiveError(msg.error.code, msg.error.message, msg.error.data));
      else call?.resolve(msg.result);
      return;
    }
    const p = msg.params ?? {};
    const held = [...this.held].find((h) => h.serverId !== undefined && h.serverId === p.subscription);
    if (!held) return;
    if (msg.method === "subscription") this.deliver(held, { topic: String(p.topic), block: (p.block as number | null) ?? null, result: p.result, answer: false });
    else if (msg.method === "unsubscribed") {
      held.ended = true;
      this.held.delete(held);
      held.onEnd?.(String(p.reason ?? "unsubscribed by the server"));
    }
  }
}
