/**
 * `GET /ws`: JSON-RPC 2.0 over WebSocket (the `ws` package on the API's own HTTP server).
 *
 *   → {"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topic":"oracle.value:1984"}}
 *   ← {"jsonrpc":"2.0","id":1,"result":{"subscription":"s1","topic":"oracle.value:1984","block":2000,"result":{…}}}
 *   ← {"jsonrpc":"2.0","method":"subscription","params":{"subscription":"s1","topic":"oracle.value:1984","block":2001,"result":{…}}}
 *   → {"jsonrpc":"2.0","id":2,"method":"unsubscribe","params":{"subscription":"s1"}}
 *   → {"jsonrpc":"2.0","id":3,"method":"auth","params":{"token":"<JWT>"}}
 *
 * Limits: connections per client address, subscriptions per connection, messages in flight per
 * connection, message size; every message (and the upgrade itself) counts against the client's
 * HTTP rate-limit window, pushes are free; a ping every interval (no pong by the next one:
 * terminated); a peer whose send buffer passes the limit is a slow consumer and is dropped
 * (close 1013) instead of buffering without bound. Each limit is counted and reserved in the
 * same synchronous step that checks it, before any await, so a burst in one tick cannot pass it.
 * A bad message gets a JSON-RPC error, never a closed server; a socket that errors or resets at
 * any stage is destroyed, never an unhandled 'error' event.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { decodeJwt } from "jose";
import { WebSocketServer, type WebSocket } from "ws";
import type { Database } from "../../db/index.js";
import { AppError, ERROR_CODES, type ErrorCode } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";
import type { TokenIssuer } from "../auth/tokens.js";
import { isUnavailable } from "../errors.js";
import { clientAddress } from "../middleware/client-ip.js";
import type { RateLimitStore } from "../rate-limit/store.js";
import type { LiveHub, Peer } from "./hub.js";
import { parseTopic, resolveTopic, topicCost } from "./topics.js";
import { answerAsHttp, handshakeProblem, refuse } from "./upgrade.js";

export interface LiveLimits {
  maxConnectionsPerIp: number;
  maxSubscriptions: number;
  /** Messages of one connection being answered at once; more get a LIMIT error at once. */
  maxInFlight: number;
  maxMessageBytes: number;
  /** Bytes queued on a socket beyond which its peer is dropped as a slow consumer. */
  maxBufferedBytes: number;
  pingIntervalMs: number;
  /**
   * What one client's subscriptions may cost per block, over all its connections (topicCost:
   * an account 6, a holders page 2, the rest 1): without it one address could hold 1,000 topics
   * (20 connections × 50), each a portfolio recomputed at every block.
   */
  maxTopicCostPerIp: number;
}

export const DEFAULT_LIMITS: LiveLimits = {
  maxConnectionsPerIp: 20,
  maxSubscriptions: 50,
  maxInFlight: 8,
  maxMessageBytes: 16 * 1024,
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
  maxTopicCostPerIp: 120,
};

/** Rate-limited messages in a row after which a connection that keeps sending is closed (1008). */
const MAX_REJECTED_IN_A_ROW = 50;

/** JSON-RPC error codes: the standard ones, and ours in the server range. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  UNAUTHORIZED: -32001,
  LIMIT: -32002,
  NOT_FOUND: -32004,
  UNAVAILABLE: -32003,
} as const;

/** An AppError of the REST API as a JSON-RPC error; `data.code` is the REST error code. */
function rpcErrorOf(err: AppError): { code: number; message: string; data: { code: ErrorCode } } {
  const status = ERROR_CODES[err.code].status;
  const code =
    status === 404 ? RPC.NOT_FOUND : status === 401 ? RPC.UNAUTHORIZED : status === 400 || status === 409 ? RPC.INVALID_PARAMS : status === 429 ? RPC.LIMIT : status === 503 ? RPC.UNAVAILABLE : RPC.INTERNAL_ERROR;
  return { code, message: err.message, data: { code: err.code } };
}

export interface LiveServer {
  connections(): number;
  close(): Promise<void>;
}

export interface LiveDeps {
  hub: LiveHub;
  /** Resolves pair symbols of topics to ids. */
  db: Database;
  tokens: TokenIssuer;
  trustProxy: number;
  logger: Logger;
  /** The HTTP rate limit whose window /ws messages share; unset or max 0 = unlimited. */
  rateLimit?: { store: RateLimitStore; max: number; windowMs: number };
  now?: () => number;
  limits?: Partial<LiveLimits>;
}

export function attachLive(server: Server, deps: LiveDeps): LiveServer {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const perIp = new Map<string, number>();
  /** The cost of each client's subscriptions, live or being made (maxTopicCostPerIp). */
  const costPerIp = new Map<string, number>();
  const charge = (ip: string, cost: number) => {
    const left = (costPerIp.get(ip) ?? 0) + cost;
    if (left <= 0) costPerIp.delete(ip);
    else costPerIp.set(ip, left);
  };
  const alive = new WeakMap<WebSocket, boolean>();
  let closing = false;

  /** Counts one message of `ip` against its window; the store's own step is atomic. */
  async function admit(ip: string): Promise<{ allowed: true } | { allowed: false; retryAfter: number }> {
    const rl = deps.rateLimit;
    if (!rl || rl.max === 0) return { allowed: true };
    try {
      const hit = await rl.store.hit(ip, now(), rl.windowMs, rl.max);
      return hit.allowed ? { allowed: true } : { allowed: false, retryAfter: Math.max(1, Math.ceil(hit.resetMs / 1000)) };
    } catch (err) {
      // As over HTTP: a counter store outage is logged, and the message is served.
      deps.logger.warn({ err }, "rate-limit store unavailable; message not counted");
      return { allowed: true };
    }
  }

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // First of all: a peer that resets now or later must not become an unhandled 'error' event.
    socket.on("error", () => socket.destroy());
    // No URL parsing here: a target Node accepts but WHATWG URL rejects (`//[`) threw out of this
    // listener and ended the process.
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q < 0 ? target : target.slice(0, q);
    if (path !== "/ws") {
      // An Upgrade offered on any other path (h2c from `curl --http2`, …) is ignored, as RFC 9110
      // lets a server do: the request is answered as plain HTTP.
      if (path.startsWith("/") && (req.method === "GET" || req.method === "HEAD")) return answerAsHttp(server, req, socket);
      return refuse(socket, "NOT_FOUND", `No WebSocket endpoint at ${JSON.stringify(path.slice(0, 200))}; use /ws.`);
    }
    if (closing) return refuse(socket, "SERVICE_UNAVAILABLE", "The server is shutting down.");
    if (q >= 0 && q < target.length - 1) return refuse(socket, "VALIDATION_ERROR", "/ws takes no query parameters.");
    const handshake = handshakeProblem(req);
    if (handshake) return refuse(socket, "VALIDATION_ERROR", handshake);
    const ip = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"] as string | undefined, deps.trustProxy);
    const count = perIp.get(ip) ?? 0;
    if (count >= limits.maxConnectionsPerIp) {
      return refuse(socket, "RATE_LIMITED", `At most ${limits.maxConnectionsPerIp} WebSocket connections per client.`, { "Retry-After": "60" });
    }
    // The slot is taken now, before any await, and given back when this socket closes, however
    // it ends (refused after the token check, a handshake ws rejects, a reset, a normal close).
    perIp.set(ip, count + 1);
    socket.once("close", () => {
      const left = (perIp.get(ip) ?? 1) - 1;
      if (left <= 0) perIp.delete(ip);
      else perIp.set(ip, left);
    });
    void (async () => {
      const admitted = await admit(ip);
      if (!admitted.allowed) return refuse(socket, "RATE_LIMITED", `Too many requests from this client; retry after ${admitted.retryAfter} s.`, { "Retry-After": String(admitted.retryAfter) });
      let userId: string | undefined;
      const header = req.headers.authorization;
      if (header !== undefined) {
        const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
        userId = match ? await deps.tokens.verify(match[1]!) : undefined;
        if (!userId) return refuse(socket, "UNAUTHORIZED", "The access token is invalid or expired.");
      }
      if (socket.destroyed) return;
      const token = userId ? header!.slice("Bearer ".length) : undefined;
      wss.handleUpgrade(req, socket, head, (ws) => connection(ws, ip, userId, token));
    })().catch((err) => {
      deps.logger.error({ err }, "live: upgrade failed");
      socket.destroy();
    });
  });

  function connection(ws: WebSocket, ip: string, initialUser: string | undefined, initialToken: string | undefined): void {
    alive.set(ws, true);
    let userId: string | undefined;
    let authTimer: NodeJS.Timeout | undefined;
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
        if (!needsAuth) continue;
        subs.delete(subscription);
        charge(ip, -(costs.get(subscription) ?? 0));
        costs.delete(subscription);
        deps.hub.unsubscribe(peer, topic);
        peer.send({ jsonrpc: "2.0", method: "unsubscribed", params: { subscription, topic, reason } });
      }
    };
    let next = 1;
    let closed = false;
    let inFlight = 0;
    let rejectedInARow = 0;
    /** Until then (ms), this connection's messages are refused without asking the store again. */
    let limitedUntil = 0;
    const subs = new Map<string, string>(); // subscription id -> topic name (reserved or live)
    const costs = new Map<string, number>(); // subscription id -> what it is charged to this client
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
    const fail = (id: unknown, error: { code: number; message: string; data?: unknown }) => peer.send({ jsonrpc: "2.0", id: id ?? null, error });
    const limited = (id: unknown, retryAfter: number) => {
      fail(id, { code: RPC.LIMIT, message: `Too many requests from this client: at most ${deps.rateLimit?.max} per ${(deps.rateLimit?.windowMs ?? 0) / 1000} s, HTTP and /ws together; retry after ${retryAfter} s.`, data: { code: "RATE_LIMITED", retryAfter } });
      rejectedInARow += 1;
      if (rejectedInARow >= MAX_REJECTED_IN_A_ROW) ws.close(1008, "rate limit exceeded");
    };

    ws.on("pong", () => alive.set(ws, true));
    authenticate(initialUser, initialToken, "");
    ws.on("close", () => {
      closed = true;
      clearTimeout(authTimer);
      for (const topic of subs.values()) deps.hub.unsubscribe(peer, topic);
      for (const cost of costs.values()) charge(ip, -cost);
      subs.clear();
      costs.clear();
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
        const admitted = await admit(ip);
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
          const topic = typeof sub === "string" ? subs.get(sub) : undefined;
          if (topic === undefined) return fail(id, { code: RPC.INVALID_PARAMS, message: `No subscription ${JSON.stringify(sub)?.slice(0, 100)} on this connection.` });
          subs.delete(sub as string);
          charge(ip, -(costs.get(sub as string) ?? 0));
          costs.delete(sub as string);
          deps.hub.unsubscribe(peer, topic);
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
      // Its price, for this client and for the server, charged with the checks, before the first
      // await; given back below unless the subscription is made (then when it ends).
      const cost = topicCost(parsed);
      const held = (costPerIp.get(ip) ?? 0) + cost;
      if (held > limits.maxTopicCostPerIp) {
        deps.hub.refused.client += 1;
        return fail(id, { code: RPC.LIMIT, message: `This client's subscriptions would cost ${held} queries a block; at most ${limits.maxTopicCostPerIp} (an account topic 6, a holders page 2, others 1): unsubscribe some, or read them over REST.`, data: { code: "RATE_LIMITED" } });
      }
      // A topic the server computes already adds nothing to its work (a pair or account is named once resolved: reserved until then).
      const shared = "name" in parsed && deps.hub.holds(parsed.name);
      const reserved = shared ? 0 : cost;
      if (!deps.hub.reserve(reserved)) {
        deps.hub.refused.server += 1;
        return fail(id, { code: RPC.LIMIT, message: `The server computes as many topics per block as it can (${deps.hub.limits.maxCost} queries); subscribe to topics others hold, or retry later.`, data: { code: "SERVICE_UNAVAILABLE" } });
      }
      charge(ip, cost);
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
        costs.set(subscription, cost);
        pendingSubscribes.count -= 1;
        const mine = subscription;
        let answer;
        try {
          // Closed or unsubscribed while the answer was computed: the hub does not add it. The
          // hub takes the reservation over (and gives it back however this ends).
          handedOver = true;
          answer = await deps.hub.subscribe(peer, topic, mine, () => !closed && subs.get(mine) === topic.name, reserved, cost);
        } catch (err) {
          if (subs.get(mine) === topic.name) {
            subs.delete(mine);
            charge(ip, -(costs.get(mine) ?? 0));
            costs.delete(mine);
          }
          if (err instanceof AppError) return fail(id, rpcErrorOf(err));
          throw err;
        }
        // Every request gets an answer, a cancelled subscribe too (its cost went back when it was cancelled).
        if (!answer.added) return fail(id, { code: RPC.INVALID_PARAMS, message: `Subscription ${mine} was unsubscribed before it was answered.` });
        return reply(id, { subscription, topic: topic.name, block: deps.hub.head, result: answer.value });
      } finally {
        if (subscription === undefined) {
          pendingSubscribes.count -= 1;
          charge(ip, -cost);
        }
        if (!handedOver) deps.hub.release(reserved);
      }
    }
  }

  const pinger = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, limits.pingIntervalMs);
  pinger.unref();

  return {
    connections: () => wss.clients.size,
    async close() {
      closing = true;
      clearInterval(pinger);
      for (const ws of wss.clients) ws.close(1001, "server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
