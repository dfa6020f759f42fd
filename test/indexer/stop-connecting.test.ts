/**
 * stop() while the follower connects returns at once: connect() waited for its own time limits
 * (15 s for the socket, 60 s for the API's metadata) whatever the stop, so a SIGTERM to an
 * indexer whose node accepts the socket and then says nothing took a minute.
 */
import { afterEach, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { Follower } from "../../indexer/follower.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { describeDb, oneStore } from "../support/db.js";
import { captureLog } from "../support/log.js";

const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });

const open: { wss?: WebSocketServer; follower?: Follower }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) {
    await o.follower?.stop();
    if (o.wss) {
      for (const c of o.wss.clients) c.terminate();
      await new Promise((resolve) => o.wss!.close(resolve));
    }
  }
});

describeDb("stop() while the follower connects", (ctx) => {
  it("a node that accepts the socket and never answers the metadata request: stop() returns at once", async () => {
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    open.push({ wss });
    await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
    // The API's first JSON-RPC request (the metadata load) is received and never answered.
    const asked = new Promise<void>((resolve) => wss.on("connection", (socket) => socket.once("message", () => resolve())));
    const { port } = wss.address() as { port: number };
    const log = captureLog();
    const follower = new Follower(ctx.db, { oracle: oracleSettings(config), batchBlocks: 4, logger: log.logger, nativeTokenId: 0, wsUrl: `ws://127.0.0.1:${port}`, historyHours: 0, retryMs: 50, heartbeatMs: 60_000 });
    open.push({ follower });
    follower.start();
    await asked;
    const started = Date.now();
    await follower.stop();
    // Without the stop reaching connect(), stop() waited out its 60 s limit (past the test's time limit).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(log.text()).not.toContain("resuming from the checkpoint");
  });
}, oneStore("pglite"));
