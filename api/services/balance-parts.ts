import type { Holder } from "../../db/index.js";
import { normalizeDecimal } from "../../shared/decimal.js";

/**
 * What a holder row's balance is made of, as holder and portfolio answers say it: the native
 * token's free, reserved, frozen and transferable amounts, an asset account's status. Every
 * answer carries all five keys, null where they do not apply (the other kind of token), so a
 * client reads one shape; null also on a row last read before TokenPool kept the parts (a store
 * indexed by an earlier version), until that balance changes on chain and is read again.
 */
export function balanceParts(h: Pick<Holder, "free" | "reserved" | "frozen" | "transferable" | "status">) {
  const amount = (v: string | null) => (v === null ? null : normalizeDecimal(v));
  return { free: amount(h.free), reserved: amount(h.reserved), frozen: amount(h.frozen), transferable: amount(h.transferable), status: h.status ?? null };
}
