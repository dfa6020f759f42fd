/**
 * Account addresses as the API accepts them: SS58 in any network's prefix, or the 32-byte
 * account id in hex. The store keeps SS58 in the chain's own prefix, so an address is decoded
 * and encoded again in that prefix before it is looked up.
 */
import { decodeAddress, encodeAddress } from "@polkadot/util-crypto";
import { u8aToHex } from "@polkadot/util";
import { AppError } from "./errors.js";

export const ADDRESS_RULE = "must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id";

/** The 32-byte account id of `text`, or undefined when it is neither SS58 nor 32 bytes of hex. */
export function accountId(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length > 66 || !/^[0-9A-Za-z]+$/.test(text)) return undefined;
  if (text.startsWith("0x") && !/^0x[0-9a-fA-F]{64}$/.test(text)) return undefined;
  try {
    const id = decodeAddress(text);
    return id.length === 32 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** `text` in the chain's prefix and its account id in hex; VALIDATION_ERROR naming `param` otherwise. */
export function canonicalAddress(text: string, ss58: number, param: string, where: "path" | "query" = "path"): { address: string; accountId: string } {
  const id = accountId(text);
  if (!id) throw new AppError("VALIDATION_ERROR", `Invalid ${where} parameter "${param}": ${ADDRESS_RULE}.`);
  return { address: encodeAddress(id, ss58), accountId: u8aToHex(id) };
}
