/**
 * The decode stage: a fetched block's raw bytes become plain events and a timestamp, with the
 * runtime the block's own state confirmed (fetch.ts) — never one guessed from the blocks before
 * it. No node, no store: a value that does not decode exactly with that runtime's types throws.
 */
import type { StorageEntry } from "@polkadot/types/primitive/types";
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
