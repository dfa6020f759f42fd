/** The /ws topics and what each pushes: the REST answers of client/src/schema.ts, or their errors. */
import type { components } from "./schema.js";

type S = components["schemas"];

/** A block as the `blocks` topic pushes it (not a REST answer, so not in the API document). */
export interface BlockSummary {
  number: number;
  hash: string;
  timestamp: number;
  counts: { swaps: number; liquidityEvents: number; prices: number; reserves: number; holders: number; tokens: number; transfers?: number };
}

/**
 * What a topic pushes when its REST route would answer an error (a token whose price expired,
 * one destroyed): the subscription goes on, and a later block may push a value again.
 */
export interface TopicError {
  error: { code: string; message: string };
}

export type Topic =
  | `oracle.value:${number}`
  | `assets.metadata:${number}`
  | `assets.holders:${number}`
  | `accounts:${string}`
  | `transfers:${string}`
  | "pool.stats"
  | `pool.pair:${string}/${string}`
  | "blocks";

/**
 * What a topic pushes: its REST route's answer, or that route's error (TopicError) — test with
 * `"error" in result`. `blocks` pushes each block (null at subscribe, which names no block yet).
 */
export type TopicResult<T extends string> = T extends "blocks"
  ? BlockSummary | null
  :
      | TopicError
      | (T extends `oracle.value:${string}`
          ? S["OracleValue"]
          : T extends `assets.metadata:${string}`
            ? S["AssetMetadata"]
            : T extends `assets.holders:${string}`
              ? S["HolderPage"]
              : T extends `accounts:${string}`
                ? S["Portfolio"]
                : T extends `transfers:${string}`
                  ? S["AccountTransferPage"]
                  : T extends "pool.stats"
                    ? S["PoolStats"]
                    : T extends `pool.pair:${string}`
                      ? S["PairStats"]
                      : unknown);

export interface Push<T> {
  /** The topic as the server named it (a pair's symbols resolved to ids). */
  topic: string;
  block: number | null;
  result: T;
  /** True for the subscribe answer (the value now, also after a reconnect); false for a block's push. */
  answer: boolean;
}

