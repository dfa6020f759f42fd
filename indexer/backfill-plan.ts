/**
 * The plan of a backfill: which blocks (`--all`: the whole chain before the follower's
 * checkpoint), which runtimes executed them, and the chunks, cut at every runtime upgrade and
 * ordered newest first.
 *
 * Why newest first: the follower's history ends the store's history at the top, so chunks taken
 * from the top down extend it backward without a hole: the store's first event block
 * (`historyFrom`) moves back steadily and the only gaps are the chunks in flight (each walks its
 * blocks upward from the market at its start). Oldest first would put `historyFrom` at block 1
 * after the first chunk and leave one gap the size of the whole rest of the run, so every answer
 * about the last weeks would stay incomplete until the very end.
 */
import type { ApiPromise } from "@polkadot/api";
import { Metadata, TypeRegistry } from "@polkadot/types";
import { eventRangesIn, getCheckpoint, PARTITION_BLOCKS, type Database } from "../db/index.js";
import { BackfillRangeError, splitRange, type BlockRange } from "./backfill.js";

export interface RuntimeSegment extends BlockRange {
  specName: string;
  specVersion: number;
}

export interface RangeArgs {
  from?: number;
  to?: number;
  /** From block 1 to the default end. */
  all?: boolean;
}

/** The range a command asks for; `to` defaults to the follower's checkpoint, or the finalized head of a store without one. */
export async function resolveRange(db: Database, api: ApiPromise, args: RangeArgs): Promise<BlockRange & { toSource: "--to" | "checkpoint" | "finalized" }> {
  if (args.all && args.from !== undefined && args.from !== 1) throw new BackfillRangeError(`--all is --from 1; drop --from ${args.from} or --all`);
  const from = args.all ? 1 : args.from;
  if (from === undefined) throw new BackfillRangeError("give --from <block> (with or without --to), or --all");
  if (args.to !== undefined) return { from, to: args.to, toSource: "--to" };
  const cp = await getCheckpoint(db);
  if (cp) return { from, to: cp.blockNumber, toSource: "checkpoint" };
  const finalized = (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toNumber();
  return { from, to: finalized, toSource: "finalized" };
}

interface Spec {
  specName: string;
  specVersion: number;
}
const same = (a: Spec, b: Spec) => a.specName === b.specName && a.specVersion === b.specVersion;

/**
 * The runtimes that executed the blocks of `range`, oldest first. Block n runs the code in the
 * state of block n − 1, so the version read at state n − 1 (state_getRuntimeVersion) is block
 * n's runtime. Versions only go up (frame_system refuses a `set_code` whose spec_version is not
 * higher), so two states with the same version have no upgrade between them: a bisection finds
 * each upgrade in about log2(blocks) reads, run in parallel.
 */
export async function runtimeSegments(api: ApiPromise, range: BlockRange): Promise<{ segments: RuntimeSegment[]; reads: number }> {
  const memo = new Map<number, Promise<Spec>>();
  const at = (n: number): Promise<Spec> => {
    let v = memo.get(n);
    if (!v) {
      v = api.rpc.chain.getBlockHash(n).then(async (hash) => {
        // Raw: decoded, polkadot-js would first build the registry of the block's runtime from
        // its parent's state (a header, a version and a metadata of ~1 MB per runtime).
        const r = await api.rpc.state.getRuntimeVersion.raw<{ specName: string; specVersion: number }>(hash).catch((err: unknown) => {
          throw prunedError(err, n);
        });
        return { specName: String(r.specName), specVersion: Number(r.specVersion) };
      });
      memo.set(n, v);
    }
    return v;
  };
  // States lo < n ≤ hi whose version differs from the state before them.
  const changes = async (lo: number, vlo: Spec, hi: number, vhi: Spec): Promise<number[]> => {
    if (same(vlo, vhi)) return [];
    if (hi - lo === 1) return [hi];
    const mid = Math.floor((lo + hi) / 2);
    const vmid = await at(mid);
    const [a, b] = await Promise.all([changes(lo, vlo, mid, vmid), changes(mid, vmid, hi, vhi)]);
    return [...a, ...b];
  };
  const [lo, hi] = [range.from - 1, range.to - 1];
  const [vlo, vhi] = await Promise.all([at(lo), at(hi)]);
  const starts = [range.from, ...(await changes(lo, vlo, hi, vhi)).map((n) => n + 1)];
  const segments = await Promise.all(
    starts.map(async (from, i) => ({ from, to: (starts[i + 1] ?? range.to + 1) - 1, ...(await at(from - 1)) })),
  );
  return { segments, reads: memo.size };
}

/** A pruned node's answer, said as what to do about it; any other error as it is. */
function prunedError(err: unknown, n: number): unknown {
  const message = err instanceof Error ? err.message : String(err);
  if (!/state already discarded|unknown block/i.test(message)) return err;
  return new BackfillRangeError(
    `the node at WS_URL no longer has the state of block ${n} (${message}): a backfill reads chain state at the block before each chunk and at every block of it; point WS_URL at an archive node`,
  );
}

/**
 * Refuses a range whose oldest runtime's metadata @polkadot/types cannot decode (it reads
 * metadata v9 to v16; every Asset Hub runtime since genesis has v12 or newer), naming the first
 * block of the oldest runtime it can. One metadata read, more only when refused: metadata
 * versions only go up across upgrades. Nothing else of the oldest runtimes is required: pallets
 * a runtime lacks (asset conversion before 2023, ForeignAssets) are read as empty, and a block
 * without System.LastRuntimeUpgrade or System.Version is told its runtime by the node's version
 * (indexer/chain/runtimes.ts).
 */
export async function checkDecodable(api: ApiPromise, segments: RuntimeSegment[]): Promise<void> {
  const decodes = async (s: RuntimeSegment) => {
    const hash = await api.rpc.chain.getBlockHash(s.from - 1);
    // Raw: api.rpc would decode it with the connection's registry, and throw the reason away.
    const hex = await api.rpc.state.getMetadata.raw(hash);
    try {
      new Metadata(new TypeRegistry(), hex as `0x${string}`);
      return undefined;
    } catch (err) {
      // One line: polkadot-js' decoding errors span several.
      return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").trim();
    }
  };
  const why = await decodes(segments[0]!);
  if (why === undefined) return;
  const s = segments[0]!;
  let next: RuntimeSegment | undefined;
  for (const c of segments.slice(1)) if ((await decodes(c)) === undefined && (next = c)) break;
  const advice = next ? `; backfill from block ${next.from} (${next.specName} ${next.specVersion}) instead` : "";
  throw new BackfillRangeError(`blocks ${s.from}–${s.to} were executed by ${s.specName} ${s.specVersion}, whose metadata cannot be decoded (${why})${advice}`);
}

/**
 * The most chunks a plan may have: each is an object of the plan, a job id and a BullMQ job in
 * Redis. `--all --chunk 1` on an 18M-block chain would be 18M of each (gigabytes in the CLI and
 * in Redis, enqueued one by one) before a block is indexed; 18M blocks by 100 are 180,000.
 */
export const MAX_CHUNKS = 200_000;

/**
 * `segments` cut where a partition of the history tables begins (every PARTITION_BLOCKS blocks):
 * each chunk then lies in one partition, which the bulk path needs (a stage is one partition's).
 */
function byPartition(segments: RuntimeSegment[]): RuntimeSegment[] {
  return segments.flatMap((s) => {
    const out: RuntimeSegment[] = [];
    for (let from = s.from; from <= s.to; ) {
      const to = Math.min(s.to, from - (from % PARTITION_BLOCKS) + PARTITION_BLOCKS - 1);
      out.push({ ...s, from, to });
      from = to + 1;
    }
    return out;
  });
}

/** Chunks of at most `size` blocks, none across a runtime upgrade or a partition's first block, newest first. */
export function planChunks(runtimes: RuntimeSegment[], size: number): BlockRange[] {
  const segments = byPartition(runtimes);
  const count = (n: number) => segments.reduce((sum, s) => sum + Math.ceil((s.to - s.from + 1) / n), 0);
  if (count(size) > MAX_CHUNKS) {
    const blocks = segments.reduce((n, s) => n + s.to - s.from + 1, 0);
    // Each runtime's last chunk may be short: the size that fits can be a little above the mean.
    let fits = Math.ceil(blocks / MAX_CHUNKS);
    while (count(fits) > MAX_CHUNKS) fits++;
    throw new BackfillRangeError(`${blocks} blocks in chunks of ${size} are ${count(size)} chunks, more than ${MAX_CHUNKS}: give --chunk ${fits} or more`);
  }
  return segments.flatMap((s) => splitRange(s, size)).reverse();
}

/** The chunks whose every block's events the store already holds (the follower's blocks, a finished run's). */
export async function coveredChunks(db: Database, chunks: BlockRange[]): Promise<Set<BlockRange>> {
  if (chunks.length === 0) return new Set();
  // A loop, not Math.min(...): a whole chain in small chunks (18M blocks by 100: 180,000) is more
  // arguments than a call takes (RangeError: Maximum call stack size exceeded).
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of chunks) {
    if (c.from < lo) lo = c.from;
    if (c.to > hi) hi = c.to;
  }
  const ranges = await eventRangesIn(db, lo, hi);
  // Ranges are merged (no two touch) and in order, so a covered chunk lies inside the last one
  // starting at or before it: a binary search, not every range for every chunk.
  const inside = (c: BlockRange) => {
    let [a, b] = [0, ranges.length - 1];
    while (a < b) {
      const m = Math.ceil((a + b) / 2);
      if (ranges[m]!.fromBlock <= c.from) a = m;
      else b = m - 1;
    }
    const r = ranges[a];
    return r !== undefined && r.fromBlock <= c.from && r.toBlock >= c.to;
  };
  return new Set(chunks.filter(inside));
}
