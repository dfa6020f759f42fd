/**
 * The chain connection must fail, not hang, when the node drops the socket while the API loads
 * its metadata (ApiPromise.create alone never settles then; the fault campaign found a follower
 * stuck there for good after a connection cut).
 */
import { expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { connect } from "../../indexer/chain/connect.js";

it("a node that drops the socket during API initialisation is a rejected connect within seconds, not a hang", async () => {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  // Accepts the WebSocket, then closes it at the first JSON-RPC request (the metadata load).
  wss.on("connection", (socket) => socket.once("message", () => socket.terminate()));
  const { port } = wss.address() as { port: number };
  try {
    const started = Date.now();
    const err = await connect(`ws://127.0.0.1:${port}`).then(() => undefined, (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/disconnected while the API initialised|WebSocket is not connected|Unable to initialize/);
    expect(Date.now() - started).toBeLessThan(10_000);
  } finally {
    await new Promise((r) => wss.close(r));
  }
}, 30_000);
