/**
 * One `/ws` connection once upgraded: its messages (subscribe, unsubscribe, auth), its
 * subscriptions and what they are charged (api/live/ledger.ts), its authorization and how it
 * ends. Every limit is checked and taken in the same synchronous step, before the first await.
 */
import { decodeJwt } from "jose";
import type { WebSocket } from "ws";
import { AppError, ERROR_CODES, type ErrorCode } from "../../shared/errors.js";
import { isUnavailable } from "../errors.js";
import { widerPrefix } from "../middleware/client-ip.js";
import type { Peer } from "./hub.js";
import type { Holding, Refusal, TopicLedger } from "./ledger.js";
import { parseTopic, resolveTopic, topicCost } from "./topics.js";
import { RPC, type LiveDeps, type LiveLimits } from "./protocol.js";

/** Rate-limited messages in a row after which a connection that keeps sending is closed (1008). */
const MAX_REJECTED_IN_A_ROW = 50;

type RpcError = { code: number; message: string; data?: unknown };

/** An AppError of the REST API as a JSON-RPC error; `data.code` is the REST error code. */
function rpcErrorOf(err: AppError): { code: number; message: string; data: { code: ErrorCode } } {
  const status = ERROR_CODES[err.code].status;
  const code =
    status === 404 ? RPC.NOT_FOUND : status === 401 ? RPC.UNAUTHORIZED : status === 400 || status === 409 ? RPC.INVALID_PARAMS : status === 429 ? RPC.LIMIT : status === 503 ? RPC.UNAVAILABLE : RPC.INTERNAL_ERROR;
  return { code, message: err.message, data: { code: err.code } };
}

const WHOSE = { address: "This client's", prefix: "This client's IPv6 /48's", user: "This user's" } as const;

/** A subscribe the ledger refused, as the client reads it. */
function refusalError(r: Refusal): RpcError {
  if (r.budget === "server") {
    return { code: RPC.LIMIT, message: `The server computes as many topics per block as it can (${r.cap} queries); subscribe to topics others hold, or retry later.`, data: { code: "SERVICE_UNAVAILABLE", budget: "server" } };
  }
  return {
    code: RPC.LIMIT,
    message: `${WHOSE[r.budget]} subscriptions would cost ${r.cost} queries a block; at most ${r.cap} (an account topic 6 until its answer prices it, a holders page 2, others 1): unsubscribe some, or read them over REST.`,
    data: { code: "RATE_LIMITED", budget: r.budget },
  };
}

export interface ConnectionContext {
  deps: LiveDeps;
  limits: LiveLimits;
  ledger: TopicLedger;
  now: () => number;
  /** Counts one message of the client against its HTTP window. */
  admit(ip: string): Promise<{ allowed: true } | { allowed: false; retryAfter: number }>;
  alive: WeakMap<WebSocket, boolean>;
}

export function serveConnection(ws: WebSocket, ip: string, initialUser: string | undefined, initialToken: string | undefined, ctx: ConnectionContext): void {
  const { deps, limits, ledger, now } = ctx;
  const hub = deps.hub;
  ctx.alive.set(ws, true);
  let userId: string | undefined;
  let authTimer: NodeJS.Timeout | undefined;
  let next = 1;
  let closed = false;
  let inFlight = 0;
  let rejectedInARow = 0;
  /** Until then (ms), this connection's messages are refused without asking the store again. */
  let limitedUntil = 0;
  const subs = new Map<string, string>(); // subscription id -> topic name (computing or live)
  const holdings = new Map<string, Holding>(); // subscription id -> what it is charged
  const pendingSubscribes = { count: 0 };
  const peer: Peer = {
    send(message) {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > limits.maxBufferedBytes) {
        deps.logger.warn({ ip, buffered: ws.bufferedAmount }, "live: slow consumer dropped");
        ws.close(1013, "slow consumer: messages were not read fast enough");
        ws.terminate();
        return;
      }
      ws.send(JSON.stringify(message));
    },
  };
  const reply = (id: unknown, result: unknown) => peer.send({ jsonrpc: "2.0", id, result });
  const fail = (id: unknown, error: RpcError) => peer.send({ jsonrpc: "2.0", id: id ?? null, error });
  const limited = (id: unknown, retryAfter: number) => {
    fail(id, { code: RPC.LIMIT, message: `Too many requests from this client: at most ${deps.rateLimit?.max} per ${(deps.rateLimit?.windowMs ?? 0) / 1000} s, HTTP and /ws together; retry after ${retryAfter} s.`, data: { code: "RATE_LIMITED", retryAfter } });
    rejectedInARow += 1;
    if (rejectedInARow >= MAX_REJECTED_IN_A_ROW) ws.close(1008, "rate limit exceeded");
  };

  /** Ends a subscription here, in the ledger and in the hub, in one step; its topic, if it was one. */
  const drop = (subscription: string): string | undefined => {
    const topic = subs.get(subscription);
    if (topic === undefined) return undefined;
    subs.delete(subscription);
    const holding = holdings.get(subscription);
    holdings.delete(subscription);
    if (holding) ledger.close(holding);
    hub.unsubscribe(peer, topic);
    return topic;
  };
  /** Ends a subscription the client did not ask to end, and tells it why. */
  const endWith = (subscription: string, reason: string) => {
    const topic = drop(subscription);
    if (topic !== undefined) peer.send({ jsonrpc: "2.0", method: "unsubscribed", params: { subscription, topic, reason } });
  };

  /**
   * The connection's user, for as long as its token lives: at the token's expiry, or after an
   * `auth` that fails, the topics that need a bearer token are ended with an `unsubscribed`
   * notification (public ones go on).
   */
  const authenticate = (user: string | undefined, token: string | undefined, reason: string) => {
    clearTimeout(authTimer);
    userId = user;
    if (user && token) {
      const exp = decodeJwt(token).exp ?? 0;
      authTimer = setTimeout(() => authenticate(undefined, undefined, "the access token expired"), Math.max(0, exp * 1000 - now()));
      authTimer.unref();
      return;
    }
    for (const [subscription, topic] of [...subs]) {
      let needsAuth = false;
      try {
        needsAuth = parseTopic(topic).needsAuth;
      } catch {
        needsAuth = true;
      }
      if (needsAuth) endWith(subscription, reason);
    }
  };

  ws.on("pong", () => ctx.alive.set(ws, true));
  authenticate(initialUser, initialToken, "");
  ws.on("close", () => {
    closed = true;
    clearTimeout(authTimer);
    for (const subscription of [...subs.keys()]) drop(subscription);
  });
  ws.on("error", () => ws.terminate());
  ws.on("message", (data, isBinary) => {
    const text = isBinary ? null : data.toString();
    // The message's id, for the answers given before it is handled (bounded: maxPayload).
    const idOf = () => {
      try {
        const m = text === null ? undefined : (JSON.parse(text) as { id?: unknown });
        return typeof m?.id === "string" || typeof m?.id === "number" ? m.id : null;
      } catch {
        return null;
      }
    };
    if (now() < limitedUntil) return limited(idOf(), Math.ceil((limitedUntil - now()) / 1000));
    if (inFlight >= limits.maxInFlight) {
      fail(idOf(), { code: RPC.LIMIT, message: `At most ${limits.maxInFlight} requests in flight per connection; wait for the answers.`, data: { code: "RATE_LIMITED" } });
      rejectedInARow += 1;
      if (rejectedInARow >= MAX_REJECTED_IN_A_ROW) ws.close(1008, "too many requests in flight");
      return;
    }
    inFlight += 1;
    void (async () => {
      const admitted = await ctx.admit(ip);
      if (!admitted.allowed) {
        limitedUntil = now() + admitted.retryAfter * 1000;
        return limited(idOf(), admitted.retryAfter);
      }
      rejectedInARow = 0;
      await handle(text);
    })()
      .catch((err) => {
        if (isUnavailable(err)) {
          deps.logger.warn({ err }, "live: store unavailable");
          return fail(idOf(), { code: RPC.UNAVAILABLE, message: "The data store is unavailable; retry shortly.", data: { code: "SERVICE_UNAVAILABLE" } });
        }
        deps.logger.error({ err }, "live: message failed");
        fail(idOf(), { code: RPC.INTERNAL_ERROR, message: "An unexpected error occurred." });
      })
      .finally(() => (inFlight -= 1));
  });

  async function handle(text: string | null): Promise<void> {
    let msg: unknown;
    try {
      msg = text === null ? undefined : JSON.parse(text);
    } catch {
      return fail(null, { code: RPC.PARSE_ERROR, message: "Parse error: the message is not valid JSON." });
    }
    if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
      return fail(null, { code: RPC.INVALID_REQUEST, message: "Invalid request: send one JSON-RPC 2.0 object (batches are not supported)." });
    }
    const { jsonrpc, id, method, params } = msg as Record<string, unknown>;
    const validId = id === undefined || (typeof id === "string" && id.length <= 128) || (typeof id === "number" && Number.isSafeInteger(id));
    if (jsonrpc !== "2.0" || typeof method !== "string" || !validId) {
      return fail(validId ? id : null, { code: RPC.INVALID_REQUEST, message: 'Invalid request: needs "jsonrpc":"2.0", a string "method" and an integer or string (at most 128 characters) "id".' });
    }
    const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
    switch (method) {
      case "auth": {
        const token = p.token;
        const user = typeof token === "string" && token.length <= 4096 ? await deps.tokens.verify(token) : undefined;
        if (closed) return;
        if (!user) {
          // A failed auth ends the earlier one: the client's credentials are no longer known good.
          authenticate(undefined, undefined, "a later auth failed");
          return fail(id, { code: RPC.UNAUTHORIZED, message: "The access token is invalid or expired.", data: { code: "UNAUTHORIZED" } });
        }
        authenticate(user, token as string, "");
        return reply(id, { authenticated: true });
      }
      case "subscribe":
        return subscribe(id, p.topic);
      case "unsubscribe": {
        const sub = p.subscription;
        if (typeof sub !== "string" || drop(sub) === undefined) return fail(id, { code: RPC.INVALID_PARAMS, message: `No subscription ${JSON.stringify(sub)?.slice(0, 100)} on this connection.` });
        return reply(id, true);
      }
      default:
        return fail(id, { code: RPC.METHOD_NOT_FOUND, message: `Method not found: ${JSON.stringify(method.slice(0, 64))}; methods are subscribe, unsubscribe, auth.` });
    }
  }

  async function subscribe(id: unknown, raw: unknown): Promise<void> {
    let parsed;
    try {
      parsed = parseTopic(raw);
    } catch (err) {
      return fail(id, rpcErrorOf(err as AppError));
    }
    if (parsed.needsAuth && !userId) {
      return fail(id, { code: RPC.UNAUTHORIZED, message: `Topic "${"name" in parsed ? parsed.name : `${parsed.feed === "portfolio" ? "accounts" : "transfers"}:${parsed.account}`}" needs a bearer token: send it in the Authorization header of the upgrade, or call "auth" first.`, data: { code: "UNAUTHORIZED" } });
    }
    // The slot is reserved here, with the check, before the first await.
    if (subs.size + pendingSubscribes.count >= limits.maxSubscriptions) {
      return fail(id, { code: RPC.LIMIT, message: `At most ${limits.maxSubscriptions} subscriptions per connection.`, data: { code: "RATE_LIMITED" } });
    }
    // Its price, for its payers and for the server, charged with the checks before the first
    // await; given back below unless the subscription is made (then when it ends). A topic the
    // server computes already adds nothing to its work (a pair or account is named once
    // resolved: reserved until then).
    const cost = topicCost(parsed);
    const reserved = "name" in parsed && hub.holds(parsed.name) ? 0 : cost;
    const holding = ledger.open({ address: ip, prefix: widerPrefix(ip), user: userId }, cost, reserved);
    if (!("payers" in holding)) return fail(id, refusalError(holding));
    pendingSubscribes.count += 1;
    let subscription: string | undefined;
    let handedOver = false;
    try {
      let topic;
      try {
        topic = await resolveTopic(deps.db, parsed);
      } catch (err) {
        if (err instanceof AppError) return fail(id, rpcErrorOf(err));
        throw err;
      }
      if (closed) return;
      if ([...subs.values()].includes(topic.name)) return fail(id, { code: RPC.INVALID_PARAMS, message: `Already subscribed to "${topic.name}".` });
      subscription = `s${next++}`;
      subs.set(subscription, topic.name);
      holdings.set(subscription, holding);
      pendingSubscribes.count -= 1;
      const mine = subscription;
      const wanted = () => !closed && subs.get(mine) === topic.name;
      let answer;
      try {
        // Closed or unsubscribed while the answer was computed: the hub does not add it. The
        // hub takes the reservation over (and gives it back however this ends).
        handedOver = true;
        answer = await hub.subscribe(peer, topic, mine, wanted, reserved);
      } catch (err) {
        if (subs.get(mine) === topic.name) drop(mine);
        if (err instanceof AppError) return fail(id, rpcErrorOf(err));
        throw err;
      }
      // Every request gets an answer, a cancelled subscribe too (its cost went back when it was cancelled).
      if (!answer.added || !wanted()) return fail(id, { code: RPC.INVALID_PARAMS, message: `Subscription ${mine} was unsubscribed before it was answered.` });
      ledger.live(holding, topic.name, (reason) => endWith(mine, reason));
      return reply(id, { subscription, topic: topic.name, block: hub.head, result: answer.value });
    } finally {
      if (subscription === undefined) {
        pendingSubscribes.count -= 1;
        ledger.close(holding);
      }
      if (!handedOver) hub.release(reserved);
    }
  }
}
