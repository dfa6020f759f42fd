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
 * - **Write deadline**: a connection on which nothing moves — no byte read, none taken by the
 *   peer — for `writeTimeoutMs` is closed (time the server spends computing an answer, with
 *   nothing queued for the peer, does not count); counted as a cut when it had requests or answers
 *   pending (idle keep-alive connections close after 5 s as before, by Node's keepAliveTimeout).
 *   Checked by a sweep over the open connections every quarter of the deadline (so a connection
 *   is closed between 1 and 1.25 deadlines after its last byte), as Node checks its own
 *   headersTimeout and requestTimeout — not by Node's socket timeout (`server.timeout`), which
 *   re-arms a timer on every read and write: ≈ 10 % of a small cached answer's throughput.
 *   A CSV download in progress is left to its own rule (pacedByItself): progress seen at the
 *   sender moves only when the kernel lets it write again, which TCP allows once a third of the
 *   send buffer has drained — ≈ 1.3 MB with Linux's 4 MB autotuned buffers, so 41 s with no
 *   visible progress for a client reading a steady 32 KB/s (issue 38, finding 5; measured in
 *   docs/performance.md). A deadline on that measure cannot tell such a reader from a stalled one.
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

/** Sockets whose response is a download paced by its own rule (api/services/csv-pace.ts): the write deadline leaves them alone meanwhile. */
const paced = new WeakSet<Socket>();

/**
 * Leaves the connection of `res` to the download's own pace rule until the returned function is
 * called (when the download ends). A response without a socket (tests' app.request()) is a no-op.
 */
export function pacedByItself(res: { socket?: Socket | null } | undefined): () => void {
  const socket = res?.socket;
  if (!socket) return () => {};
  paced.add(socket);
  return () => void paced.delete(socket);
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  pipelined: 16,
  queuedBytes: 4 * 1024 * 1024,
  writeTimeoutMs: 30_000,
  perClient: 256,
};

/**
 * What the budget knows of one connection, kept beside the socket (never as properties on it:
 * adding fields to Node's sockets gives them new hidden classes, and every access to a socket
 * in Node's HTTP code turned megamorphic — measured ≈ 3 µs of a 17 µs cached answer).
 */
class Connection {
  /** Requests read and not yet answered. */
  inFlight = 0;
  /** Bytes read and flushed when the sweep last saw them change, and when (performance.now()). */
  moved = -1;
  since = 0;
  /** One listener per connection (a response closes once): no closure per request. */
  readonly done = (): void => void (this.inFlight -= 1);
}

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

  // Every HTTP connection until it closes or is upgraded (/ws has its own budget and heartbeat).
  const connections = new Map<Socket, Connection>();
  const track = (socket: Socket): Connection => {
    const conn = new Connection();
    connections.set(socket, conn);
    socket.once("close", () => connections.delete(socket));
    return conn;
  };
  server.on("connection", track);
  server.on("upgrade", (_req: IncomingMessage, socket: Socket) => void connections.delete(socket));
  const sweep = (): void => {
    const now = performance.now();
    for (const [socket, conn] of connections) {
      const moved = socket.bytesRead + socket.bytesWritten - socket.writableLength;
      // A request read whole and its answer still being computed (nothing queued to write) is
      // the server's wait, not the peer's: a slow login hash or query is not a stalled client.
      if (moved !== conn.moved || (conn.inFlight > 0 && socket.writableLength === 0) || paced.has(socket)) {
        conn.moved = moved;
        conn.since = now;
      } else if (now - conn.since >= limits.writeTimeoutMs) {
        connections.delete(socket);
        // Only one with work pending is a client that stopped reading (or sending the rest of a request).
        if (conn.inFlight > 0 || socket.writableLength > 0) close(socket, "write_timeout");
        else socket.destroy();
      }
    }
  };
  const sweeper = setInterval(sweep, Math.max(25, Math.floor(limits.writeTimeoutMs / 4))).unref();
  server.once("close", () => clearInterval(sweeper));

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
      const socket = req.socket;
      // The rest of a packet of pipelined requests, parsed after the connection was cut.
      if (socket.destroyed) return false;
      const conn = connections.get(socket) ?? track(socket);
      if (conn.inFlight + 1 > limits.pipelined) return close(socket, "pipelined");
      if (socket.writableLength > limits.queuedBytes) return close(socket, "queued_bytes");
      conn.inFlight += 1;
      res.on("close", conn.done);
      return true;
    },
  };
}
