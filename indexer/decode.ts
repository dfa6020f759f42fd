/**
 * The decode stage: a fetched block's raw bytes become plain events and a timestamp, with the
 * runtime the block's own state confirmed (fetch.ts) — never one guessed from the blocks before
 * it. No node, no store: a value that does not decode exactly with that runtime's types throws.
 */
import type { StorageEntry } from "@polkadot/types/primitive/types";
import { hexToU8a, u8aToHex } from "@polkadot/util";
import { blake2AsU8a } from "@polkadot/util-crypto";
import { eventCodec } from "./chain/event-codec.js";
import type { ChainEvent } from "./chain/events.js";
import type { ChainRpc } from "./chain/rpc.js";
import type { Runtime } from "./chain/runtimes.js";
import { decodeValue, storageAt, type At } from "./chain/storage.js";
import type { RawBlock } from "./fetch.js";

export interface DecodedBlock {
  number: number;
  hash: string;
  runtime: Runtime;
  /** Storage at the block with its runtime, for the state its events call for. */
  at: At;
  /** Unix seconds. */
  timestamp: number;
  events: ChainEvent[];
  /** Its extrinsics' hashes (extrinsicHashesOf), when its events call for them (movesBalances). */
  extrinsics?: string;
}

/** Pallets whose events become rows that name their extrinsic (transfers, fees, swaps): a block with one needs its extrinsics' hashes. */
const ROW_SECTIONS = new Set(["balances", "assets", "foreignAssets", "poolAssets", "transactionPayment", "assetTxPayment", "assetConversionTxPayment", "assetConversion"]);

/** Whether `events` hold one of an extrinsic that becomes a row (a block of inherents alone does not). */
export const movesBalances = (events: ChainEvent[]): boolean => events.some((e) => e.extrinsic !== null && ROW_SECTIONS.has(e.section));

/**
 * The hashes of a block's extrinsics, as block_extrinsics keeps them: blake2_256 of each one's
 * bytes (the hex the node gives, its length prefix included, as explorers and polkadot-js hash
 * it), 32 bytes each in the block's order, as hex without 0x.
 */
export function extrinsicHashesOf(extrinsics: string[]): string {
  const out = new Uint8Array(extrinsics.length * 32);
  extrinsics.forEach((x, i) => out.set(blake2AsU8a(hexToU8a(x), 256), i * 32));
  return u8aToHex(out, -1, false);
}

/** `onMismatch`: an event kind the metadata decoder and polkadot-js read differently (polkadot-js decodes it from then on). */
export function decodeBlock(raw: RawBlock, rpc: ChainRpc, ss58: number, onMismatch?: (kind: string) => void): DecodedBlock {
  const q = raw.runtime.decorated.query as unknown as Record<string, Record<string, StorageEntry>>;
  const now = decodeValue(raw.runtime, q.timestamp!.now!, raw.now);
  return {
    number: raw.number,
    hash: raw.hash,
    runtime: raw.runtime,
    at: storageAt(rpc, raw.runtime, raw.hash),
    timestamp: Math.floor(Number(now.toString()) / 1000),
    // Straight from the bytes with the runtime's metadata (event-codec.ts): a codec per value
    // was half of a block's CPU.
    events: eventCodec(raw.runtime, onMismatch).decode(raw.events, ss58),
  };
}
