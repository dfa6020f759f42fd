/**
 * The client's method names before they followed the document's operationIds (0.1.0): kept,
 * deprecated, each the same function as its new name. `assets(query)` and `health()` were
 * methods where the groups `assets` and `health` now are: those groups can still be called.
 */
import type { CallOptions, Json, PathValue, Query } from "./call.js";
import type { AccountsOperations, AssetsOperations, HealthOperations, Operations, OracleOperations, PoolOperations, SnapshotsOperations } from "./operations.js";
import type { operations } from "./schema.js";

export interface LegacyMethods {
  /** @deprecated Use `oracle.getValue(id)` (operationId getOracleValue). */
  oracleValue(id: PathValue, query?: Record<string, never>, options?: CallOptions): ReturnType<OracleOperations["getValue"]>;
  /** @deprecated Use `oracle.getHistory` (operationId getOracleHistory). */
  oracleHistory: OracleOperations["getHistory"];
  /** @deprecated Use `assets.getMetadata` (operationId getAssetMetadata). */
  assetMetadata: AssetsOperations["getMetadata"];
  /** @deprecated Use `assets.getHistory` (operationId getAssetHistory). */
  assetHistory: AssetsOperations["getHistory"];
  /** @deprecated Use `assets.listHolders` (operationId listAssetHolders). */
  holders: AssetsOperations["listHolders"];
  /** @deprecated Use `assets.listHoldersAll`. */
  holdersAll: AssetsOperations["listHoldersAll"];
  /** @deprecated Use `assets.listTransfers` (operationId listAssetTransfers). */
  assetTransfers: AssetsOperations["listTransfers"];
  /** @deprecated Use `assets.listTransfersAll`. */
  assetTransfersAll: AssetsOperations["listTransfersAll"];
  /** @deprecated Use `pool.getStats` (operationId getPoolStats). */
  poolStats: PoolOperations["getStats"];
  /** @deprecated Use `pool.getPairStats` (operationId getPairStats). */
  pairStats: PoolOperations["getPairStats"];
  /** @deprecated Use `pool.list` (operationId listPools). */
  pools: PoolOperations["list"];
  /** @deprecated Use `pool.getOhlcv` (operationId getPoolOhlcv). */
  ohlcv: PoolOperations["getOhlcv"];
  /** @deprecated Use `pool.listSwaps` (operationId listPoolSwaps). */
  poolSwaps: PoolOperations["listSwaps"];
  /** @deprecated Use `pool.listSwapsAll`. */
  poolSwapsAll: PoolOperations["listSwapsAll"];
  /** @deprecated Use `accounts.get` (operationId getAccount). */
  account: AccountsOperations["get"];
  /** @deprecated Use `accounts.listSwaps` (operationId listAccountSwaps). */
  accountSwaps: AccountsOperations["listSwaps"];
  /** @deprecated Use `accounts.listSwapsAll`. */
  accountSwapsAll: AccountsOperations["listSwapsAll"];
  /** @deprecated Use `accounts.listTransfers` (operationId listAccountTransfers). */
  accountTransfers: AccountsOperations["listTransfers"];
  /** @deprecated Use `accounts.listTransfersAll`. */
  accountTransfersAll: AccountsOperations["listTransfersAll"];
  /** @deprecated Use `snapshots.create` (operationId createSnapshot). */
  createSnapshot: SnapshotsOperations["create"];
  /** @deprecated Use `snapshots.get` (operationId getSnapshot). */
  snapshot: SnapshotsOperations["get"];
  /** @deprecated Use `snapshots.listHolders` (operationId listSnapshotHolders). */
  snapshotHolders: SnapshotsOperations["listHolders"];
  /** @deprecated Use `snapshots.listHoldersAll`. */
  snapshotHoldersAll: SnapshotsOperations["listHoldersAll"];
}

export function legacyMethods(ops: Operations): LegacyMethods {
  return {
    oracleValue: (id, _query, options) => ops.oracle.getValue(id, options),
    oracleHistory: ops.oracle.getHistory,
    assetMetadata: ops.assets.getMetadata,
    assetHistory: ops.assets.getHistory,
    holders: ops.assets.listHolders,
    holdersAll: ops.assets.listHoldersAll,
    assetTransfers: ops.assets.listTransfers,
    assetTransfersAll: ops.assets.listTransfersAll,
    poolStats: ops.pool.getStats,
    pairStats: ops.pool.getPairStats,
    pools: ops.pool.list,
    ohlcv: ops.pool.getOhlcv,
    poolSwaps: ops.pool.listSwaps,
    poolSwapsAll: ops.pool.listSwapsAll,
    account: ops.accounts.get,
    accountSwaps: ops.accounts.listSwaps,
    accountSwapsAll: ops.accounts.listSwapsAll,
    accountTransfers: ops.accounts.listTransfers,
    accountTransfersAll: ops.accounts.listTransfersAll,
    createSnapshot: ops.snapshots.create,
    snapshot: ops.snapshots.get,
    snapshotHolders: ops.snapshots.listHolders,
    snapshotHoldersAll: ops.snapshots.listHoldersAll,
  };
}

/** `client.assets(query)`, as in 0.1.0. */
export interface LegacyAssetsCall {
  /** @deprecated Use `assets.list(query)` (operationId listAssets). */
  (query?: Query<operations["listAssets"]>, options?: CallOptions): Promise<Json<operations["listAssets"]>>;
}
/** `client.health()`, as in 0.1.0. */
export interface LegacyHealthCall {
  /** @deprecated Use `health.get()` (operationId getHealth). */
  (options?: CallOptions): ReturnType<HealthOperations["get"]>;
}

/** A group that can also be called as the method it replaced. */
export const callable = <G extends object, F extends (...args: never[]) => unknown>(legacy: F, group: G): F & G => Object.assign(legacy, group);
