/**
 * What a block touched. Events are never added up into balances (DESIGN: "Never rebuild a
 * balance by adding up event amounts"); they only say which tokens, accounts and pools to read
 * again, at the block's hash. Reading too much is harmless; missing something is not, so every
 * AccountId32-typed field of every Balances/Assets/ForeignAssets event counts. An event this
 * indexer handles but cannot decode or attribute is not dropped silently: it becomes a
 * `skipped` entry (logged, counted, shown in /health), and the rest of the block goes on.
 */
import type { TokenDirectory } from "./chain/directory.js";
import type { PoolRef } from "./chain/reader.js";
import type { ChainEvent } from "./chain/events.js";
import { assetTokenId, foreignToken, locationToken, poolKey, type TokenKey, type TokenOfLocation } from "./chain/locations.js";
import type { TransferKind } from "../db/schema/transfers.js";
import { foldFees } from "./fees.js";

export interface PathStep {
  tokenId: number;
  /**
   * Amount of this token at this point of the path: the amount in for the first step, each
   * hop's amount out after it. Null where the runtime does not say (a `Vec<Location>` path
   * gives only the ends).
   */
  amount: string | null;
}

export interface RawSwap {
  eventIndex: number;
  event: string;
  /** The trader; null for SwapCreditExecuted (a swap of credit, e.g. a fee paid in an asset). */
  who: string | null;
  /** Index of the extrinsic that emitted it; null outside one (initialization, finalization). */
  extrinsic: number | null;
  path: PathStep[];
  amountIn: string;
  amountOut: string;
  /** assetConversion.Transfer legs of the same extrinsic before the event (2023 runtimes). */
  legs: { from: string; tokenId: number; amount: string }[];
}

export interface RawLiquidity {
  eventIndex: number;
  /** Index of the extrinsic that emitted it; null outside one. */
  extrinsic: number | null;
  kind: "add" | "remove";
  pool: string;
  who: string;
  amount0: string;
  amount1: string;
  lpAmount: string;
}

/**
 * A balance movement an event reported, as it said it: a token's (native, asset, foreign) or an
 * LP token's (PoolAssets, whose ids are their own). No `from` for a mint or a deposit, no `to`
 * for a burn or a withdrawal.
 */
export interface RawTransfer {
  eventIndex: number;
  extrinsic: number | null;
  /** "section.method" */
  event: string;
  kind: TransferKind;
  tokenId: number | null;
  lpTokenId: number | null;
  from: string | null;
  to: string | null;
  amount: string;
  /** A fee's tip as its event states it (in the native token for an AssetTxFeePaid of today's hubs); null for other kinds. */
  tip: string | null;
}

/**
 * Which events are movements, and their fields: [kind, from, to, amount], each field by its
 * names (current first, then older runtimes') and its position (runtimes before metadata v14
 * name no fields: the decoder keys them "0", "1", …). What is not here moves no balance between
 * accounts (Endowed comes with the Transfer or Deposit that endowed; Issued/Rescinded of
 * `balances` name no account; Reserved/Unreserved/Frozen/Locked move nothing out of an account).
 * Fees are rows of their own, made of the fee events (feeMovement), which the withdrawal that
 * paid them is folded into (indexer/fees.ts).
 */
type Field = [names: string[], position: number] | null;
const f = (position: number, ...names: string[]): Field => [names, position];
const MOVEMENTS: Record<string, Record<string, [TransferKind, Field, Field, Field]>> = {
  balances: {
    Transfer: ["transfer", f(0, "from"), f(1, "to"), f(2, "amount")],
    ReserveRepatriated: ["transfer", f(0, "from"), f(1, "to"), f(2, "amount")],
    TransferOnHold: ["transfer", f(1, "source"), f(2, "dest"), f(3, "amount")],
    TransferAndHold: ["transfer", f(1, "source"), f(2, "dest"), f(3, "transferred", "amount")],
    Minted: ["mint", null, f(0, "who"), f(1, "amount")],
    Burned: ["burn", f(0, "who"), null, f(1, "amount")],
    Deposit: ["deposit", null, f(0, "who"), f(1, "amount")],
    Withdraw: ["withdraw", f(0, "who"), null, f(1, "amount")],
    Slashed: ["slash", f(0, "who"), null, f(1, "amount")],
    DustLost: ["dust", f(0, "account"), null, f(1, "amount")],
  },
  fungibles: {
    Transferred: ["transfer", f(1, "from"), f(2, "to"), f(3, "amount")],
    TransferredApproved: ["transfer", f(1, "owner"), f(3, "destination"), f(4, "amount")],
    Issued: ["mint", null, f(1, "owner"), f(2, "amount", "totalSupply")],
    Burned: ["burn", f(1, "owner"), null, f(2, "balance", "amount")],
    Deposited: ["deposit", null, f(1, "who"), f(2, "amount")],
    Withdrawn: ["withdraw", f(1, "who"), null, f(2, "amount")],
  },
};

/** A field's value by its first name present, else by its position. */
function fieldValue(e: ChainEvent, field: Field): unknown {
  if (field === null) return null;
  for (const n of field[0]) if (e.data[n] !== undefined) return e.data[n];
  return e.data[String(field[1])];
}

function fieldAccount(e: ChainEvent, field: Field): string | null {
  if (field === null) return null;
  const v = fieldValue(e, field);
  if (typeof v !== "string" || v.length === 0) throw new Skip(`${field[0][0]} is not an account`);
  return v;
}

// Functions of the module, not closures made per event: a block's movements are most of its events.
function movement(e: ChainEvent, token: { tokenId: number } | { lpTokenId: number }): RawTransfer | undefined {
  const spec = MOVEMENTS[e.section === "balances" ? "balances" : "fungibles"]![e.method];
  if (!spec) return undefined;
  const [kind, fromField, toField, amountField] = spec;
  return {
    eventIndex: e.index,
    extrinsic: e.extrinsic,
    event: `${e.section}.${e.method}`,
    kind,
    tokenId: "tokenId" in token ? token.tokenId : null,
    lpTokenId: "lpTokenId" in token ? token.lpTokenId : null,
    from: fieldAccount(e, fromField),
    to: fieldAccount(e, toField),
    amount: amount(fieldValue(e, amountField), amountField![0][0]!),
    tip: null,
  };
}

/**
 * A fee event as a `fee` row from its payer: TransactionFeePaid (native) or AssetTxFeePaid (the
 * asset's token), both { who, actual_fee, tip, … }: by name, or by position where metadata names no fields.
 */
function feeMovement(e: ChainEvent, tokenId: number): RawTransfer {
  const who = feeField(e, "who", 0);
  if (typeof who !== "string" || who.length === 0) throw new Skip("who is not an account");
  return { eventIndex: e.index, extrinsic: e.extrinsic, event: `${e.section}.${e.method}`, kind: "fee", tokenId, lpTokenId: null, from: who, to: null, amount: amount(feeField(e, "actualFee", 1), "actualFee"), tip: amount(feeField(e, "tip", 2), "tip") };
}

function feeField(e: ChainEvent, name: string, position: number): unknown {
  return e.data[name] ?? e.data[String(position)];
}

/** A handled event that could not be decoded or attributed. */
export interface SkippedEvent {
  eventIndex: number;
  /** "section.method" */
  event: string;
  reason: string;
}

export interface BlockChanges {
  /** Tokens whose details, metadata or (native) total issuance to read again. */
  tokens: Set<number>;
  destroyed: Set<number>;
  /**
   * Tokens whose accounts were removed by an event that names none of them
   * (`AccountsDestroyed` while an asset is destroyed): their holders are read again from storage.
   */
  accountsDropped: Set<number>;
  /** tokenId → accounts whose balance to read again (native included). */
  balances: Map<number, Set<string>>;
  /** LP token id → accounts whose LP balance to read again. */
  lpBalances: Map<number, Set<string>>;
  /** Pool keys whose reserves and LP supply to read again. */
  pools: Set<string>;
  createdPools: PoolRef[];
  swaps: RawSwap[];
  liquidity: RawLiquidity[];
  /** Balance movements, in event order. */
  transfers: RawTransfer[];
  /** How to read each asset or foreign token the block named (its id → its storage key). */
  named: Map<number, TokenKey>;
  skipped: SkippedEvent[];
}

export interface CollectContext {
  nativeTokenId: number;
  /** Known pools by key; pools created in the block are added as they appear. */
  pools: Map<string, PoolRef>;
  /** Known tokens: a location whose derived id is another location's is refused, not merged. */
  tokens?: TokenDirectory;
}

export function emptyChanges(): BlockChanges {
  return { tokens: new Set(), destroyed: new Set(), accountsDropped: new Set(), balances: new Map(), lpBalances: new Map(), pools: new Set(), createdPools: [], swaps: [], liquidity: [], transfers: [], named: new Map(), skipped: [] };
}

class Skip extends Error {}

function touch(changes: BlockChanges, tokenId: number, account: unknown): void {
  if (typeof account !== "string" || account.length === 0) return;
  let set = changes.balances.get(tokenId);
  if (!set) changes.balances.set(tokenId, (set = new Set()));
  set.add(account);
}

function u32(value: unknown): number | undefined {
  const n = typeof value === "string" || typeof value === "number" ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= 4_294_967_295 ? n : undefined;
}

function amount(value: unknown, field: string): string {
  if (typeof value === "string" && /^\d+$/.test(value)) return value;
  throw new Skip(`${field} is not an amount`);
}

function name(changes: BlockChanges, ctx: CollectContext, t: TokenOfLocation): number {
  if (ctx.tokens && !ctx.tokens.set(t.id, t.token)) {
    throw new Skip(`location ${(t.token as { key: string }).key} derives token id ${t.id}, which another location has: not indexed`);
  }
  if (t.token.kind !== "native") changes.named.set(t.id, t.token);
  return t.id;
}

/** Token of a location field; remembered in `named` so the indexer knows how to read it. */
function tokenOf(changes: BlockChanges, ctx: CollectContext, location: unknown, field: string): number {
  const t = typeof location === "string" ? locationToken(location, ctx.nativeTokenId) : undefined;
  if (!t) throw new Skip(`${field} is not an XCM location`);
  return name(changes, ctx, t);
}

function poolOf(changes: BlockChanges, ctx: CollectContext, poolId: unknown): PoolRef {
  if (!Array.isArray(poolId) || poolId.length !== 2) throw new Skip("poolId is not a pair of locations");
  const [a, b] = poolId.map((l, i) => tokenOf(changes, ctx, l, `poolId[${i}]`)) as [number, number];
  const pool = ctx.pools.get(poolKey(a, b));
  if (!pool) throw new Skip(`pool ${poolKey(a, b)} is not known`);
  return pool;
}

/**
 * A swap path in either shape the runtimes have had: `Vec<Location>` (2023) or
 * `Vec<(Location, u128)>` with each step's amount (BalancePath, since 2024).
 */
function swapPath(changes: BlockChanges, ctx: CollectContext, path: unknown): PathStep[] {
  if (!Array.isArray(path) || path.length < 2) throw new Skip("path has fewer than two steps");
  return path.map((step, i) => {
    if (Array.isArray(step) && step.length === 2) return { tokenId: tokenOf(changes, ctx, step[0], `path[${i}]`), amount: amount(step[1], `path[${i}].amount`) };
    if (typeof step === "string") return { tokenId: tokenOf(changes, ctx, step, `path[${i}]`), amount: null };
    throw new Skip(`path[${i}] is neither a location nor a (location, amount) pair`);
  });
}

function assetConversion(e: ChainEvent, ctx: CollectContext, changes: BlockChanges, legs: RawSwap["legs"]): void {
  const d = e.data;
  switch (e.method) {
    case "PoolCreated": {
      if (!Array.isArray(d.poolId) || d.poolId.length !== 2) throw new Skip("poolId is not a pair of locations");
      const [a, b] = d.poolId.map((l, i) => tokenOf(changes, ctx, l, `poolId[${i}]`)) as [number, number];
      const lp = u32(d.lpToken);
      if (lp === undefined || typeof d.poolAccount !== "string") throw new Skip("no LP token or pool account");
      const ref = { token0Id: a, token1Id: b, lpTokenId: lp, account: d.poolAccount };
      ctx.pools.set(poolKey(a, b), ref);
      changes.createdPools.push(ref);
      changes.pools.add(poolKey(a, b));
      return;
    }
    case "LiquidityAdded":
    case "LiquidityRemoved": {
      const pool = poolOf(changes, ctx, d.poolId);
      const key = poolKey(pool.token0Id, pool.token1Id);
      changes.pools.add(key);
      const add = e.method === "LiquidityAdded";
      changes.liquidity.push({
        eventIndex: e.index,
        extrinsic: e.extrinsic,
        kind: add ? "add" : "remove",
        pool: key,
        who: String(d.who),
        amount0: amount(add ? d.amount1Provided : d.amount1, "amount1"),
        amount1: amount(add ? d.amount2Provided : d.amount2, "amount2"),
        lpAmount: amount(add ? d.lpTokenMinted : d.lpTokenBurned, "lpToken amount"),
      });
      return;
    }
    case "SwapExecuted":
    case "SwapCreditExecuted": {
      const path = swapPath(changes, ctx, d.path);
      const who = e.method === "SwapExecuted" ? (typeof d.who === "string" ? d.who : null) : null;
      const swap = { eventIndex: e.index, event: `assetConversion.${e.method}`, who, extrinsic: e.extrinsic, path, amountIn: amount(d.amountIn, "amountIn"), amountOut: amount(d.amountOut, "amountOut"), legs: [...legs] };
      for (let i = 0; i + 1 < path.length; i++) {
        const pool = findPool(ctx.pools, path[i]!.tokenId, path[i + 1]!.tokenId);
        if (pool) changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
      }
      changes.swaps.push(swap);
      return;
    }
    case "Transfer": {
      // One leg of a swap on the 2023 runtimes (later ones emit none).
      const tokenId = tokenOf(changes, ctx, d.asset, "asset");
      touch(changes, tokenId, d.from);
      touch(changes, tokenId, d.to);
      if (typeof d.from === "string") legs.push({ from: d.from, tokenId, amount: amount(d.amount, "amount") });
      return;
    }
    case "Touched": {
      const pool = poolOf(changes, ctx, d.poolId);
      changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
      return;
    }
    default:
      // A new event of the pallet (per-pool fees are merged upstream) may change what pools,
      // fees or swaps mean: say so rather than carry on as if nothing happened.
      throw new Skip("an assetConversion event this version of TokenPool does not handle");
  }
}

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

/** The token a fee was paid in: a location on current runtimes, an Option<u32> on older ones. */
function feeToken(e: ChainEvent, ctx: CollectContext, changes: BlockChanges): number {
  const id = e.data.assetId;
  if (id === null || id === undefined) return ctx.nativeTokenId;
  if (typeof id === "string" && id.startsWith("0x")) return tokenOf(changes, ctx, id, "assetId");
  const assetId = u32(id);
  if (assetId === undefined) throw new Skip("assetId is neither a location nor an asset id");
  const tokenId = assetTokenId(assetId, ctx.nativeTokenId);
  changes.named.set(tokenId, { kind: "asset", assetId });
  return tokenId;
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

/** The pool of two tokens in either order, as the chain keys it. */
export function findPool(pools: Map<string, PoolRef>, a: number, b: number): PoolRef | undefined {
  return pools.get(poolKey(a, b)) ?? pools.get(poolKey(b, a));
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
