/**
 * Runtime constants whose meaning changed between versions, read from each block's runtime
 * (`api.at(hash).consts`) and normalised to one unit, so a backfill across an upgrade never
 * mixes scales.
 */
import type { Codec } from "@polkadot/types/types";
import type { At } from "./storage.js";

/**
 * pallet-asset-conversion's LPFee in parts per million. Up to polkadot-sdk PR 11804 (fellows
 * runtimes 2.3.0, June 2026) it was a `u32` in tenths of a percent (3 = 0.3 %); since then it is
 * a `Permill` (3000 = 0.3 %). The constant's type in the runtime's metadata says which.
 */
export function normaliseLpFee(constant: Codec): bigint {
  const type = constant.toRawType();
  const value = BigInt(constant.toString());
  if (type === "Permill") return value;
  if (type === "u32") return value * 1_000n;
  throw new Error(`assetConversion.LPFee has type ${type}; known are u32 (per mille) and Permill`);
}

/** Per runtime's constant: toRawType() describes the type again at every call, and every block asks. */
const normalised = new WeakMap<Codec, bigint>();

/** The LP fee of the block's runtime in parts per million; null on runtimes without pools. */
export function lpFeePpm(at: At): bigint | null {
  const constant = (at.consts as { assetConversion?: { lpFee?: Codec } }).assetConversion?.lpFee;
  if (!constant) return null;
  let ppm = normalised.get(constant);
  if (ppm === undefined) normalised.set(constant, (ppm = normaliseLpFee(constant)));
  return ppm;
}
