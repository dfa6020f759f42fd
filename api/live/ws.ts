/**
 * `GET /ws`: JSON-RPC 2.0 over WebSocket (the `ws` package on the API's own HTTP server).
 *
 *   → {"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topic":"oracle.value:1984"}}
 *   ← {"jsonrpc":"2.0","id":1,"result":{"subscription":"s1","topic":"oracle.value:1984","block":2000,"result":{…}}}
 *   ← {"jsonrpc":"2.0","method":"subscription","params":{"subscription":"s1","topic":"oracle.value:1984","block":2001,"result":{…}}}
 *   → {"jsonrpc":"2.0","id":2,"method":"unsubscribe","params":{"subscription":"s1"}}
 *   → {"jsonrpc":"2.0","id":3,"method":"auth","params":{"token":"<JWT>"}}
 *
 * Limits: connections per client IP, subscriptions per connection, message size; a ping every
 * interval (no pong by the next one: terminated); a peer whose send buffer passes the limit is
 * a slow consumer and is dropped (close 1013) instead of buffering without bound. A bad message
 * gets a JSON-RPC error, never a closed server.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { AppError, ERROR_CODES, type ErrorCode } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";
import type { TokenIssuer } from "../auth/tokens.js";
import type { LiveHub, Peer } from "./hub.js";
import { parseTopic } from "./topics.js";

export interface LiveLimits {
  maxConnectionsPerIp: number;
  maxSubscriptions: number;
  maxMessageBytes: number;
  /** Bytes queued on a socket beyond which its peer is dropped as a slow consumer. */
  maxBufferedBytes: number;
  pingIntervalMs: number;
}

export const DEFAULT_LIMITS: LiveLimits = {
  maxConnectionsPerIp: 20,
  maxSubscriptions: 50,
  maxMessageBytes: 16 * 1024,
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
};

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
} as const;

/** An AppError of the REST API as a JSON-RPC error; `data.code` is the REST error code. */
function rpcErrorOf(err: AppError): { code: number; message: string; data: { code: ErrorCode } } {
  const status = ERROR_CODES[err.code].status;
  const code = status === 404 ? RPC.NOT_FOUND : status === 401 ? RPC.UNAUTHORIZED : status === 400 ? RPC.INVALID_PARAMS : RPC.INTERNAL_ERROR;
  return { code, message: err.message, data: { code: err.code } };
}

function clientIp(req: IncomingMessage, trustProxy: number): string {
  const norm = (ip: string) => (ip.startsWith("::ffff:") ? ip.slice(7) : ip);
  if (trustProxy > 0) {
    const chain = String(req.headers["x-forwarded-for"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    const ip = chain[Math.max(0, chain.length - trustProxy)];
    if (ip) return norm(ip);
  }
  return norm(req.socket.remoteAddress ?? "unknown");
}

/** Refuses an upgrade with an HTTP answer carrying the API's error body. */
function refuse(socket: Duplex, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  const { status } = ERROR_CODES[code];
  const body = JSON.stringify({ success: false, error: { code, message } });
  const head = [`HTTP/1.1 ${status} ${code}`, "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}

export interface LiveServer {
  connections(): number;
  close(): Promise<void>;
}

export function attachLive(server: Server, deps: { hub: LiveHub; tokens: TokenIssuer; trustProxy: number; logger: Logger; limits?: Partial<LiveLimits> }): LiveServer {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const perIp = new Map<string, number>();
  const alive = new WeakMap<WebSocket, boolean>();

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      if (path !== "/ws") return refuse(socket, "NOT_FOUND", `No WebSocket endpoint at ${path}; use /ws.`);
      const ip = clientIp(req, deps.trustProxy);
      if ((perIp.get(ip) ?? 0) >= limits.maxConnectionsPerIp) {
        return refuse(socket, "RATE_LIMITED", `At most ${limits.maxConnectionsPerIp} WebSocket connections per client.`, { "Retry-After": "60" });
      }
      let userId: string | undefined;
      const header = req.headers.authorization;
      if (header !== undefined) {
        const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
        userId = match ? await deps.tokens.verify(match[1]!) : undefined;
        if (!userId) return refuse(socket, "UNAUTHORIZED", "The access token is invalid or expired.");
      }
      wss.handleUpgrade(req, socket, head, (ws) => connection(ws, ip, userId));
    })().catch((err) => {
      deps.logger.error({ err }, "live: upgrade failed");
      socket.destroy();
    });
  });

  function connection(ws: WebSocket, ip: string, initialUser: string | undefined): void {
    perIp.set(ip, (perIp.get(ip) ?? 0) + 1);
    alive.set(ws, true);
    let userId = initialUser;
    let next = 1;
    const subs = new Map<string, string>(); // subscription id -> topic name
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

    ws.on("pong", () => alive.set(ws, true));
    ws.on("close", () => {
      perIp.set(ip, (perIp.get(ip) ?? 1) - 1);
      if (perIp.get(ip) === 0) perIp.delete(ip);
      for (const topic of subs.values()) deps.hub.unsubscribe(peer, topic);
      subs.clear();
    });
    ws.on("error", () => ws.terminate());
    ws.on("message", (data, isBinary) => {
      void handle(isBinary ? null : data.toString()).catch((err) => {
        deps.logger.error({ err }, "live: message failed");
        fail(null, { code: RPC.INTERNAL_ERROR, message: "An unexpected error occurred." });
      });
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
      const validId = id === undefined || typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
      if (jsonrpc !== "2.0" || typeof method !== "string" || !validId) {
        return fail(validId ? id : null, { code: RPC.INVALID_REQUEST, message: 'Invalid request: needs "jsonrpc":"2.0", a string "method" and an integer or string "id".' });
      }
      const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
      switch (method) {
        case "auth": {
          const token = p.token;
          const user = typeof token === "string" ? await deps.tokens.verify(token) : undefined;
          if (!user) return fail(id, { code: RPC.UNAUTHORIZED, message: "The access token is invalid or expired.", data: { code: "UNAUTHORIZED" } });
          userId = user;
          return reply(id, { authenticated: true });
        }
        case "subscribe": {
          let topic;
          try {
            topic = parseTopic(p.topic);
          } catch (err) {
            return fail(id, rpcErrorOf(err as AppError));
          }
          if (topic.needsAuth && !userId) {
            return fail(id, { code: RPC.UNAUTHORIZED, message: `Topic "${topic.name}" needs a bearer token: send it in the Authorization header of the upgrade, or call "auth" first.`, data: { code: "UNAUTHORIZED" } });
          }
          if ([...subs.values()].includes(topic.name)) return fail(id, { code: RPC.INVALID_PARAMS, message: `Already subscribed to "${topic.name}".` });
          if (subs.size >= limits.maxSubscriptions) {
            return fail(id, { code: RPC.LIMIT, message: `At most ${limits.maxSubscriptions} subscriptions per connection.`, data: { code: "RATE_LIMITED" } });
          }
          const subscription = `s${next++}`;
          try {
            const result = await deps.hub.subscribe(peer, topic, subscription);
            subs.set(subscription, topic.name);
            return reply(id, { subscription, topic: topic.name, block: deps.hub.head, result });
          } catch (err) {
            if (err instanceof AppError) return fail(id, rpcErrorOf(err));
            throw err;
          }
        }
        case "unsubscribe": {
          const sub = p.subscription;
          const topic = typeof sub === "string" ? subs.get(sub) : undefined;
          if (topic === undefined) return fail(id, { code: RPC.INVALID_PARAMS, message: `No subscription ${JSON.stringify(sub)} on this connection.` });
          subs.delete(sub as string);
          deps.hub.unsubscribe(peer, topic);
          return reply(id, true);
        }
        default:
          return fail(id, { code: RPC.METHOD_NOT_FOUND, message: `Method not found: ${method}; methods are subscribe, unsubscribe, auth.` });
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
      clearInterval(pinger);
      for (const ws of wss.clients) ws.close(1001, "server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
