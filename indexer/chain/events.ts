import "@polkadot/api-augment/assetHubKusama";
import { AbstractArray, AbstractInt, Compact, Enum, Option, Struct } from "@polkadot/types-codec";
import type { Codec } from "@polkadot/types/types";
import type { Event, EventRecord } from "@polkadot/types/interfaces";
import { address, MAX_ACCOUNTS, MAX_DEPTH } from "./scale.js";
import { u8aToHex } from "@polkadot/util";

export type { At } from "./storage.js";

/** One runtime event in plain values: accounts as SS58, integers as decimal strings. */
export interface ChainEvent {
  /** Position in the block's System.Events: with the block number, the event's key. */
  index: number;
  section: string;
  method: string;
  /** Index of the extrinsic that emitted it; null for initialization/finalization. */
  extrinsic: number | null;
  /** Fields by name; an XCM location is the hex of its SCALE bytes (the same in v3, v4 and v5). */
  data: Record<string, unknown>;
  /**
   * Every account the event names: the values whose type in the runtime's metadata is an
   * AccountId32, whatever they are called, in a field or nested in one (collectAccounts).
   */
  accounts: string[];
}

/** By class: toRawType builds a type's whole description on every call (a fifth of a block's CPU). */
const accountClasses = new WeakMap<object, boolean>();
function isAccount(codec: Codec): boolean {
  let is = accountClasses.get(codec.constructor);
  if (is === undefined) {
    const type = codec.toRawType();
    accountClasses.set(codec.constructor, (is = type === "AccountId32" || type === "AccountId"));
  }
  return is;
}

/** An XCM location of any version: a struct of exactly `parents` and `interior`. */
function isLocation(codec: Codec): codec is Struct {
  if (!(codec instanceof Struct)) return false;
  const keys = codec.defKeys;
  return keys.length === 2 && keys[0] === "parents" && keys[1] === "interior";
}

/**
 * Codec → plain value. Integers stay exact (decimal strings), accounts become SS58 in the chain's
 * prefix, locations the hex of their bytes; tuples and vectors arrays; the rest toPrimitive().
 */
export function plain(codec: Codec, ss58: number): unknown {
  if (codec instanceof AbstractInt || codec instanceof Compact) return codec.toString();
  if (isAccount(codec)) return address(codec.toU8a(), ss58);
  if (isLocation(codec)) return u8aToHex(codec.toU8a());
  if (codec instanceof Option) return codec.isSome ? plain(codec.unwrap(), ss58) : null;
  if (codec instanceof Struct) return Object.fromEntries([...codec.entries()].map(([k, v]) => [k, plain(v, ss58)]));
  if (codec instanceof AbstractArray) return [...codec].map((v: Codec) => plain(v, ss58));
  return codec.toPrimitive();
}

/** Accounts one event may name (nested ones included); more are left to the sweep (sweep.ts). */
export const MAX_EVENT_ACCOUNTS = MAX_ACCOUNTS;

/**
 * Every AccountId32 inside `codec`: a field, an Option, a struct's or an enum's inner value, a
 * tuple's or a vector's items (Staking.Rewarded's `dest: RewardDestination::Account(..)`, a
 * proxy's delegate). Bounded in depth and count: an event is the chain's, but a vector can be long.
 */
export function collectAccounts(codec: Codec, ss58: number, out: Set<string>, depth = 0): void {
  if (out.size >= MAX_EVENT_ACCOUNTS || depth > MAX_DEPTH) return;
  if (isAccount(codec)) return void out.add(address(codec.toU8a(), ss58));
  if (codec instanceof AbstractInt || codec instanceof Compact) return;
  if (codec instanceof Option) return codec.isSome ? collectAccounts(codec.unwrap(), ss58, out, depth + 1) : undefined;
  if (codec instanceof Struct) for (const v of codec.values()) collectAccounts(v, ss58, out, depth + 1);
  else if (codec instanceof Enum) collectAccounts(codec.value, ss58, out, depth + 1);
  else if (codec instanceof AbstractArray) for (const v of codec as Iterable<Codec>) collectAccounts(v, ss58, out, depth + 1);
}

/** Decodes a block's System.Events, as the runtime's own metadata typed them. */
export function decodeEvents(records: Iterable<EventRecord>, ss58: number): ChainEvent[] {
  return [...records].map(({ event, phase }, index) => chainEvent(event, index, phase.isApplyExtrinsic ? phase.asApplyExtrinsic.toNumber() : null, ss58));
}

/** One event decoded by polkadot-js, in plain values (event-codec.ts's way for the types it does not decode itself). */
export function chainEvent(event: Event, index: number, extrinsic: number | null, ss58: number): ChainEvent {
  const names = event.data.names ?? [];
  const data: Record<string, unknown> = {};
  const accounts = new Set<string>();
  event.data.forEach((value, i) => {
    data[names[i] ?? String(i)] = plain(value, ss58);
    collectAccounts(value, ss58, accounts);
  });
  return { index, section: event.section, method: event.method, extrinsic, data, accounts: [...accounts] };
}
