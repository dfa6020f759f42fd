/**
 * A stop ends a backfill run that waits on the node: the follower's history (and `tokenpool
 * backfill` on SIGTERM) went on through a chunk's retry backoff, new connections and the chunk's
 * start read, up to CHUNK_ATTEMPTS times against a node that is down, and waited out a
 * connection attempt's limits (15 s, 60 s); the follower's stop() waited for all of it.
 */
import { createServer, type AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { expect, it } from "vitest";
import { WebSocketServer } from "ws";
import type { Database } from "../../db/index.js";
import { runLocal } from "../../indexer/backfill.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";

const RETRYING = "backfill: chunk failed; retrying";

/** A run of one chunk against `wsUrl`, stopped by `abort`; no store: a chunk that never connects never reaches it. */
function run(wsUrl: string, abort: AbortController, onLine: (line: string) => void = () => {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      onLine(String(chunk));
      done();
    },
  });
  const options = { oracle: oracleSettings(loadConfig()), nativeTokenId: 0, batchBlocks: 4, logger: createLogger("warn", "test", stream), signal: abort.signal };
  const running = runLocal({ db: {} as Database, wsUrl, chunks: [{ from: 1, to: 4 }], workers: 1, options, signal: abort.signal, onBlocks: () => {} });
  return { running, retries: () => lines.filter((l) => l.includes(RETRYING)).length };
}

it("a stop while a chunk waits for its next attempt ends the run without another attempt", async () => {
  // A port nothing listens on: every connection is refused at once.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const abort = new AbortController();
  // The stop comes as the first failure is logged, before its backoff starts: no race with it.
  const r = run(`ws://127.0.0.1:${port}`, abort, (line) => line.includes(RETRYING) && abort.abort());
  await expect(r.running).resolves.toEqual({ blocks: 0, swaps: 0 });
  expect(r.retries()).toBe(1);
});

it("a stop while a chunk connects to a node that never answers ends the run at once", async () => {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  // The API's first JSON-RPC request (the metadata load) is received and never answered.
  const asked = new Promise<void>((resolve) => wss.on("connection", (socket) => socket.once("message", () => resolve())));
  const { port } = wss.address() as AddressInfo;
  try {
    const abort = new AbortController();
    const r = run(`ws://127.0.0.1:${port}`, abort);
    await asked;
    abort.abort();
    // Without the stop reaching connect(), the run waited out its 60 s limit (past the test's).
    await expect(r.running).resolves.toEqual({ blocks: 0, swaps: 0 });
    expect(r.retries()).toBe(0);
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});
