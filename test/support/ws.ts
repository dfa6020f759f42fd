/** A JSON-RPC WebSocket client for the /ws suites. */
import WebSocket from "ws";
import { until } from "./wait.js";

export interface Client {
  ws: WebSocket;
  /** Every message received, parsed. */
  messages: any[];
  call(method: string, params?: unknown): Promise<any>;
  close(): void;
}

let nextId = 1;
export async function connect(url: string, headers: Record<string, string> = {}, options: WebSocket.ClientOptions = {}): Promise<Client> {
  const ws = new WebSocket(url, { headers, ...options });
  const messages: any[] = [];
  ws.on("message", (data) => messages.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return {
    ws,
    messages,
    async call(method, params) {
      const id = nextId++;
      ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      await until(`an answer to ${method}`, () => messages.some((m) => m.id === id), 10_000);
      return messages.find((m) => m.id === id);
    },
    close: () => ws.close(),
  };
}

/** An upgrade the server refuses: its HTTP status and error body. */
export function refused(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    ws.on("open", () => reject(new Error("the upgrade was accepted")));
    ws.on("error", () => {});
  });
}

export const notificationsFor = (c: Client, sub: string) => c.messages.filter((m) => m.method === "subscription" && m.params.subscription === sub);
