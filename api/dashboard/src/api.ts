/**
 * The API from the page: HTTP (get, post, CSV download) and the one /ws connection (JSON-RPC
 * subscribe). Requests are few (each counts against the per-IP limit): a page loads its answers
 * once and refreshes them when a block announces a change.
 *
 * A page's answers can arrive after the reader has left it: each route has a number, and an answer
 * asked for under an older one is dropped (Stale) so it cannot draw into, or subscribe for, the
 * page shown now.
 */
import { $ } from "./dom.js";

export const session = {
  token: sessionStorage.getItem("tokenpool.token"),
  email: sessionStorage.getItem("tokenpool.email"),
  /** Set on log in and out: the socket reconnects at once (its authentication changed). */
  relogin: false,
};

/** Rows of a list a page reads at a time (transfers, trades). */
export const ACTIVITY_ROWS = 25;

let routeSeq = 0;
/** A new page is shown: answers asked for before now are Stale. */
export const nextRoute = (): number => ++routeSeq;
export const currentRoute = (): number => routeSeq;
export class Stale extends Error {}
window.addEventListener("unhandledrejection", (e) => {
  if (e.reason instanceof Stale) e.preventDefault();
});

export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly code?: string) {
    super(message);
  }
}
const bearer = (): Record<string, string> => (session.token ? { authorization: `Bearer ${session.token}` } : {});

async function answer<T>(res: Response, seq: number): Promise<T> {
  const body = await res.json().catch(() => ({}));
  if (seq !== routeSeq) throw new Stale();
  if (!res.ok) throw new ApiError(body.error?.message ?? `HTTP ${res.status}`, res.status, body.error?.code);
  return body as T;
}
// The answers' shapes are the API's (docs/api.md, /openapi.json); the pages read them as such.
export type Body = any;

export async function get<T = Body>(path: string, auth = false): Promise<T> {
  const seq = routeSeq;
  return answer<T>(await fetch(path, { headers: auth ? bearer() : {} }), seq);
}
export async function post<T = Body>(path: string, body: unknown): Promise<T> {
  const seq = routeSeq;
  return answer<T>(await fetch(path, { method: "POST", headers: { "content-type": "application/json", ...bearer() }, body: JSON.stringify(body) }), seq);
}
/** Saves a CSV the API streams (with the bearer token a plain link cannot carry) as `name`. */
export async function download(path: string, name: string): Promise<void> {
  const res = await fetch(path, { headers: { accept: "text/csv", ...bearer() } });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(body.error?.message ?? `HTTP ${res.status}`, res.status);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The token and pool lists, read once and again when a page asks for fresh ones.
const lists: { assets?: Body[]; pools?: Body[]; head?: number } = {};
export async function tokensList(fresh = false): Promise<Body[]> {
  if (fresh || !lists.assets) {
    const body = await get("/assets?sort=marketCap&limit=500");
    lists.assets = body.assets;
    lists.head = body.blockNumber;
  }
  return lists.assets!;
}
export const listedHead = (): number | undefined => lists.head;
export async function poolsList(fresh = false): Promise<Body[]> {
  if (fresh || !lists.pools) lists.pools = (await get("/pools?limit=500")).pools;
  return lists.pools!;
}

// ---- /ws: one connection; a page registers the topics it follows for its lifetime.
type OnValue = (value: Body, block?: number) => void;
interface Reply {
  result?: Body;
  error?: { message: string };
}
let ws: WebSocket | undefined;
let nextId = 1;
const handlers = new Map<string, { topic: string; onValue: OnValue }>();
const pending = new Map<number, (m: Reply) => void>();
const pageTopics = new Map<string, OnValue>();
const blockListeners = new Set<(block: Body) => void>();

function call(method: string, params: unknown): Promise<Reply> {
  if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve({ error: { message: "not connected" } });
  const id = nextId++;
  ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  return new Promise((resolve) => pending.set(id, resolve));
}
/** Subscribes to `topic` for the page shown now (and again after a reconnect). */
export async function follow(topic: string, onValue: OnValue): Promise<void> {
  const seq = routeSeq;
  pageTopics.set(topic, onValue);
  const reply = await call("subscribe", { topic });
  if (seq !== routeSeq && topic !== "blocks") {
    if (reply.result) await call("unsubscribe", { subscription: reply.result.subscription });
    throw new Stale();
  }
  if (reply.result) handlers.set(reply.result.subscription, { topic, onValue });
}
export async function unfollowAll(): Promise<void> {
  pageTopics.clear();
  for (const [sub, h] of [...handlers]) {
    if (h.topic === "blocks") continue;
    handlers.delete(sub);
    await call("unsubscribe", { subscription: sub });
  }
}
/** Calls `f` with each committed block's announcement until the returned function is called. */
export function onBlock(f: (block: Body) => void): () => void {
  blockListeners.add(f);
  return () => void blockListeners.delete(f);
}
/** Calls `f` after blocks that changed something, at most every `ms` (each call costs requests). */
export function onChange(f: () => void, ms = 4000): () => void {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    last = Date.now();
    timer = undefined;
    f();
  };
  const stop = onBlock((b) => {
    const c = b.counts ?? {};
    if (!(c.swaps || c.prices || c.reserves || c.holders || c.tokens || c.liquidityEvents) || timer) return;
    timer = setTimeout(run, Math.max(0, ms - (Date.now() - last)));
  });
  return () => {
    stop();
    clearTimeout(timer);
  };
}

export function connect(): void {
  const status = $("#status");
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = async () => {
    status.textContent = "live";
    status.className = "live";
    handlers.clear();
    if (session.token) await call("auth", { token: session.token });
    await follow("blocks", (b) => {
      $("#block").textContent = String(b.number);
      for (const f of blockListeners) f(b);
    });
    try {
      for (const [topic, f] of [...pageTopics]) if (topic !== "blocks") await follow(topic, f);
    } catch (e) {
      if (!(e instanceof Stale)) throw e;
    }
  };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)!(m);
      pending.delete(m.id);
      return;
    }
    if (m.method === "subscription") handlers.get(m.params.subscription)?.onValue(m.params.result, m.params.block);
  };
  ws.onclose = () => {
    status.textContent = "reconnecting…";
    status.className = "down";
    setTimeout(connect, session.relogin ? 0 : 2000);
    session.relogin = false;
  };
}
/** Closes the socket so that it reconnects with the session's new token. */
export function reconnect(): void {
  session.relogin = true;
  ws?.close();
}
