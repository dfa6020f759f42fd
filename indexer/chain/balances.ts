/**
 * What a balance is made of, from the storage values a runtime decoded with its own types: the
 * native token's `AccountData` (System.Account's `data`) and an `AssetAccount` of pallet-assets
 * (Assets and ForeignAssets). Both have had two layouts on Asset Hub; the layout is read off the
 * value's own fields, never off a spec version, so a runtime's upgrade that changes one is
 * followed at the block that changes it.
 */

export type AssetAccountStatus = "liquid" | "frozen" | "blocked";

/** The native token's parts, as decimal strings of planck. */
export interface NativeParts {
  /** free + reserved: the account's whole balance (what holder answers rank by). */
  balance: string;
  free: string;
  /** Reserved and on hold (pallet-balances keeps both in `reserved`). */
  reserved: string;
  /** The frozen amount as the runtime states it (the old layout: max(miscFrozen, feeFrozen)). */
  frozen: string;
  /** What the account can move out of `free` (see nativeParts). */
  transferable: string;
}

/** An asset account's parts. */
export interface AssetParts {
  balance: string;
  status: AssetAccountStatus;
}

/** What one storage value says: native parts, an asset account's, or a zero (no account). */
export type BalanceParts = NativeParts | AssetParts | { balance: "0" };

/** A decoded value whose layout is none that Asset Hub has had: an error, never a guess. */
export class BalanceLayoutError extends Error {}

/** A field of a decoded struct: polkadot.js structs are Maps keyed by camelCase field names. */
function field(value: unknown, name: string): unknown {
  if (value instanceof Map) return value.get(name);
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
}

/** A u128 field as a bigint (a codec's toString is its decimal form). */
function amount(value: unknown, name: string, what: string): bigint {
  const v = field(value, name);
  if (v === undefined || v === null) throw new BalanceLayoutError(`${what} has no ${name}`);
  return BigInt(typeof v === "bigint" ? v : String(v));
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * The native parts of an AccountData in either layout:
 *
 * - `{free, reserved, frozen, flags}` (pallet-balances since 2023, statemine 1,000,000 and every
 *   current runtime): a freeze applies to the whole balance, so what is on hold counts towards it.
 *   transferable = free − max(0, frozen − reserved), the fungible trait's
 *   `reducible_balance(Expendable, Polite)` without its provider clause.
 * - `{free, reserved, miscFrozen, feeFrozen}` (the Currency era, Rococo Asset Hub statemine 900):
 *   the locks apply to `free`; frozen = max(miscFrozen, feeFrozen) and transferable = free −
 *   frozen, as that era's `reducible_balance` computed it.
 *
 * Neither keeps back the existential deposit: a transfer that may reap the account
 * (transfer_allow_death) can move all of it. A wallet sending with keep-alive keeps the existential
 * deposit back itself, and so does the chain when the account has consumers (it holds assets) and
 * one provider — a condition of System.Account's reference counts, which change without any
 * balance event, so it is left out of a value the indexer keeps current from events.
 */
export function nativeParts(data: unknown): NativeParts {
  const what = "AccountData";
  const free = amount(data, "free", what);
  const reserved = amount(data, "reserved", what);
  let frozen: bigint;
  let locked: bigint;
  if (field(data, "frozen") !== undefined) {
    frozen = amount(data, "frozen", what);
    locked = max(0n, frozen - reserved);
  } else if (field(data, "miscFrozen") !== undefined || field(data, "feeFrozen") !== undefined) {
    frozen = max(amount(data, "miscFrozen", what), amount(data, "feeFrozen", what));
    locked = frozen;
  } else {
    throw new BalanceLayoutError(`${what} has neither frozen nor miscFrozen/feeFrozen`);
  }
  const transferable = max(0n, free - locked);
  return { balance: (free + reserved).toString(), free: free.toString(), reserved: reserved.toString(), frozen: frozen.toString(), transferable: transferable.toString() };
}

/**
 * The parts of an AssetAccount in either layout: `status: Liquid | Frozen | Blocked` (since
 * pallet-assets gained `block`, 2023) or the older `isFrozen: bool`. Undefined (no account):
 * a zero balance, which has no row and so no status.
 */
export function assetParts(account: unknown): AssetParts | { balance: "0" } {
  if (account === undefined || account === null) return { balance: "0" };
  const what = "AssetAccount";
  const balance = amount(account, "balance", what).toString();
  const status = field(account, "status");
  if (status !== undefined) return { balance, status: accountStatus(status) };
  const isFrozen = field(account, "isFrozen");
  if (isFrozen !== undefined) return { balance, status: isTrue(isFrozen) ? "frozen" : "liquid" };
  throw new BalanceLayoutError(`${what} has neither status nor isFrozen`);
}

/** An AccountStatus enum codec (`.type` is its variant's name) or the variant's name itself. */
function accountStatus(status: unknown): AssetAccountStatus {
  const name = typeof status === "string" ? status : (status as { type?: unknown }).type;
  const lower = typeof name === "string" ? name.toLowerCase() : "";
  if (lower === "liquid" || lower === "frozen" || lower === "blocked") return lower;
  throw new BalanceLayoutError(`AssetAccount status ${String(name)} is none of Liquid, Frozen, Blocked`);
}

/** A bool codec (`isTrue`) or a plain boolean. */
function isTrue(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  const flag = (value as { isTrue?: unknown }).isTrue;
  if (typeof flag !== "boolean") throw new BalanceLayoutError("AssetAccount isFrozen is not a bool");
  return flag;
}
