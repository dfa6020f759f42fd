/**
 * `GET /ws`: JSON-RPC 2.0 over WebSocket (the `ws` package on the API's own HTTP server).
 *
 *   → {"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topic":"oracle.value:1984"}}
 *   ← {"jsonrpc":"2.0","id":1,"result":{"subscription":"s1","topic":"oracle.value:1984","block":2000,"result":{…}}}
 *   ← {"jsonrpc":"2.0","method":"subscription","params":{"subscription":"s1","topic":"oracle.value:1984","block":2001,"result":{…}}}
 *   → {"jsonrpc":"2.0","id":2,"method":"unsubscribe","params":{"subscription":"s1"}}
 *   → {"jsonrpc":"2.0","id":3,"method":"auth","params":{"token":"<JWT>"}}
 *
 * This file is the upgrade's edge; an upgraded connection is served by connection.ts, its
 * subscriptions charged by ledger.ts.
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
import { WebSocketServer, type WebSocket } from "ws";
import { clientAddress } from "../middleware/client-ip.js";
import { serveConnection } from "./connection.js";
import { TopicLedger } from "./ledger.js";
import { DEFAULT_LIMITS, type LiveDeps } from "./protocol.js";
import { answerAsHttp, handshakeProblem, refuse } from "./upgrade.js";

export { DEFAULT_LIMITS, RPC, type LiveDeps, type LiveLimits } from "./protocol.js";

export interface LiveServer {
  connections(): number;
  /** The connection slots `ip` holds (maxConnectionsPerIp): every socket from it, however far its upgrade got, until it closes. */
  slotsOf(ip: string): number;
  close(): Promise<void>;
}

export function attachLive(server: Server, deps: LiveDeps): LiveServer {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const perIp = new Map<string, number>();
  const ledger = new TopicLedger(deps.hub, { perAddress: limits.maxTopicCostPerIp, perPrefix: limits.maxTopicCostPerPrefix, perUser: limits.maxTopicCostPerUser });
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
      wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, ip, userId, token, { deps, limits, ledger, now, admit, alive }));
    })().catch((err) => {
      deps.logger.error({ err }, "live: upgrade failed");
      socket.destroy();
    });
  });

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
    slotsOf: (ip) => perIp.get(ip) ?? 0,
    async close() {
      closing = true;
      clearInterval(pinger);
      for (const ws of wss.clients) ws.close(1001, "server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
