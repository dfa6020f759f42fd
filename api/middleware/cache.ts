/**
 * Per-block response cache and conditional GETs. The data behind every read changes only when
 * the indexer commits a block, so a read answer is kept, keyed by path and query, until the next
 * block announcement clears the cache (api/server.ts wires that). Every read answer carries an
 * ETag (a hash of its body); a matching If-None-Match gets 304 without a body.
 *
 * The cache sits after bearer auth: /assets/* answers are the same for every user, but only a
 * valid token reaches them. A request that started before a clear never stores its (possibly
 * older) answer: entries carry the generation they were computed in.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { canonicalQuery } from "./strict-input.js";
import { LRUCache } from "lru-cache";
import { canonicalPath, type SymbolTable } from "../canonical.js";
import { rawHeader, type AppEnv } from "../env.js";

/** A kept answer, pre-built for api/fast-path.ts: its bytes and the head of its 200 answer. */
export interface Entry {
  body: string;
  etag: string;
  bytes: Buffer;
  /** `Content-Type`, `Content-Length` and `ETag`, as a flat header list for writeHead. */
  head: (string | number)[];
  /** The pattern of the route that computed it (a metric label); unset for /ws computations. */
  route?: string;
}

/**
 * Headers of a route's answer that are part of the answer, kept with it and sent on every hit
 * (by the app and the fast path alike): a deprecation notice (RFC 9745) and where it points. The
 * cache key holds the whole query, so a request using deprecated parameters is its own entry.
 */
const KEPT_HEADERS = ["Deprecation", "Link"] as const;

/** The kept headers `res` carries, as a flat list. */
function keptOf(res: Response): (string | number)[] {
  const out: string[] = [];
  for (const name of KEPT_HEADERS) {
    const v = res.headers.get(name);
    if (v !== null) out.push(name, v);
  }
  return out;
}

export function entryOf(body: string, route?: string, kept: (string | number)[] = []): Entry {
  const bytes = Buffer.from(body);
  const etag = etagOf(body);
  return { body, etag, bytes, head: ["Content-Type", "application/json", "Content-Length", bytes.length, "ETag", etag, ...kept], route };
}

/** What an answer that is not kept needs (RESPONSE_CACHE_MB=0): no copy of its bytes. */
type Answer = Pick<Entry, "body" | "etag" | "head">;

function answerOf(body: string, kept: (string | number)[]): Answer {
  const etag = etagOf(body);
  return { body, etag, head: ["Content-Type", "application/json", "Content-Length", Buffer.byteLength(body), "ETag", etag, ...kept] };
}

/**
 * The one header block of a kept answer: the entry's pre-built head, then the rate limit's
 * fields, in this order and this case, whoever writes it — the fast path (a hit), or the app (a
 * hit it answers, or the miss that computed the entry). Were they to differ (the app used to
 * answer in lower case, in another order), any client could tell a hit from a miss, and so learn
 * which answers other clients asked for this block: which addresses are being watched.
 * (Node writes a flat list and a plain object's fields the same way.)
 */
export function answerHead(entry: Answer, status: 200 | 304, limit: readonly string[] | undefined): (string | number)[] {
  const head = status === 304 ? ["ETag", entry.etag] : entry.head;
  return limit === undefined || limit.length === 0 ? head : [...head, ...limit];
}

/**
 * Whether the client asked for CSV: an Accept media range `text/csv` (any case) with a non-zero
 * q, listed before any acceptable `application/json`. Bounded: at most the first 32 ranges.
 */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept || !accept.toLowerCase().includes("text/csv")) return false;
  const ranges = accept.toLowerCase().split(",", 32);
  for (const range of ranges) {
    const [type, ...params] = range.split(";");
    const name = type!.trim();
    if (name !== "text/csv" && name !== "application/json") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue; // q=0: not acceptable
    return name === "text/csv";
  }
  return false;
}

/** Read routes whose answers depend only on indexed data (not /health, /auth, docs). */
export const CACHEABLE = /^\/(oracle|assets|accounts|pool|pools|dexscreener)(\/|$)/;

export class ResponseCache {
  private generation = 0;
  /** Answers being computed, by key: concurrent misses wait for one computation (single flight). */
  readonly pending = new Map<string, Promise<Entry | undefined>>();
  private readonly lru: LRUCache<string, Entry>;
  hits = 0;
  misses = 0;
  /** Hits answered before the router (api/fast-path.ts); also counted in `hits`. */
  fastHits = 0;
  /** Answers computed ahead of a block switch (see renew()). */
  prewarmed = 0;
  /** Requests per key in this generation (for hotKeys); bounded by the keys the LRU holds. */
  private readonly demand = new Map<string, number>();
  /** The store's symbols as of this generation's block (see api/canonical.ts); unset = pairs keyed as spelled. */
  private symbols: SymbolTable | undefined;

  /** `maxBytes` bounds the bodies kept (deep holder pages and many pairs can add up). */
  constructor(maxBytes = 64 * 1024 * 1024) {
    this.lru = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (e) => e.body.length + e.bytes.length + 128 });
  }

  /** A block was committed: every answer may have changed. */
  clear(): void {
    this.generation += 1;
    this.lru.clear();
    this.pending.clear();
    this.demand.clear();
  }

  get current(): number {
    return this.generation;
  }

  /** The spelling of `path` that keys its answer (api/canonical.ts). */
  canonical(path: string): string {
    return canonicalPath(path, this.symbols);
  }

  /** The symbol table of the block being served (at start; block switches pass theirs to renew()). */
  useSymbols(symbols: SymbolTable | undefined): void {
    this.symbols = symbols;
  }

  /** The entry under `key`, counted as a hit or miss, and (unless `demand` is false) as demand for prewarming. */
  get(key: string, demand = true): Entry | undefined {
    const e = this.lru.get(key);
    if (e) {
      this.hits += 1;
      if (demand) this.demand.set(key, (this.demand.get(key) ?? 0) + 1);
    } else this.misses += 1;
    return e;
  }

  /**
   * The entry under `key` for the fast path, counting nothing: the request may still be left to
   * the app (which counts its own lookup), and only answers served count (served()).
   */
  peek(key: string): Entry | undefined {
    return this.lru.get(key);
  }

  /** The fast path served `key`'s entry: a hit, and demand for prewarming. */
  served(key: string): void {
    this.hits += 1;
    this.demand.set(key, (this.demand.get(key) ?? 0) + 1);
  }

  /** The `n` keys most requested in this generation that are still kept. */
  hotKeys(n: number): string[] {
    // One pass keeping the n best (n is small): the tally may hold up to 100k keys, and this runs
    // on the event loop at every block.
    const top: [string, number][] = [];
    for (const [key, count] of this.demand) {
      if (top.length === n && count <= top[n - 1]![1]) continue;
      if (!this.lru.has(key)) continue;
      let i = Math.min(top.length, n - 1);
      while (i > 0 && top[i - 1]![1] < count) i--;
      top.splice(i, 0, [key, count]);
      if (top.length > n) top.pop();
    }
    return top.map(([key]) => key);
  }

  /**
   * The block switch with answers computed ahead: `staged` (the hot keys' answers, computed
   * after the block was committed, while the previous block's answers were still served)
   * replace everything kept, in one step. Same as clear() otherwise.
   */
  renew(staged: Map<string, Entry>, symbols?: SymbolTable): void {
    this.clear();
    this.symbols = symbols;
    for (const [key, entry] of staged) this.lru.set(key, entry);
    this.prewarmed += staged.size;
  }

  set(key: string, entry: Entry, generation: number, demand = true): void {
    if (generation !== this.generation) return;
    this.lru.set(key, entry);
    if (!demand) return;
    // Keys minted faster than blocks clear them (distinct holder pages…) cannot grow the tally without bound.
    if (this.demand.size >= 100_000) this.demand.clear();
    if (this.lru.has(key)) this.demand.set(key, (this.demand.get(key) ?? 0) + 1);
  }

  /**
   * The JSON answer kept under `key` (the REST path and query it equals), or `compute`'s value,
   * computed once for concurrent callers and kept until the next block. A failure is not kept.
   * /ws subscribes and pushes go through here, so they cost the database what a cached REST
   * read does. They are not demand for prewarming (`demand` false): the hub computes every topic
   * at each block anyway, and answers computed ahead for it would only hold the block switch (and
   * every push) back — by up to the prewarm budget under a flood of topics.
   */
  async through(key: string, compute: () => Promise<unknown>, demand = true): Promise<string> {
    const hit = this.get(key, demand) ?? (await this.pending.get(key));
    if (hit) return hit.body;
    const generation = this.generation;
    let settle: (e: Entry | undefined) => void = () => {};
    const flight = new Promise<Entry | undefined>((resolve) => (settle = resolve));
    this.pending.set(key, flight);
    let entry: Entry | undefined;
    try {
      const body = JSON.stringify(await compute());
      entry = entryOf(body);
      this.set(key, entry, generation, demand);
      return body;
    } finally {
      settle(entry);
      if (this.pending.get(key) === flight) this.pending.delete(key);
    }
  }
}

export function etagOf(body: string | Uint8Array): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

export function ifNoneMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((t) => {
    const v = t.trim();
    return v === "*" || v === etag || v === `W/${etag}`;
  });
}

/**
 * The env of an in-process request that computes an answer ahead of a block switch (api/server.ts
 * prewarm): requests from sockets always carry @hono/node-server's env, so no client can be one.
 * Such a request skips the rate limit, auth and the request log, never reads the cache, and
 * leaves its answer in `staged` instead of the cache.
 */
export interface PrewarmEnv {
  prewarm: Map<string, Entry>;
}

export function prewarmOf(c: { env: unknown }): Map<string, Entry> | undefined {
  const env = c.env as Partial<PrewarmEnv> | undefined;
  return env?.prewarm instanceof Map ? env.prewarm : undefined;
}

/**
 * A request's cache key: the path Hono routes on and the canonical query, so spellings of one
 * request (`/p%6Fol/stats`, `?&`, reordered parameters) share one entry instead of minting keys.
 */
function keyOf(c: { req: { url: string; path: string } }, cache: ResponseCache | undefined): string {
  const url = c.req.url;
  const q = url.indexOf("?");
  const query = q < 0 ? "" : canonicalQuery(url.slice(q + 1));
  const path = cache ? cache.canonical(c.req.path) : c.req.path;
  return query === "" ? path : `${path}?${query}`;
}

/**
 * Answers with `entry` in the one header block (answerHead): the response replaces whatever the
 * route built, without Hono merging that one's headers into it (assigning c.res copies the old
 * response's headers into the new one, as a fetch Headers: lower case, sorted). The rate limit
 * adds nothing after this (its fields are in the block).
 */
function answer(c: Context<AppEnv>, entry: Answer, status: 200 | 304): void {
  const head = answerHead(entry, status, c.get("rateLimitHeaders"));
  const headers: Record<string, string> = {};
  for (let i = 0; i < head.length; i += 2) headers[head[i] as string] = String(head[i + 1]);
  c.set("answered", true);
  // A cross-origin request keeps what the CORS middleware set (merged, as Hono does; hit or miss
  // alike: the fast path never takes one).
  if (rawHeader(c, "origin") === undefined) c.res = undefined;
  c.res = new Response(status === 304 ? null : entry.body, { status, headers });
}

export function responseCache(cache: ResponseCache | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A CSV (Accept: text/csv) is another answer on the same path: never cached, never served from a JSON entry.
    if (c.req.method !== "GET" || !CACHEABLE.test(c.req.path) || acceptsCsv(rawHeader(c, "accept"))) return next();
    const staged = prewarmOf(c);
    if (staged) {
      const json = await jsonOf(c, next);
      if (json !== undefined) staged.set(keyOf(c, cache), entryOf(json, routePath(c, -1) || undefined, keptOf(c.res)));
      return;
    }
    const key = keyOf(c, cache);
    // A hit, or the same answer being computed for another request right now.
    // (No await before the pending entry below is set: concurrent misses must find it.)
    let hit = cache?.get(key);
    const inFlight = hit ? undefined : cache?.pending.get(key);
    if (inFlight) hit = await inFlight;
    if (hit) return answer(c, hit, ifNoneMatches(rawHeader(c, "if-none-match"), hit.etag) ? 304 : 200);
    if (!cache) {
      const json = await jsonOf(c, next);
      if (json === undefined) return;
      const made = answerOf(json, keptOf(c.res));
      return answer(c, made, ifNoneMatches(rawHeader(c, "if-none-match"), made.etag) ? 304 : 200);
    }
    const generation = cache.current;
    let settle: (e: Entry | undefined) => void = () => {};
    const flight = new Promise<Entry | undefined>((resolve) => (settle = resolve));
    cache.pending.set(key, flight);
    let entry: Entry | undefined;
    try {
      const json = await jsonOf(c, next);
      if (json === undefined) return;
      entry = entryOf(json, routePath(c, -1) || undefined, keptOf(c.res));
      cache.set(key, entry, generation);
    } finally {
      // Waiters on a failed or non-200 computation compute for themselves.
      settle(entry);
      if (cache.pending.get(key) === flight) cache.pending.delete(key);
    }
    answer(c, entry, ifNoneMatches(rawHeader(c, "if-none-match"), entry.etag) ? 304 : 200);
  };
}

/**
 * Runs the route and gives the text of its 200 JSON answer, or undefined (any other answer, left
 * as it is). The text is taken as c.json() makes it: reading it back from the Response (clone(),
 * text()) made @hono/node-server build a full fetch Response and stream it, a fifth of an uncached
 * answer's CPU. An answer the route built otherwise is read back as before.
 */
async function jsonOf(c: Context<AppEnv>, next: () => Promise<void>): Promise<string | undefined> {
  let text: string | undefined;
  let made: Response | undefined;
  const json = c.json;
  c.json = ((object: unknown, arg?: never, headers?: Record<string, string>) => {
    text = JSON.stringify(object);
    return (made = c.body(text, arg, { "Content-Type": "application/json", ...headers }));
  }) as unknown as typeof c.json;
  try {
    await next();
  } finally {
    c.json = json;
  }
  if (c.res.status !== 200) return undefined;
  if (made !== undefined && c.res === made) return text;
  if (!c.res.headers.get("content-type")?.startsWith("application/json")) return undefined;
  return c.res.clone().text();
}
