/**
 * The API's Node HTTP edge, below the app: what Node's parser or @hono/node-server refuses
 * answered with the API's error body, and a shutdown that always completes (api/server.ts wires
 * both into the listening server).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { getRequestListener, RequestError } from "@hono/node-server";
import type { Logger } from "../shared/logger.js";
import { errorBody } from "./errors.js";

/**
 * Requests Node's parser refuses before any route sees them (a bad Host or request line, a URL or
 * headers over 16 KiB, a bad Content-Length) get the API's error body instead of Node's bare
 * answer: 431 for oversized headers, 400 otherwise. A socket already gone (reset, timed out
 * mid-request) is only destroyed.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable) return void socket.destroy();
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({
      success: false,
      error: { code: "VALIDATION_ERROR", message: tooLarge ? "The request line and headers exceed 16 KiB." : "The request could not be parsed as HTTP/1.1." },
    });
    const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

const MALFORMED_TARGET = "The request target or the Host header is malformed.";

function jsonError(status: number, message: string, code: "VALIDATION_ERROR" | "INTERNAL_ERROR" = "VALIDATION_ERROR"): Response {
  return new Response(JSON.stringify(errorBody(code, message)), { status, headers: { "content-type": "application/json" } });
}

export function writeJsonError(res: ServerResponse, status: number, message: string, close: boolean): void {
  const body = JSON.stringify(errorBody("VALIDATION_ERROR", message));
  const headers: Record<string, string | number> = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) };
  if (close) headers.Connection = "close";
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * The request listener: @hono/node-server's, with an error handler so that what it refuses
 * before the app (a Host or absolute-form target WHATWG URL rejects, a backslash in the path, a
 * target that is not a path: `OPTIONS *`, `ftp://…`) answers with the error body instead of an
 * empty 400. The server is created with `requireHostHeader: false` (Node's own answer to an
 * HTTP/1.1 request without Host is an empty 400), so that check is made here, on the same terms.
 * While `state.closing`, answers close their connection. Well-formed requests pay two property
 * checks and a boolean.
 */
export function requestListener(fetch: Parameters<typeof getRequestListener>[0], hostname: string, logger: Logger, state: { closing: boolean }) {
  const listener = getRequestListener(fetch, {
    hostname,
    errorHandler: (err) => {
      if (err instanceof RequestError) return jsonError(400, MALFORMED_TARGET);
      // The app answers its own failures (onError); this is a failure outside it.
      logger.error({ err }, "api: request failed outside the app");
      return jsonError(500, "An unexpected error occurred.", "INTERNAL_ERROR");
    },
  });
  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    if (incoming.headers.host === undefined && incoming.httpVersionMajor === 1 && incoming.httpVersionMinor === 1) {
      return writeJsonError(outgoing, 400, "An HTTP/1.1 request needs a Host header.", true);
    }
    if (state.closing) outgoing.shouldKeepAlive = false;
    void listener(incoming, outgoing);
  };
}

/**
 * Stops the HTTP server so that shutdown always completes: no new connections; idle keep-alive
 * connections closed at once (and each one that goes idle after its answer); requests in flight
 * given `graceMs` to finish; then every connection left — a body that never finishes (Node stops
 * timing requests out once the server is closing), a /ws peer that never answers the close
 * frame — is cut, in one log line with their count.
 */
export function closeHttp(server: Server, sockets: Set<Duplex>, graceMs: number, logger: Logger): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      const open = [...sockets].filter((s) => !s.destroyed);
      logger.warn({ connections: open.length, graceMs }, `api: shutdown cut ${open.length} connection${open.length === 1 ? "" : "s"} still open after the ${graceMs} ms grace period`);
      server.closeAllConnections();
      // Upgraded sockets (/ws, an Upgrade answered as HTTP) are not in Node's list: cut them too.
      for (const socket of open) socket.destroy();
    }, graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
