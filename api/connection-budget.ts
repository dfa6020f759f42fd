/**
 * A budget per HTTP connection and per client, as /ws has one (api/live/ws.ts). Without it one
 * client, inside the rate limit, could hold memory without bound: 100 pipelined GETs on a socket
 * whose peer never reads are all computed and queued (Node parses a whole packet of requests
 * before it pauses), and with no write deadline the socket and its answers stay forever
 * (measured: RSS +165 MB a minute from one IP).
 *
 * - **Pipelined requests in flight**: a connection may have `pipelined` requests read and not
 *   yet answered; the next one closes it (its requests are never computed).
 * - **Answer bytes queued**: a request arriving while the connection has over `queuedBytes`
 *   written and not taken by its peer closes it.
 * - **Write deadline**: a connection with requests or answers pending on which nothing moves —
 *   no byte read, none taken by the peer — for `writeTimeoutMs` is closed (Node's socket
 *   inactivity timeout; idle keep-alive connections close after 5 s as before).
 * - **Connections per client**: at most `perClient` open at once from one address (the peer's;
 *   not applied behind a trusted proxy, where every peer is the proxy: limit there, e.g. nginx's
 *   `limit_conn`).
 * Each closure is counted (tokenpool_http_connections_closed_total{reason}). Every check runs
 * synchronously when the request or connection arrives, before anything is computed for it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../shared/logger.js";
import type { ApiMetrics, ConnectionCloseReason } from "../shared/metrics.js";
import { clientAddress } from "./middleware/client-ip.js";

export interface ConnectionLimits {
  pipelined: number;
  queuedBytes: number;
  writeTimeoutMs: number;
  perClient: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  pipelined: 16,
  queuedBytes: 4 * 1024 * 1024,
  writeTimeoutMs: 30_000,
  perClient: 256,
};

const IN_FLIGHT = Symbol("requests in flight");
const DONE = Symbol("a request of the connection answered");
type Tracked = Socket & { [IN_FLIGHT]?: number; [DONE]?: () => void };

export interface ConnectionBudget {
  /** Whether `req` may be answered; false when its connection was closed for it. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  /** Connections closed for their budget, by reason (also in the metrics). */
  readonly closed: Record<ConnectionCloseReason, number>;
}

export function connectionBudget(server: Server, limits: ConnectionLimits, opts: { trustProxy: number; metrics: ApiMetrics; logger: Logger }): ConnectionBudget {
  const closed: Record<ConnectionCloseReason, number> = { pipelined: 0, queued_bytes: 0, write_timeout: 0, per_client: 0 };
  const close = (socket: Socket, reason: ConnectionCloseReason): false => {
    closed[reason] += 1;
    opts.metrics.connectionClosed(reason);
    if (opts.logger.isLevelEnabled("debug")) opts.logger.debug({ reason, remote: socket.remoteAddress }, "api: connection closed for exceeding its budget");
    socket.destroy();
    return false;
  };

  server.timeout = limits.writeTimeoutMs;
  server.on("timeout", (socket: Tracked) => {
    // The same timer ends idle keep-alive connections: only one with work pending is a client
    // that stopped reading (or sending the rest of a request).
    if ((socket[IN_FLIGHT] ?? 0) > 0 || socket.writableLength > 0) close(socket, "write_timeout");
    else socket.destroy();
  });

  if (opts.trustProxy === 0) {
    const open = new Map<string, number>();
    server.on("connection", (socket: Socket) => {
      const key = clientAddress(socket.remoteAddress, undefined, 0);
      const n = (open.get(key) ?? 0) + 1;
      if (n > limits.perClient) return void close(socket, "per_client");
      open.set(key, n);
      socket.once("close", () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left === 0) open.delete(key);
        else open.set(key, left);
      });
    });
  }

  return {
    closed,
    admit(req, res) {
      const socket = req.socket as Tracked;
      // The rest of a packet of pipelined requests, parsed after the connection was cut.
      if (socket.destroyed) return false;
      const n = (socket[IN_FLIGHT] ?? 0) + 1;
      if (n > limits.pipelined) return close(socket, "pipelined");
      if (socket.writableLength > limits.queuedBytes) return close(socket, "queued_bytes");
      socket[IN_FLIGHT] = n;
      // One listener function per connection, added with on() (a response closes once): no
      // closure and no once() wrapper per request on the hot path.
      res.on("close", (socket[DONE] ??= () => void (socket[IN_FLIGHT]! -= 1)));
      return true;
    },
  };
}
