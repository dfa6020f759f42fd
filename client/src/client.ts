/**
 * TokenPool's REST API, typed from its OpenAPI document. A method per operation, named after its
 * operationId and grouped by the document's tags (`client.assets.getMetadata(id)`; generated in
 * operations.ts), each with a trailing `{ signal, timeout, headers }`. Every method answers the
 * route's 2xx body or throws TokenPoolError; lists paged by a keyset cursor also come as async
 * iterators (`…All`). `raw` is the openapi-fetch client for anything else.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import type { Body, CallOptions, HeadersLike, Json, PathValue } from "./call.js";
import { sessionFetch, sleep as realSleep, type RetryOptions, type Sleep } from "./http.js";
import { callable, legacyMethods, type LegacyAssetsCall, type LegacyHealthCall, type LegacyMethods } from "./legacy.js";
import { LiveClient, type LiveOptions } from "./live.js";
import { createOperations, type AssetsOperations, type AuthOperations, type HealthOperations, type Operations, type SnapshotsOperations } from "./operations.js";
import type { components, operations, paths } from "./schema.js";
import { createTransport, plainHeaders } from "./transport.js";
import { waitForSnapshot, type WaitOptions } from "./wait.js";

export type Schemas = components["schemas"];
type Credentials = Body<operations["login"]>;
type LoginAnswer = Json<operations["login"]>;

export interface TokenPoolOptions {
  /** Where the API is served, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** A bearer token already held (from an earlier login). */
  token?: string;
  /** Logged in with at the first request that needs it, and again when the token is refused (expired). */
  credentials?: Credentials;
  retry?: RetryOptions;
  /** Milliseconds each call may take (default 0: no limit); a call's own `timeout` replaces it. */
  timeout?: number;
  /** Aborts every call of this client (closing an app, say), beside each call's own signal. */
  signal?: AbortSignal;
  /** Headers sent with every request; a call's own `headers` go over them. */
  headers?: HeadersLike;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Options of `live()` (the /ws client). */
  live?: Omit<LiveOptions, "url" | "token">;
  /** How waits are made (tests pass a fake). */
  sleep?: Sleep;
}

/** The groups without a hand-written part; a group the document gains appears here by itself. */
type PlainGroups = Omit<Operations, "assets" | "auth" | "health" | "snapshots">;
// The class and this interface merge: the generated groups are assigned in the constructor.
export interface TokenPool extends Readonly<PlainGroups>, LegacyMethods {}

export class TokenPool {
  /** The openapi-fetch client every method uses: typed paths, parameters and answers. */
  readonly raw: Client<paths>;
  /** Tokens: metadata, supply, holders, history and transfers. */
  readonly assets: AssetsOperations & LegacyAssetsCall;
  /** Register and log in (the token is kept, as by `register` and `login`). */
  readonly auth: AuthOperations;
  /** Whether the store, the indexer and the chain are current. */
  readonly health: HealthOperations & LegacyHealthCall;
  /** Holder snapshots at a block, as pages or CSV, and `wait(id)` for one to be done. */
  readonly snapshots: SnapshotsOperations & { wait(id: PathValue, options?: WaitOptions): Promise<Schemas["HolderSnapshot"]> };
  // #private: JSON.stringify or a debugger's printout of the client shows neither the token nor
  // the password.
  #bearer: string | undefined;
  #loggingIn: Promise<boolean> | undefined;
  readonly #options: TokenPoolOptions;
  readonly #auth: AuthOperations;

  constructor(options: TokenPoolOptions) {
    this.#options = options;
    this.#bearer = options.token;
    const base = options.fetch ?? globalThis.fetch;
    const session = { token: () => this.#bearer, relogin: () => this.relogin() };
    this.raw = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), headers: plainHeaders(options.headers), fetch: sessionFetch(base, session, options.retry, options.sleep) });
    const ops = createOperations(createTransport(this.raw, { timeout: options.timeout, signal: options.signal }));
    const { assets, auth, health, snapshots, ...plain } = ops;
    Object.assign(this, plain satisfies PlainGroups, legacyMethods(ops));
    this.#auth = auth;
    this.assets = callable<AssetsOperations, LegacyAssetsCall>((query, o) => assets.list(query, o), assets);
    this.health = callable<HealthOperations, LegacyHealthCall>((o) => health.get(o), health);
    this.auth = { ...auth, register: (body, o) => this.register(body, o), login: (body, o) => this.login(body, o) };
    const sleep = options.sleep ?? realSleep;
    this.snapshots = { ...snapshots, wait: (id, o = {}) => waitForSnapshot(snapshots.get, id, o, sleep) };
  }

  /** The bearer token in use, if any. */
  get token(): string | undefined {
    return this.#bearer;
  }

  /** Creates a user and keeps its token (`auth.register`). */
  async register(body: Body<operations["register"]>, options?: CallOptions): Promise<Json<operations["register"]>> {
    const out = await this.#auth.register(body, options);
    this.#bearer = out.data.token;
    return out;
  }

  /** Logs in and keeps the token (`auth.login`): the same `{ email, password }` as `register`. */
  login(credentials: Credentials, options?: CallOptions): Promise<LoginAnswer>;
  /** @deprecated Pass one object, as `register` takes: `login({ email, password })`. */
  login(email: string, password: string, options?: CallOptions): Promise<LoginAnswer>;
  async login(first: Credentials | string, second?: string | CallOptions, third?: CallOptions): Promise<LoginAnswer> {
    const [body, options] = typeof first === "string" ? [{ email: first, password: String(second) }, third] : [first, second as CallOptions | undefined];
    const out = await this.#auth.login(body, options);
    this.#bearer = out.data.token;
    return out;
  }

  /** One login at a time, however many requests were refused together. */
  private relogin(): Promise<boolean> {
    const c = this.#options.credentials;
    if (!c) return Promise.resolve(false);
    this.#loggingIn ??= this.login(c)
      .then(() => true)
      .finally(() => (this.#loggingIn = undefined));
    return this.#loggingIn;
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
}
