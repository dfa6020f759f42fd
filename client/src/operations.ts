/**
 * Generated from the TokenPool API document (/openapi.json) by scripts/client-operations.ts: do
 * not edit. One method per operation, named after its operationId, grouped by tag. Regenerate
 * with `npm run client:types`; the test suite fails while this file differs from the document
 * the app serves.
 */

import type { Body, CallOptions, Item, Json, PageQuery, PathValue, Query, Transport } from "./call.js";
import type { PageIterator } from "./paginate.js";
import type { operations } from "./schema.js";

/**
 * An account's balances, LP positions, transfers and trades
 */
export interface AccountsOperations {
  /**
   * Portfolio of one account: token balances, LP positions and their USD value; now, or as of a block (?at=) or a time (?atTime=)
   *
   * `GET /accounts/{address}` (operationId `getAccount`)
   */
  get(address: PathValue, query?: Query<operations["getAccount"]>, options?: CallOptions): Promise<Json<operations["getAccount"]>>;
  /**
   * One token balance of an account, now or as of a block (?at=) or a time (?atTime=)
   *
   * `GET /accounts/{address}/balances/{id}` (operationId `getAccountBalance`)
   */
  getBalance(address: PathValue, id: PathValue, query?: Query<operations["getAccountBalance"]>, options?: CallOptions): Promise<Json<operations["getAccountBalance"]>>;
  /**
   * One LP token balance (pool position) of an account, now or as of a block or a time
   *
   * `GET /accounts/{address}/lp-balances/{lpTokenId}` (operationId `getAccountLpBalance`)
   */
  getLpBalance(address: PathValue, lpTokenId: PathValue, query?: Query<operations["getAccountLpBalance"]>, options?: CallOptions): Promise<Json<operations["getAccountLpBalance"]>>;
  /**
   * An account's trades, every pool, newest first (keyset cursor)
   *
   * `GET /accounts/{address}/swaps` (operationId `listAccountSwaps`)
   */
  listSwaps(address: PathValue, query?: Query<operations["listAccountSwaps"]>, options?: CallOptions): Promise<Json<operations["listAccountSwaps"]>>;
  /**
   * Every item of `listSwaps` (its `trades`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listSwapsAll(address: PathValue, query?: PageQuery<operations["listAccountSwaps"]>, options?: CallOptions): PageIterator<Item<operations["listAccountSwaps"], "trades">>;
  /**
   * An account's transfers, in and out, every token, newest first (keyset cursor)
   *
   * `GET /accounts/{address}/transfers` (operationId `listAccountTransfers`)
   */
  listTransfers(address: PathValue, query?: Query<operations["listAccountTransfers"]>, options?: CallOptions): Promise<Json<operations["listAccountTransfers"]>>;
  /**
   * Every item of `listTransfers` (its `transfers`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listTransfersAll(address: PathValue, query?: PageQuery<operations["listAccountTransfers"]>, options?: CallOptions): PageIterator<Item<operations["listAccountTransfers"], "transfers">>;
}

export function accountsOperations(t: Transport): AccountsOperations {
  return {
    get: (address, query, options) => t.request({ method: "GET", path: "/accounts/{address}", params: { path: { address }, query } }, options),
    getBalance: (address, id, query, options) => t.request({ method: "GET", path: "/accounts/{address}/balances/{id}", params: { path: { address, id }, query } }, options),
    getLpBalance: (address, lpTokenId, query, options) => t.request({ method: "GET", path: "/accounts/{address}/lp-balances/{lpTokenId}", params: { path: { address, lpTokenId }, query } }, options),
    listSwaps: (address, query, options) => t.request({ method: "GET", path: "/accounts/{address}/swaps", params: { path: { address }, query } }, options),
    listSwapsAll: (address, query, options) => t.pages({ method: "GET", path: "/accounts/{address}/swaps", params: { path: { address }, query } }, "trades", options),
    listTransfers: (address, query, options) => t.request({ method: "GET", path: "/accounts/{address}/transfers", params: { path: { address }, query } }, options),
    listTransfersAll: (address, query, options) => t.pages({ method: "GET", path: "/accounts/{address}/transfers", params: { path: { address }, query } }, "transfers", options),
  };
}

/**
 * Tokens: metadata, supply, holders, history and transfers
 */
export interface AssetsOperations {
  /**
   * Supply and holder count of a token over time
   *
   * `GET /assets/{id}/history` (operationId `getAssetHistory`)
   */
  getHistory(id: PathValue, query?: Query<operations["getAssetHistory"]>, options?: CallOptions): Promise<Json<operations["getAssetHistory"]>>;
  /**
   * Token metadata, supply and treasury value; now, or as of a block (?at=) or a time (?atTime=)
   *
   * `GET /assets/metadata/{id}` (operationId `getAssetMetadata`)
   */
  getMetadata(id: PathValue, query?: Query<operations["getAssetMetadata"]>, options?: CallOptions): Promise<Json<operations["getAssetMetadata"]>>;
  /**
   * All tokens with supply, USD value and holder count (paginated, sortable; public)
   *
   * `GET /assets` (operationId `listAssets`)
   */
  list(query?: Query<operations["listAssets"]>, options?: CallOptions): Promise<Json<operations["listAssets"]>>;
  /**
   * Holders by balance, descending (page/limit, or keyset cursor for deep pages)
   *
   * `GET /assets/holders/{id}` (operationId `listAssetHolders`)
   */
  listHolders(id: PathValue, query?: Query<operations["listAssetHolders"]>, options?: CallOptions): Promise<Json<operations["listAssetHolders"]>>;
  /**
   * Every item of `listHolders` (its `holders`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listHoldersAll(id: PathValue, query?: PageQuery<operations["listAssetHolders"]>, options?: CallOptions): PageIterator<Item<operations["listAssetHolders"], "holders">>;
  /**
   * An LP token's transfers (PoolAssets: liquidity added and removed, positions moved), newest first (keyset cursor)
   *
   * `GET /assets/lp/{lpTokenId}/transfers` (operationId `listLpTokenTransfers`)
   */
  listLpTokenTransfers(lpTokenId: PathValue, query?: Query<operations["listLpTokenTransfers"]>, options?: CallOptions): Promise<Json<operations["listLpTokenTransfers"]>>;
  /**
   * Every item of `listLpTokenTransfers` (its `transfers`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listLpTokenTransfersAll(lpTokenId: PathValue, query?: PageQuery<operations["listLpTokenTransfers"]>, options?: CallOptions): PageIterator<Item<operations["listLpTokenTransfers"], "transfers">>;
  /**
   * A token's transfers, newest first (keyset cursor)
   *
   * `GET /assets/{id}/transfers` (operationId `listAssetTransfers`)
   */
  listTransfers(id: PathValue, query?: Query<operations["listAssetTransfers"]>, options?: CallOptions): Promise<Json<operations["listAssetTransfers"]>>;
  /**
   * Every item of `listTransfers` (its `transfers`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listTransfersAll(id: PathValue, query?: PageQuery<operations["listAssetTransfers"]>, options?: CallOptions): PageIterator<Item<operations["listAssetTransfers"], "transfers">>;
}

export function assetsOperations(t: Transport): AssetsOperations {
  return {
    getHistory: (id, query, options) => t.request({ method: "GET", path: "/assets/{id}/history", params: { path: { id }, query } }, options),
    getMetadata: (id, query, options) => t.request({ method: "GET", path: "/assets/metadata/{id}", params: { path: { id }, query } }, options),
    list: (query, options) => t.request({ method: "GET", path: "/assets", params: { query } }, options),
    listHolders: (id, query, options) => t.request({ method: "GET", path: "/assets/holders/{id}", params: { path: { id }, query } }, options),
    listHoldersAll: (id, query, options) => t.pages({ method: "GET", path: "/assets/holders/{id}", params: { path: { id }, query } }, "holders", options),
    listLpTokenTransfers: (lpTokenId, query, options) => t.request({ method: "GET", path: "/assets/lp/{lpTokenId}/transfers", params: { path: { lpTokenId }, query } }, options),
    listLpTokenTransfersAll: (lpTokenId, query, options) => t.pages({ method: "GET", path: "/assets/lp/{lpTokenId}/transfers", params: { path: { lpTokenId }, query } }, "transfers", options),
    listTransfers: (id, query, options) => t.request({ method: "GET", path: "/assets/{id}/transfers", params: { path: { id }, query } }, options),
    listTransfersAll: (id, query, options) => t.pages({ method: "GET", path: "/assets/{id}/transfers", params: { path: { id }, query } }, "transfers", options),
  };
}

/**
 * Register and log in: a bearer token valid for 24 h
 */
export interface AuthOperations {
  /**
   * Obtain a token
   *
   * `POST /auth/login` (operationId `login`)
   */
  login(body: Body<operations["login"]>, options?: CallOptions): Promise<Json<operations["login"]>>;
  /**
   * Create a user and receive a token
   *
   * `POST /auth/register` (operationId `register`)
   */
  register(body: Body<operations["register"]>, options?: CallOptions): Promise<Json<operations["register"]>>;
}

export function authOperations(t: Transport): AuthOperations {
  return {
    login: (body, options) => t.request({ method: "POST", path: "/auth/login", body }, options),
    register: (body, options) => t.request({ method: "POST", path: "/auth/register", body }, options),
  };
}

/**
 * The DEX Screener adapter (DEX Screener Adapter Specs v1.1): latest block, asset, pair, and events by block range
 */
export interface DexscreenerOperations {
  /**
   * A token, as a DEX Screener Asset
   *
   * `GET /dexscreener/asset` (operationId `getDexScreenerAsset`)
   */
  getAsset(query: Query<operations["getDexScreenerAsset"]>, options?: CallOptions): Promise<Json<operations["getDexScreenerAsset"]>>;
  /**
   * Swaps, joins and exits of a block range, with the reserves after them
   *
   * `GET /dexscreener/events` (operationId `getDexScreenerEvents`)
   */
  getEvents(query: Query<operations["getDexScreenerEvents"]>, options?: CallOptions): Promise<Json<operations["getDexScreenerEvents"]>>;
  /**
   * The newest block /dexscreener/events answers
   *
   * `GET /dexscreener/latest-block` (operationId `getDexScreenerLatestBlock`)
   */
  getLatestBlock(options?: CallOptions): Promise<Json<operations["getDexScreenerLatestBlock"]>>;
  /**
   * A pool, as a DEX Screener Pair
   *
   * `GET /dexscreener/pair` (operationId `getDexScreenerPair`)
   */
  getPair(query: Query<operations["getDexScreenerPair"]>, options?: CallOptions): Promise<Json<operations["getDexScreenerPair"]>>;
}

export function dexscreenerOperations(t: Transport): DexscreenerOperations {
  return {
    getAsset: (query, options) => t.request({ method: "GET", path: "/dexscreener/asset", params: { query } }, options),
    getEvents: (query, options) => t.request({ method: "GET", path: "/dexscreener/events", params: { query } }, options),
    getLatestBlock: (options) => t.request({ method: "GET", path: "/dexscreener/latest-block" }, options),
    getPair: (query, options) => t.request({ method: "GET", path: "/dexscreener/pair", params: { query } }, options),
  };
}

/**
 * Whether the store, the indexer and the chain are current
 */
export interface HealthOperations {
  /**
   * Liveness of the store and progress of the indexer
   *
   * `GET /health` (operationId `getHealth`)
   */
  get(options?: CallOptions): Promise<Json<operations["getHealth"]>>;
}

export function healthOperations(t: Transport): HealthOperations {
  return {
    get: (options) => t.request({ method: "GET", path: "/health" }, options),
  };
}

/**
 * USD values derived from the chain's own pools against USD stablecoins
 */
export interface OracleOperations {
  /**
   * USD value of one whole token over time, one point per interval
   *
   * `GET /oracle/history/{id}` (operationId `getOracleHistory`)
   */
  getHistory(id: PathValue, query?: Query<operations["getOracleHistory"]>, options?: CallOptions): Promise<Json<operations["getOracleHistory"]>>;
  /**
   * Current USD value of one whole token, derived from the chain's pools
   *
   * `GET /oracle/value/{id}` (operationId `getOracleValue`)
   */
  getValue(id: PathValue, options?: CallOptions): Promise<Json<operations["getOracleValue"]>>;
  /**
   * Current USD values of up to 30 tokens, each as /oracle/value/{id} answers it
   *
   * `GET /oracle/values` (operationId `getOracleValues`)
   */
  getValues(query: Query<operations["getOracleValues"]>, options?: CallOptions): Promise<Json<operations["getOracleValues"]>>;
}

export function oracleOperations(t: Transport): OracleOperations {
  return {
    getHistory: (id, query, options) => t.request({ method: "GET", path: "/oracle/history/{id}", params: { path: { id }, query } }, options),
    getValue: (id, options) => t.request({ method: "GET", path: "/oracle/value/{id}", params: { path: { id } } }, options),
    getValues: (query, options) => t.request({ method: "GET", path: "/oracle/values", params: { query } }, options),
  };
}

/**
 * Liquidity pools: aggregate and per-pair statistics, swaps and candles
 */
export interface PoolOperations {
  /**
   * Candles of a pool: price of tokenA in tokenB and in USD, volumes (public)
   *
   * `GET /pools/{tokenA}/{tokenB}/ohlcv` (operationId `getPoolOhlcv`)
   */
  getOhlcv(tokenA: PathValue, tokenB: PathValue, query?: Query<operations["getPoolOhlcv"]>, options?: CallOptions): Promise<Json<operations["getPoolOhlcv"]>>;
  /**
   * Statistics of one trading pair (ids or symbols, either order); now, or as of a block (?at=) or a time (?atTime=)
   *
   * `GET /pool/stats/{tokenA}/{tokenB}` (operationId `getPairStats`)
   */
  getPairStats(tokenA: PathValue, tokenB: PathValue, query?: Query<operations["getPairStats"]>, options?: CallOptions): Promise<Json<operations["getPairStats"]>>;
  /**
   * Aggregate statistics of all liquidity pools
   *
   * `GET /pool/stats` (operationId `getPoolStats`)
   */
  getStats(options?: CallOptions): Promise<Json<operations["getPoolStats"]>>;
  /**
   * All pools with reserves, TVL and 24 h volume (paginated, sortable)
   *
   * `GET /pools` (operationId `listPools`)
   */
  list(query?: Query<operations["listPools"]>, options?: CallOptions): Promise<Json<operations["listPools"]>>;
  /**
   * A pool's trades, newest first (keyset cursor; public)
   *
   * `GET /pools/{tokenA}/{tokenB}/swaps` (operationId `listPoolSwaps`)
   */
  listSwaps(tokenA: PathValue, tokenB: PathValue, query?: Query<operations["listPoolSwaps"]>, options?: CallOptions): Promise<Json<operations["listPoolSwaps"]>>;
  /**
   * Every item of `listSwaps` (its `trades`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listSwapsAll(tokenA: PathValue, tokenB: PathValue, query?: PageQuery<operations["listPoolSwaps"]>, options?: CallOptions): PageIterator<Item<operations["listPoolSwaps"], "trades">>;
}

export function poolOperations(t: Transport): PoolOperations {
  return {
    getOhlcv: (tokenA, tokenB, query, options) => t.request({ method: "GET", path: "/pools/{tokenA}/{tokenB}/ohlcv", params: { path: { tokenA, tokenB }, query } }, options),
    getPairStats: (tokenA, tokenB, query, options) => t.request({ method: "GET", path: "/pool/stats/{tokenA}/{tokenB}", params: { path: { tokenA, tokenB }, query } }, options),
    getStats: (options) => t.request({ method: "GET", path: "/pool/stats" }, options),
    list: (query, options) => t.request({ method: "GET", path: "/pools", params: { query } }, options),
    listSwaps: (tokenA, tokenB, query, options) => t.request({ method: "GET", path: "/pools/{tokenA}/{tokenB}/swaps", params: { path: { tokenA, tokenB }, query } }, options),
    listSwapsAll: (tokenA, tokenB, query, options) => t.pages({ method: "GET", path: "/pools/{tokenA}/{tokenB}/swaps", params: { path: { tokenA, tokenB }, query } }, "trades", options),
  };
}

/**
 * Holder snapshots at a block, as pages or CSV
 */
export interface SnapshotsOperations {
  /**
   * Start a holder snapshot of a token, or of an LP token (a pool's providers), as of a block (or a time, or now); the same token and block give the same snapshot
   *
   * `POST /snapshots` (operationId `createSnapshot`)
   */
  create(body: Body<operations["createSnapshot"]>, options?: CallOptions): Promise<Json<operations["createSnapshot"]>>;
  /**
   * A holder snapshot's state and progress
   *
   * `GET /snapshots/{id}` (operationId `getSnapshot`)
   */
  get(id: PathValue, options?: CallOptions): Promise<Json<operations["getSnapshot"]>>;
  /**
   * Every holder of a finished snapshot as CSV (rank,address,balance), streamed
   *
   * `GET /snapshots/{id}/holders.csv` (operationId `getSnapshotHoldersCsv`)
   */
  getHoldersCsv(id: PathValue, options?: CallOptions): Promise<string>;
  /**
   * A finished snapshot's holders by balance, descending (pages; the whole list as CSV with Accept: text/csv)
   *
   * `GET /snapshots/{id}/holders` (operationId `listSnapshotHolders`)
   */
  listHolders(id: PathValue, query?: Query<operations["listSnapshotHolders"]>, options?: CallOptions): Promise<Json<operations["listSnapshotHolders"]>>;
  /**
   * Every item of `listHolders` (its `holders`), fetched a page at a time by keyset cursor as the loop asks; `toArray({ limit })` collects them.
   */
  listHoldersAll(id: PathValue, query?: PageQuery<operations["listSnapshotHolders"]>, options?: CallOptions): PageIterator<Item<operations["listSnapshotHolders"], "holders">>;
}

export function snapshotsOperations(t: Transport): SnapshotsOperations {
  return {
    create: (body, options) => t.request({ method: "POST", path: "/snapshots", body }, options),
    get: (id, options) => t.request({ method: "GET", path: "/snapshots/{id}", params: { path: { id } } }, options),
    getHoldersCsv: (id, options) => t.request({ method: "GET", path: "/snapshots/{id}/holders.csv", params: { path: { id } }, parseAs: "text" }, options),
    listHolders: (id, query, options) => t.request({ method: "GET", path: "/snapshots/{id}/holders", params: { path: { id }, query } }, options),
    listHoldersAll: (id, query, options) => t.pages({ method: "GET", path: "/snapshots/{id}/holders", params: { path: { id }, query } }, "holders", options),
  };
}

/**
 * Every operation of the document, by group.
 */
export interface Operations {
  accounts: AccountsOperations;
  assets: AssetsOperations;
  auth: AuthOperations;
  dexscreener: DexscreenerOperations;
  health: HealthOperations;
  oracle: OracleOperations;
  pool: PoolOperations;
  snapshots: SnapshotsOperations;
}

export function createOperations(t: Transport): Operations {
  return {
    accounts: accountsOperations(t),
    assets: assetsOperations(t),
    auth: authOperations(t),
    dexscreener: dexscreenerOperations(t),
    health: healthOperations(t),
    oracle: oracleOperations(t),
    pool: poolOperations(t),
    snapshots: snapshotsOperations(t),
  };
}
