/**
 * What a block touched. Events are never added up into balances (DESIGN: "Never rebuild a
 * balance by adding up event amounts"); they only say which tokens, accounts and pools to read
 * again, at the block's hash. Reading too much is harmless; missing something is not, so every
 * AccountId32-typed field of every Balances/Assets/ForeignAssets event counts. An event this
 * indexer handles but cannot decode or attribute is not dropped silently: it becomes a
 * `skipped` entry (logged, counted, shown in /health), and the rest of the block goes on.
 */
import type { PoolRef } from "./chain/reader.js";
import type { ChainEvent } from "./chain/events.js";
import { assetTokenId, foreignToken, poolKey } from "./chain/locations.js";
import { foldFees } from "./fees.js";
import { emptyChanges, name, Skip, touch, u32, type BlockChanges, type CollectContext, type RawSwap } from "./block-changes.js";
import { feeMovement, feeToken, movement } from "./movements.js";
import { assetConversion } from "./pool-events.js";

/** Assets and ForeignAssets: the token, its state and every account the event names. */
function fungibles(e: ChainEvent, ctx: CollectContext, changes: BlockChanges): void {
  let id: number;
  // Runtimes before metadata v14 name no fields: the asset id is the first in every version.
  const raw = e.data.assetId ?? e.data["0"];
  if (e.section === "assets") {
    const assetId = u32(raw);
    if (assetId === undefined) throw new Skip("assetId is not a u32");
    id = assetTokenId(assetId, ctx.nativeTokenId);
    changes.named.set(id, { kind: "asset", assetId });
  } else {
    // ForeignAssets keys everything by location: always a foreign token, whatever it looks like.
    const foreign = typeof raw === "string" ? foreignToken(raw) : undefined;
    if (!foreign) throw new Skip("assetId is not an XCM location");
    id = name(changes, ctx, foreign);
  }
  changes.tokens.add(id);
  if (e.method === "Destroyed") changes.destroyed.add(id);
  if (e.method === "AccountsDestroyed") changes.accountsDropped.add(id);
  for (const a of e.accounts) touch(changes, id, a);
  // Last: an event whose movement cannot be read has still had its accounts read again.
  const moved = movement(e, { tokenId: id });
  if (moved) changes.transfers.push(moved);
}

function handle(e: ChainEvent, ctx: CollectContext, changes: BlockChanges, lpTokens: Map<number, PoolRef>, legs: RawSwap["legs"]): void {
  switch (e.section) {
    case "assets":
    case "foreignAssets":
      return fungibles(e, ctx, changes);
    case "balances": {
      changes.tokens.add(ctx.nativeTokenId); // total issuance may have moved
      for (const a of e.accounts) touch(changes, ctx.nativeTokenId, a);
      const moved = movement(e, { tokenId: ctx.nativeTokenId });
      if (moved) changes.transfers.push(moved);
      return;
    }
    case "assetConversion":
      return assetConversion(e, ctx, changes, legs);
    case "poolAssets": {
      // LP tokens: the pool's LP supply, and the balances of the accounts named (positions).
      const lp = u32(e.data.assetId ?? e.data["0"]);
      if (lp === undefined) throw new Skip("assetId is not a u32");
      const pool = lpTokens.get(lp) ?? changes.createdPools.find((p) => p.lpTokenId === lp);
      if (pool) {
        changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
        for (const account of e.accounts) {
          if (typeof account !== "string" || account.length === 0) continue;
          let set = changes.lpBalances.get(pool.lpTokenId);
          if (!set) changes.lpBalances.set(pool.lpTokenId, (set = new Set()));
          set.add(account);
        }
      }
      const moved = movement(e, { lpTokenId: lp });
      if (moved) changes.transfers.push(moved);
      return;
    }
    case "transactionPayment":
      if (e.method === "TransactionFeePaid") changes.transfers.push(feeMovement(e, ctx.nativeTokenId));
      return;
    // pallet-asset-tx-payment (2023) and pallet-asset-conversion-tx-payment, under either name.
    case "assetTxPayment":
    case "assetConversionTxPayment":
      if (e.method === "AssetTxFeePaid") {
        const token = feeToken(e, ctx, changes);
        touch(changes, token, e.data.who);
        // A fee in the native token is TransactionFeePaid's row: one row per fee.
        if (token !== ctx.nativeTokenId) changes.transfers.push(feeMovement(e, token));
      }
      return;
  }
}

export function collectChanges(events: ChainEvent[], ctx: CollectContext): BlockChanges {
  const changes = emptyChanges();
  const lpTokens = new Map([...ctx.pools.values()].map((p) => [p.lpTokenId, p]));
  let legs: RawSwap["legs"] = [];
  let legsOf: number | null = null;
  for (const e of events) {
    if (e.extrinsic !== legsOf) {
      legs = [];
      legsOf = e.extrinsic;
    }
    // Any account any event names may have had its native balance moved without a `balances`
    // event: a hold placed or released by staking, delegated staking, nomination pools, the
    // election's deposits, preimages, revive's storage deposits, proxy and multisig deposits
    // (today's hubs have no Held/Released events). Read again at this block; the verification
    // sweep (sweep.ts) finds what no event names at all.
    for (const a of e.accounts) touch(changes, ctx.nativeTokenId, a);
    try {
      handle(e, ctx, changes, lpTokens, legs);
    } catch (err) {
      if (!(err instanceof Skip)) throw err;
      changes.skipped.push({ eventIndex: e.index, event: `${e.section}.${e.method}`, reason: err.message });
    }
    if (e.section === "assetConversion" && (e.method === "SwapExecuted" || e.method === "SwapCreditExecuted")) legs = [];
  }
  changes.transfers = foldFees(changes.transfers);
  // Tokens sent straight to a pool account move its reserves without a pool event.
  const byAccount = new Map([...ctx.pools.values()].map((p) => [p.account, p]));
  for (const accounts of changes.balances.values()) {
    for (const account of accounts) {
      const pool = byAccount.get(account);
      if (pool) changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
    }
  }
  return changes;
}
