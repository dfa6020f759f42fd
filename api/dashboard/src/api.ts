/**
 * The API from the page: HTTP (get, post, CSV download) and the one /ws connection (the typed
 * client's LiveClient). Requests are few (each counts against the per-IP limit): a page loads its answers
 * once and refreshes them when a block announces a change.
 *
 * A page's answers can arrive after the reader has left it: each route has a number, and an answer
 * asked for under an older one is dropped (Stale) so it cannot draw into, or subscribe for, the
 * page shown now.
 */
import { LiveClient, TokenPool, TokenPoolError, type Subscription, type Topic } from "../../../client/src/index.js";
import { $ } from "./dom.js";

export const session = {
  token: sessionStorage.getItem("tokenpool.token"),
  email: sessionStorage.getItem("tokenpool.email"),
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

/** An answer other than 2xx, as the typed client throws it: the API's code, message and status. */
export { TokenPoolError as ApiError } from "../../../client/src/index.js";
const bearer = (): Record<string, string> => (session.token ? { authorization: `Bearer ${session.token}` } : {});

// The answers' shapes are the API's (client/src/schema.ts); the pages read them as such.
export type Body = any;

/**
 * The typed client (client/) the pages ask through: requests checked against the API's document
 * at build time. One Retry-After wait of at most 5 s: a page does better to say "too many
 * requests" than to hang for a minute. Made anew when the session's token changes.
 */
const make = () => new TokenPool({ baseUrl: location.origin, token: session.token ?? undefined, retry: { maxRetries: 1, maxWaitMs: 5_000 } });
export let api = make();

/** An answer for the page shown now: one that arrives after the reader left it is Stale. */
export async function fresh<T>(answer: Promise<T>): Promise<Body> {
  const seq = routeSeq;
  try {
    const out = await answer;
    if (seq !== routeSeq) throw new Stale();
    return out;
  } catch (err) {
    if (seq !== routeSeq) throw new Stale();
    throw err;
  }
}
/** Saves a CSV the API streams (with the bearer token a plain link cannot carry) as `name`. */
export async function download(path: string, name: string): Promise<void> {
  // Same origin only: the bearer token goes with it (a link from an answer must not carry it elsewhere).
  if (!path.startsWith("/") || path.startsWith("//")) throw new Error(`refusing to download ${path}: not a path of this API`);
  const res = await fetch(path, { headers: { accept: "text/csv", ...bearer() } });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new TokenPoolError(res.status, body.error?.code ?? "INTERNAL_ERROR", body.error?.message ?? `HTTP ${res.status}`);
  }
  // A download cut short makes blob() reject; a size other than the one announced is refused too.
  const blob = await res.blob();
  const length = res.headers.get("content-length");
  if (length !== null && blob.size !== Number(length)) throw new Error(`the download of ${name} stopped at ${blob.size} of ${length} bytes: try again`);
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The token and pool lists, read once and again when a page asks for fresh ones.
const lists: { assets?: Body[]; pools?: Body[]; head?: number } = {};
export async function tokensList(reload = false): Promise<Body[]> {
  if (reload || !lists.assets) {
    const body = await fresh(api.assets({ sort: "marketCap", limit: 500 }));
    lists.assets = body.assets;
    lists.head = body.blockNumber;
  }
  return lists.assets!;
}
export const listedHead = (): number | undefined => lists.head;
export async function poolsList(reload = false): Promise<Body[]> {
  if (reload || !lists.pools) lists.pools = (await fresh(api.pools({ limit: 500 }))).pools;
  return lists.pools!;
}

// ---- /ws: the typed client's LiveClient (client/), which reconnects, sends the token again and
// resubscribes by itself; a page registers the topics it follows for its lifetime.
type OnValue = (value: Body, block?: number) => void;
let live: LiveClient | undefined;
const pageSubs = new Set<Subscription<unknown>>();
const blockListeners = new Set<(block: Body) => void>();

/**
 * Subscribes to `topic` for the page shown now. `onValue` gets each block's push; the subscribe
 * answer (the current value) too with `answer`, else not (the page has read it over HTTP already).
 */
export async function follow(topic: string, onValue: OnValue, opts: { answer?: boolean } = {}): Promise<void> {
  const seq = routeSeq;
  let sub: Subscription<unknown>;
  try {
    sub = await live!.subscribe(topic as Topic, (p) => void ((p.answer && !opts.answer) || onValue(p.result, p.block ?? undefined)));
  } catch {
    return; // refused (a topic over the budget, a token gone): the page keeps its HTTP answers
  }
  if (seq !== routeSeq) {
    await sub.unsubscribe();
    throw new Stale();
  }
  pageSubs.add(sub);
}
export async function unfollowAll(): Promise<void> {
  const subs = [...pageSubs];
  pageSubs.clear();
  await Promise.all(subs.map((s) => s.unsubscribe()));
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
  live = new LiveClient({
    url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`,
    token: () => session.token ?? undefined,
    backoff: { initialMs: 1_000, maxMs: 10_000 },
    onState: (state) => {
      status.textContent = state === "open" ? "live" : "reconnecting…";
      status.className = state === "open" ? "live" : "down";
    },
  });
  void live.subscribe("blocks", (p) => {
    if (p.answer || !p.result) return;
    $("#block").textContent = String(p.result.number);
    for (const f of blockListeners) f(p.result);
  });
}
/** A new connection with the session's new token (log in or out): the page redraws and follows its topics again. */
export function reconnect(): void {
  api = make();
  pageSubs.clear();
  live?.close();
  connect();
}
