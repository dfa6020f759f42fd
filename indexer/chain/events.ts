import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { AbstractInt } from "@polkadot/types-codec";
import type { Codec } from "@polkadot/types/types";

/** The API decorated for one block hash (`api.at(hash)`). */
export type At = Awaited<ReturnType<ApiPromise["at"]>>;

/** One runtime event in plain values: accounts as SS58, integers as decimal strings. */
export interface ChainEvent {
  /** Position in the block's System.Events: with the block number, the event's key. */
  index: number;
  section: string;
  method: string;
  /** Index of the extrinsic that emitted it; null for initialization/finalization. */
  extrinsic: number | null;
  data: Record<string, unknown>;
}

function plain(codec: Codec): unknown {
  // u128 must stay exact: toPrimitive() turns small ints into numbers and big ones into strings.
  if (codec instanceof AbstractInt) return codec.toString();
  const type = codec.toRawType();
  if (type === "AccountId32" || type === "AccountId") return codec.toString();
  return codec.toPrimitive();
}

export async function readEvents(at: At): Promise<ChainEvent[]> {
  const records = await at.query.system.events();
  return records.map((record, index) => {
    const { event, phase } = record;
    const names = event.data.names ?? [];
    const data: Record<string, unknown> = {};
    event.data.forEach((value, i) => {
      data[names[i] ?? String(i)] = plain(value);
    });
    return {
      index,
      section: event.section,
      method: event.method,
      extrinsic: phase.isApplyExtrinsic ? phase.asApplyExtrinsic.toNumber() : null,
      data,
    };
  });
}
