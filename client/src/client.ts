/**
 * TokenPool's REST API, typed from its OpenAPI document (schema.ts, generated). Every method
 * answers the route's 200 body or throws TokenPoolError; lists paged by a keyset cursor also
 * come as async iterators (`…All`). `raw` is the openapi-fetch client for anything else.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { errorOf, TokenPoolError } from "./errors.js";
import { sessionFetch, type RetryOptions, type Sleep } from "./http.js";
import { paginate } from "./paginate.js";
import type { components, paths } from "./schema.js";
import { LiveClient, type LiveOptions } from "./live.js";

export type Schemas = components["schemas"];
type Ok<P extends keyof paths, M extends "get" | "post"> = paths[P][M] extends { responses: { 200: { content: { "application/json": infer T } } } } ? T : never;
type QueryOf<P extends keyof paths> = paths[P]["get"] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** A route's query, numbers allowed where the API takes digits. */
type Query<P extends keyof paths> = { [K in keyof QueryOf<P>]?: QueryOf<P>[K] | number };

export interface TokenPoolOptions {
  /** Where the API is served, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** A bearer token already held (from an earlier login). */
  token?: string;
  /** Logged in with at the first request that needs it, and again when the token is refused (expired). */
  credentials?: { email: string; password: string };
  retry?: RetryOptions;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Options of `live()` (the /ws client). */
  live?: Omit<LiveOptions, "url" | "token">;
  /** How waits are made (tests pass a fake). */
  sleep?: Sleep;
}

export class TokenPool {
  /** The openapi-fetch client every method uses: typed paths, parameters and answers. */
  readonly raw: Client<paths>;
  // #private: JSON.stringify or a debugger's printout of the client shows neither the token nor
  // the password.
  #bearer: string | undefined;
  #loggingIn: Promise<boolean> | undefined;
  readonly #options: TokenPoolOptions;

  constructor(options: TokenPoolOptions) {
    this.#options = options;
    this.#bearer = options.token;
    const base = options.fetch ?? globalThis.fetch;
    const session = { token: () => this.#bearer, relogin: () => this.relogin() };
    this.raw = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: sessionFetch(base, session, options.retry, options.sleep) });
  }

  /** The bearer token in use, if any. */
  get token(): string | undefined {
    return this.#bearer;
  }

  async register(body: Schemas["RegisterRequest"]): Promise<Ok<"/auth/register", "post">> {
    const out = await this.unwrap(this.raw.POST("/auth/register", { body }));
    this.#bearer = out.data.token;
    return out;
  }

  async login(email: string, password: string): Promise<Ok<"/auth/login", "post">> {
    const out = await this.unwrap(this.raw.POST("/auth/login", { body: { email, password } }));
    this.#bearer = out.data.token;
    return out;
  }

  /** One login at a time, however many requests were refused together. */
  private relogin(): Promise<boolean> {
    const c = this.#options.credentials;
    if (!c) return Promise.resolve(false);
    this.#loggingIn ??= this.login(c.email, c.password)
      .then(() => true)
      .finally(() => (this.#loggingIn = undefined));
    return this.#loggingIn;
  }

  health() {
    return this.unwrap(this.raw.GET("/health"));
  }
  oracleValue(id: number | string, query: Query<"/oracle/value/{id}"> = {}) {
    return this.unwrap(this.raw.GET("/oracle/value/{id}", { params: { path: { id: String(id) }, query: qs<"/oracle/value/{id}">(query) } }));
  }
  oracleHistory(id: number | string, query: Query<"/oracle/history/{id}"> = {}) {
    return this.unwrap(this.raw.GET("/oracle/history/{id}", { params: { path: { id: String(id) }, query: qs<"/oracle/history/{id}">(query) } }));
  }
  assetMetadata(id: number | string, query: Query<"/assets/metadata/{id}"> = {}) {
    return this.unwrap(this.raw.GET("/assets/metadata/{id}", { params: { path: { id: String(id) }, query: qs<"/assets/metadata/{id}">(query) } }));
  }
  assets(query: Query<"/assets"> = {}) {
    return this.unwrap(this.raw.GET("/assets", { params: { query: qs<"/assets">(query) } }));
  }
  assetHistory(id: number | string, query: Query<"/assets/{id}/history"> = {}) {
    return this.unwrap(this.raw.GET("/assets/{id}/history", { params: { path: { id: String(id) }, query: qs<"/assets/{id}/history">(query) } }));
  }
  /** One page of holders (JSON; the CSV form of the route is for downloads). */
  holders(id: number | string, query: Query<"/assets/holders/{id}"> = {}): Promise<Schemas["HolderPage"]> {
    return this.unwrap(this.raw.GET("/assets/holders/{id}", { params: { path: { id: String(id) }, query: qs<"/assets/holders/{id}">(query) } })) as Promise<Schemas["HolderPage"]>;
  }
  /** Every holder, highest balance first, fetched by keyset cursor `limit` at a time. */
  holdersAll(id: number | string, query: Omit<Query<"/assets/holders/{id}">, "cursor" | "page"> = {}) {
    return paginate(async (cursor) => {
      const p = await this.holders(id, { ...query, cursor });
      return { items: p.holders, nextCursor: p.nextCursor };
    });
  }
  assetTransfers(id: number | string, query: Query<"/assets/{id}/transfers"> = {}) {
    return this.unwrap(this.raw.GET("/assets/{id}/transfers", { params: { path: { id: String(id) }, query: qs<"/assets/{id}/transfers">(query) } }));
  }
  assetTransfersAll(id: number | string, query: Omit<Query<"/assets/{id}/transfers">, "cursor"> = {}) {
    return paginate(async (cursor) => {
      const p = await this.assetTransfers(id, { ...query, cursor });
      return { items: p.transfers, nextCursor: p.nextCursor };
    });
  }
  poolStats() {
    return this.unwrap(this.raw.GET("/pool/stats"));
  }
  /** One pair, by token ids or symbols, oriented as asked. */
  pairStats(tokenA: number | string, tokenB: number | string, query: Query<"/pool/stats/{tokenA}/{tokenB}"> = {}) {
    return this.unwrap(this.raw.GET("/pool/stats/{tokenA}/{tokenB}", { params: { path: { tokenA: String(tokenA), tokenB: String(tokenB) }, query: qs<"/pool/stats/{tokenA}/{tokenB}">(query) } }));
  }
  pools(query: Query<"/pools"> = {}) {
    return this.unwrap(this.raw.GET("/pools", { params: { query: qs<"/pools">(query) } }));
  }
  ohlcv(tokenA: number | string, tokenB: number | string, query: Query<"/pools/{tokenA}/{tokenB}/ohlcv"> = {}) {
    return this.unwrap(this.raw.GET("/pools/{tokenA}/{tokenB}/ohlcv", { params: { path: { tokenA: String(tokenA), tokenB: String(tokenB) }, query: qs<"/pools/{tokenA}/{tokenB}/ohlcv">(query) } }));
  }
  poolSwaps(tokenA: number | string, tokenB: number | string, query: Query<"/pools/{tokenA}/{tokenB}/swaps"> = {}) {
    return this.unwrap(this.raw.GET("/pools/{tokenA}/{tokenB}/swaps", { params: { path: { tokenA: String(tokenA), tokenB: String(tokenB) }, query: qs<"/pools/{tokenA}/{tokenB}/swaps">(query) } }));
  }
  /** A pool's trades, newest first. */
  poolSwapsAll(tokenA: number | string, tokenB: number | string, query: Omit<Query<"/pools/{tokenA}/{tokenB}/swaps">, "cursor"> = {}) {
    return paginate(async (cursor) => {
      const p = await this.poolSwaps(tokenA, tokenB, { ...query, cursor });
      return { items: p.trades, nextCursor: p.nextCursor };
    });
  }
  account(address: string, query: Query<"/accounts/{address}"> = {}) {
    return this.unwrap(this.raw.GET("/accounts/{address}", { params: { path: { address }, query: qs<"/accounts/{address}">(query) } }));
  }
  accountSwaps(address: string, query: Query<"/accounts/{address}/swaps"> = {}) {
    return this.unwrap(this.raw.GET("/accounts/{address}/swaps", { params: { path: { address }, query: qs<"/accounts/{address}/swaps">(query) } }));
  }
  accountSwapsAll(address: string, query: Omit<Query<"/accounts/{address}/swaps">, "cursor"> = {}) {
    return paginate(async (cursor) => {
      const p = await this.accountSwaps(address, { ...query, cursor });
      return { items: p.trades, nextCursor: p.nextCursor };
    });
  }
  accountTransfers(address: string, query: Query<"/accounts/{address}/transfers"> = {}) {
    return this.unwrap(this.raw.GET("/accounts/{address}/transfers", { params: { path: { address }, query: qs<"/accounts/{address}/transfers">(query) } }));
  }
  accountTransfersAll(address: string, query: Omit<Query<"/accounts/{address}/transfers">, "cursor"> = {}) {
    return paginate(async (cursor) => {
      const p = await this.accountTransfers(address, { ...query, cursor });
      return { items: p.transfers, nextCursor: p.nextCursor };
    });
  }
  /** Asks for the holders of a token at a block: 202 while it is computed, 200 when it exists (see snapshot()). */
  createSnapshot(body: NonNullable<paths["/snapshots"]["post"]["requestBody"]>["content"]["application/json"]) {
    return this.unwrap(this.raw.POST("/snapshots", { body }));
  }
  snapshot(id: number | string) {
    return this.unwrap(this.raw.GET("/snapshots/{id}", { params: { path: { id: String(id) } } }));
  }
  /** One page of a snapshot's holders (JSON; holders.csv is the download). */
  snapshotHolders(id: number | string, query: Query<"/snapshots/{id}/holders"> = {}): Promise<Schemas["SnapshotHolderPage"]> {
    return this.unwrap(this.raw.GET("/snapshots/{id}/holders", { params: { path: { id: String(id) }, query: qs<"/snapshots/{id}/holders">(query) } })) as Promise<Schemas["SnapshotHolderPage"]>;
  }
  snapshotHoldersAll(id: number | string, query: Omit<Query<"/snapshots/{id}/holders">, "cursor" | "page"> = {}) {
    return paginate(async (cursor) => {
      const p = await this.snapshotHolders(id, { ...query, cursor });
      return { items: p.holders, nextCursor: p.nextCursor };
    });
  }

  /**
   * The /ws client (JSON-RPC subscriptions, reconnecting), at this API's address and with its
   * bearer token (sent as `auth` on each connection). Call close() when done.
   */
  live(options: Omit<LiveOptions, "url" | "token"> = {}): LiveClient {
    const url = new URL(this.#options.baseUrl);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/ws`;
    return new LiveClient({ ...this.#options.live, ...options, url: url.toString(), token: () => this.#bearer });
  }

  /** A route's 2xx answer, or its error thrown (openapi-fetch reads the body either way). */
  private async unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    let out: { data?: T; error?: unknown; response: Response };
    try {
      out = await call;
    } catch (err) {
      if (err instanceof TokenPoolError) throw err;
      throw new TokenPoolError(0, "SERVICE_UNAVAILABLE", `no answer from the API: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (out.response.ok && out.data !== undefined) return out.data;
    const body = out.error as Partial<Schemas["Error"]> | undefined;
    if (body?.error?.code) throw await errorOf(new Response(JSON.stringify(body), { status: out.response.status, headers: out.response.headers }));
    throw new TokenPoolError(out.response.status, "INTERNAL_ERROR", `HTTP ${out.response.status} without the API's error body`);
  }
}

/** Query values as the API reads them (numbers as digits), undefined ones left out. */
function qs<P extends keyof paths>(query: Query<P>): QueryOf<P> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) out[k] = String(v);
  return out as QueryOf<P>;
}
