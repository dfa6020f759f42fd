/**
 * Events → balance movements: which events move a balance between accounts, and the fields
 * that say from whom, to whom and how much (RawTransfer rows, folded and valued later by
 * indexer/fees.ts and indexer/transfers.ts); fee events as `fee` rows from their payer.
 */
import type { ChainEvent } from "./chain/events.js";
import { assetTokenId } from "./chain/locations.js";
import type { TransferKind } from "../db/schema/transfers.js";
import { amount, Skip, tokenOf, u32, type BlockChanges, type CollectContext, type RawTransfer } from "./block-changes.js";

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
export function movement(e: ChainEvent, token: { tokenId: number } | { lpTokenId: number }): RawTransfer | undefined {
  // Own keys only: an event named `constructor` or `toString` (any name a runtime gives) is none.
  const table = MOVEMENTS[e.section === "balances" ? "balances" : "fungibles"]!;
  const spec = Object.hasOwn(table, e.method) ? table[e.method] : undefined;
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
export function feeMovement(e: ChainEvent, tokenId: number): RawTransfer {
  const who = feeField(e, "who", 0);
  if (typeof who !== "string" || who.length === 0) throw new Skip("who is not an account");
  return { eventIndex: e.index, extrinsic: e.extrinsic, event: `${e.section}.${e.method}`, kind: "fee", tokenId, lpTokenId: null, from: who, to: null, amount: amount(feeField(e, "actualFee", 1), "actualFee"), tip: amount(feeField(e, "tip", 2), "tip") };
}

function feeField(e: ChainEvent, name: string, position: number): unknown {
  return e.data[name] ?? e.data[String(position)];
}

/** The token a fee was paid in: a location on current runtimes, an Option<u32> on older ones. */
export function feeToken(e: ChainEvent, ctx: CollectContext, changes: BlockChanges): number {
  const id = e.data.assetId;
  if (id === null || id === undefined) return ctx.nativeTokenId;
  if (typeof id === "string" && id.startsWith("0x")) return tokenOf(changes, ctx, id, "assetId");
  const assetId = u32(id);
  if (assetId === undefined) throw new Skip("assetId is neither a location nor an asset id");
  const tokenId = assetTokenId(assetId, ctx.nativeTokenId);
  changes.named.set(tokenId, { kind: "asset", assetId });
  return tokenId;
}
