/**
 * Stand-in replicas for test/deploy/nginx-edge.test.ts: small servers that answer 200, answer
 * 503, drop the connection, answer late, send a large body or hold the request unanswered, for
 * what the real API cannot be made to do on cue.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { freePort } from "../support/port.js";

export type Mode = "ok" | "unavailable" | "drop" | "closing" | "hold" | "api" | { lateMs: number } | { bytes: number };

/** The "api" stand-in's deadline for a whole request (the API's requestTimeout is 30 s), and its body limit (MAX_BODY_BYTES). */
export const STAND_REQUEST_TIMEOUT_MS = 2_000;
export const STAND_MAX_BODY_BYTES = 16 * 1024;

export interface Stand {
  port: number;
  /** Requests it received (each attempt nginx made on it). */
  seen: string[];
  /** Bytes of a large answer written so far, and whether its socket is full (write returned false, no drain since). */
  written: number;
  blocked: boolean;
  close(): Promise<void>;
}

/** A stand-in replica on `port` (a fresh one when not given). */
export async function stand(mode: Mode, port?: number): Promise<Stand> {
  const s: Stand = { port: port ?? (await freePort()), seen: [], written: 0, blocked: false, close: async () => {} };
  let server: Server | NetServer;
  if (mode === "drop") {
    // Reads the request, then closes the connection without a word: a replica that died on it.
    server = createNetServer((socket: Socket) => {
      let head = "";
      socket.on("data", (d) => {
        head += d.toString();
        if (head.includes("\r\n\r\n")) {
          s.seen.push(head.split("\r\n")[0]!);
          socket.destroy();
        }
      });
      socket.on("error", () => {});
    });
  } else if (mode === "api") {
    // As the API receives a body: the whole request within a deadline (Node's requestTimeout:
    // past it, 408 and the connection closed), a body over the limit refused from its
    // Content-Length with a 413 before it is read, any other read to its end and answered 200.
    server = createHttpServer({ requestTimeout: STAND_REQUEST_TIMEOUT_MS, headersTimeout: STAND_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 200 }, (req, res) => {
      s.seen.push(`${req.method} ${req.url}`);
      if (Number(req.headers["content-length"] ?? 0) > STAND_MAX_BODY_BYTES) {
        res.writeHead(413, { "content-type": "application/json", connection: "close" }).end('{"success":false,"error":{"code":"PAYLOAD_TOO_LARGE","message":"The request body exceeds 16384 bytes."}}');
        return;
      }
      req.resume();
      req.once("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    });
  } else {
    // "closing": a request that comes on a kept connection idle for 4.5 s or more meets the close
    // the app has begun (Node closes idle keep-alive connections after 5 s, and a request sent as
    // it does is lost): the connection is dropped.
    const idleSince = new WeakMap<object, number>();
    server = createHttpServer((req, res) => {
      s.seen.push(`${req.method} ${req.url}`);
      req.resume();
      const since = idleSince.get(req.socket);
      // "hold": never answers (a request kept in progress, as a /ws connection or a long download is).
      if (mode === "hold") return;
      if (mode === "closing" && since !== undefined && Date.now() - since >= 4_500) return void req.socket.destroy();
      res.once("finish", () => idleSince.set(req.socket, Date.now()));
      if (mode === "ok" || mode === "closing") res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      else if (mode === "unavailable") res.writeHead(503, { "content-type": "application/json", "retry-after": "5" }).end('{"success":false,"error":{"code":"SERVICE_UNAVAILABLE","message":"The app refused this read."}}');
      else if ("lateMs" in mode) setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"late":true}'), mode.lateMs);
      else {
        res.writeHead(200, { "content-type": "text/csv", "content-length": String(mode.bytes) });
        const chunk = Buffer.alloc(64 * 1024, "x");
        const pump = (): void => {
          while (s.written < mode.bytes) {
            s.written += chunk.length;
            if (!res.write(chunk)) {
              s.blocked = true;
              res.once("drain", () => ((s.blocked = false), pump()));
              return;
            }
          }
          res.end();
        };
        pump();
      }
    });
  }
  if (mode === "closing") (server as Server).keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(s.port, "127.0.0.1", resolve));
  s.close = () => new Promise((resolve) => { (server as Server).closeAllConnections?.(); server.close(() => resolve()); });
  return s;
}
