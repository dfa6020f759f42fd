/**
 * A JSON-RPC-aware WebSocket relay in front of a node: it counts requests by method, can add a
 * fixed latency to every message in each direction (a node far away), and can answer chosen
 * requests itself (a pruned node's "State already discarded" for chosen block hashes).
 */
import { WebSocket, WebSocketServer, type RawData } from "ws";

export interface RpcRequest {
  id: number | string;
  method: string;
  params: unknown[];
}

export interface RpcRelay {
  url: string;
  /** Requests relayed or answered, by method. */
  calls: Map<string, number>;
  /** Block hashes whose state the relay pretends is pruned (state_* calls at them fail). */
  discarded: Set<string>;
  /** Notification methods not relayed (chain_finalizedHead: a node that confirmed a subscription and then says nothing). */
  silenced: Set<string>;
  /** Request methods whose answer is relayed, then the connection cut before anything after it. */
  cutAfterAnswer: Set<string>;
  /** Sum of calls (optionally of some methods). */
  total(methods?: string[]): number;
  close(): Promise<void>;
}

/** The answer of a Substrate node whose state at `hash` is pruned (sc-rpc, state errors). */
export function discardedAnswer(id: RpcRequest["id"], hash: string) {
  return { jsonrpc: "2.0", id, error: { code: 4003, message: `Client error: UnknownBlock: State already discarded for ${hash}` } };
}

export async function startRpcRelay(upstreamUrl: string, options: { latencyMs?: number } = {}): Promise<RpcRelay> {
  const latency = options.latencyMs ?? 0;
  const calls = new Map<string, number>();
  const discarded = new Set<string>();
  const silenced = new Set<string>();
  const cutAfterAnswer = new Set<string>();
  const clients = new Set<WebSocket>();
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1", maxPayload: 256 * 1024 * 1024 });
  const later = (fn: () => void) => (latency > 0 ? setTimeout(fn, latency) : fn());
  server.on("connection", (client) => {
    clients.add(client);
    const upstream = new WebSocket(upstreamUrl, { maxPayload: 256 * 1024 * 1024 });
    const pending: RawData[] = [];
    upstream.on("open", () => {
      for (const m of pending.splice(0)) upstream.send(m);
    });
    const close = () => {
      client.terminate();
      upstream.terminate();
      clients.delete(client);
    };
    client.on("close", close);
    upstream.on("close", close);
    client.on("error", close);
    upstream.on("error", close);
    // Requests whose answer cuts the connection, by id.
    const cutting = new Set<RpcRequest["id"]>();
    let ending = false;
    upstream.on("message", (data, isBinary) => {
      if (ending) return;
      let cut = false;
      if (silenced.size || cutting.size) {
        const msg = JSON.parse(data.toString()) as { id?: RpcRequest["id"]; method?: string };
        if (msg.method && silenced.has(msg.method)) return;
        cut = msg.id !== undefined && cutting.delete(msg.id);
        ending = cut;
      }
      later(() => {
        if (client.readyState !== WebSocket.OPEN) return;
        // Cut once the answer is written out, so that the client reads it before the close.
        client.send(data, { binary: isBinary }, () => cut && close());
      });
    });
    client.on("message", (data) => {
      let req: RpcRequest | undefined;
      try {
        req = JSON.parse(data.toString()) as RpcRequest;
      } catch {
        req = undefined;
      }
      if (req?.method) calls.set(req.method, (calls.get(req.method) ?? 0) + 1);
      if (req?.method && cutAfterAnswer.has(req.method)) cutting.add(req.id);
      const hash = req?.method?.startsWith("state_") ? req.params.find((p): p is string => typeof p === "string" && discarded.has(p)) : undefined;
      later(() => {
        if (hash && req) return void (client.readyState === WebSocket.OPEN && client.send(JSON.stringify(discardedAnswer(req.id, hash))));
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data);
        else pending.push(data);
      });
    });
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    calls,
    discarded,
    silenced,
    cutAfterAnswer,
    total: (methods) => [...calls].filter(([m]) => !methods || methods.includes(m)).reduce((n, [, c]) => n + c, 0),
    close: () =>
      new Promise((resolve) => {
        for (const c of clients) c.terminate();
        server.close(() => resolve());
      }),
  };
}
