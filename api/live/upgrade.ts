/**
 * The HTTP edge of `/ws`: what an upgrade request is answered with before it becomes a
 * WebSocket — refusals with the API's error body, handshakes `ws` would refuse, and upgrades
 * offered on other paths answered as plain HTTP.
 */
import { ServerResponse, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { ERROR_CODES, type ErrorCode } from "../../shared/errors.js";

/** Refuses an upgrade with an HTTP answer carrying the API's error body. */
export function refuse(socket: Duplex, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed || !socket.writable) return void socket.destroy();
  const { status } = ERROR_CODES[code];
  const body = JSON.stringify({ success: false, error: { code, message } });
  const head = [`HTTP/1.1 ${status} ${code}`, "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  // A peer that never reads the answer must not hold the socket open.
  setTimeout(() => socket.destroy(), 5_000).unref();
}

/**
 * What `ws` would refuse in a handshake, said first so the answer carries the error body (ws
 * answers text/plain): the method, the Upgrade value, the key and the version (RFC 6455 §4.2.1).
 */
export function handshakeProblem(req: IncomingMessage): string | undefined {
  if (req.method !== "GET") return "A WebSocket handshake is a GET request.";
  if ((req.headers.upgrade ?? "").toLowerCase() !== "websocket") return 'The Upgrade header must be "websocket".';
  const key = req.headers["sec-websocket-key"];
  if (typeof key !== "string" || !/^[+/0-9A-Za-z]{22}==$/.test(key)) return "Missing or invalid Sec-WebSocket-Key header.";
  const version = req.headers["sec-websocket-version"];
  if (version !== "13" && version !== "8") return "Sec-WebSocket-Version must be 13.";
  return undefined;
}

/**
 * Node hands every request that carries an Upgrade header to the 'upgrade' listeners, with the
 * HTTP parser already detached from its socket. A GET or HEAD (no body to read) is passed back to
 * the server's 'request' handler on a response bound to that socket, which is closed after the
 * answer (it has no parser for a next request). ServerResponse#assignSocket is what Node's own
 * server uses to bind a response; it is not in the documented API, so the upgrade test checks it.
 */
export function answerAsHttp(server: Server, req: IncomingMessage, socket: Duplex): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.on("finish", () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  // The answer is bounded by the routes' own limits; a peer that never reads it is cut.
  setTimeout(() => socket.destroy(), 30_000).unref();
  server.emit("request", req, res);
}
