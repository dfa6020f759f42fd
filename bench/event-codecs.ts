/**
 * `npx tsx bench/event-codecs.ts`: milliseconds per block to decode System.Events of the bench
 * node's Polkadot Asset Hub blocks (bench/node/blocks.ts, ~79 events), three ways — polkadot-js
 * (the indexer's way before issue 40: a codec per value, then events.ts plain values — here with
 * issue 40's caches of isAccount and SS58 in it, so faster than it was),
 * @polkadot-api/substrate-bindings' dynamic builder (decoding only, in its own value shapes; the
 * packages come with @acala-network/chopsticks, not as dependencies of ours: skipped when absent),
 * and the indexer's decoder generated from the metadata (indexer/chain/event-codec.ts: plain
 * values and accounts, what the indexer uses).
 */
import { expandMetadata } from "@polkadot/types";
import type { EventRecord } from "@polkadot/types/interfaces";
import { eventCodec } from "../indexer/chain/event-codec.js";
import { decodeEvents } from "../indexer/chain/events.js";
import type { Runtime } from "../indexer/chain/runtimes.js";
import { decodeValue } from "../indexer/chain/storage.js";
import { assetHubRuntimes } from "../test/support/fake-chain.js";
import { templateEvents } from "./node/blocks.js";

const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const { A } = await assetHubRuntimes();
const rt: Runtime = { specName: A.version.specName, specVersion: A.version.specVersion, registry: A.runtime.registry, metadata: A.runtime.metadata, decorated: expandMetadata(A.runtime.registry, A.runtime.metadata) };
const events = (rt.decorated.query as unknown as { system: { events: Parameters<typeof decodeValue>[1] } }).system.events;
const blocks = Array.from({ length: 40 }, (_, t) => A.events(templateEvents(A.runtime, t)));

const rows: Record<string, string>[] = [];
function time(label: string, decode: (hex: string) => unknown): void {
  for (const hex of blocks) decode(hex); // warm, and each kind's first events checked (event-codec.ts)
  const ms: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const t0 = performance.now();
    for (const hex of blocks) decode(hex);
    ms.push((performance.now() - t0) / blocks.length);
  }
  ms.sort((a, b) => a - b);
  rows.push({ decoder: label, "ms a block (median, min–max)": `${ms[ms.length >> 1]!.toFixed(3)} (${ms[0]!.toFixed(3)}–${ms[ms.length - 1]!.toFixed(3)})` });
}

time("polkadot-js: Vec<EventRecord> codecs, then events.ts plain values (isAccount and SS58 cached)", (hex) => decodeEvents(decodeValue(rt, events, hex) as unknown as EventRecord[], 0));
time("polkadot-js: Vec<EventRecord> codecs only", (hex) => decodeValue(rt, events, hex));
try {
  const [{ getDynamicBuilder }, { metadata }] = await Promise.all([import("@polkadot-api/metadata-builders"), import("@polkadot-api/substrate-bindings")]);
  const papi = getDynamicBuilder((metadata.dec(A.metadataHex()).metadata as unknown as { value: never }).value).buildStorage("System", "Events");
  time("@polkadot-api dynamic builder: decoding only, its own shapes", (hex) => papi.dec(hex));
} catch (err) {
  rows.push({ decoder: "@polkadot-api dynamic builder", "ms a block (median, min–max)": `skipped: ${err instanceof Error ? err.message : String(err)}` });
}
const codec = eventCodec(rt);
time("indexer/chain/event-codec.ts: plain values and accounts (after)", (hex) => codec.decode(hex, 0));
console.log(`System.Events of ${blocks.length} bench-node blocks, ${ROUNDS} rounds`);
console.table(rows);
