/**
 * The node as the indexer reaches it: blocks by number, the state after a block read with the
 * runtime that wrote it (runtimes.ts, storage.ts), the finalized head, whether a state is still
 * kept. All over raw JSON-RPC: polkadot-js' rpc methods that take a block hash look up (and
 * memoize for the life of the connection) a type registry for that hash.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { lpFeePpm } from "./runtime.js";
import type { ChainRpc } from "./rpc.js";
import { LAST_UPGRADE_KEY, Runtimes } from "./runtimes.js";
import { storageAt, type At } from "./storage.js";

/** The state after one block, read with the runtime that wrote it. */
export interface BlockState {
  number: number;
  hash: string;
  at: At;
  timestamp: number;
}

export interface ChainIdentity {
  genesisHash: string;
  specName: string;
}

/** Runtimes of a connection, for the readers that share them (ChainNode's `shareRuntimes`). */
const sharedRuntimes = new WeakMap<ApiPromise, Runtimes>();

export class ChainNode {
  readonly ss58: number;
  readonly native: { symbol: string; decimals: number };
  readonly identity: ChainIdentity;

  /**
   * `shareRuntimes`: use the runtimes the connection's other sharing readers built (a backfill's
   * chunks, each a reader of its own on one connection: each built its runtime's registry and
   * decoders again from ~1 MB of metadata). A runtime is still confirmed from each block's state.
   */
  constructor(
    readonly api: ApiPromise,
    shareRuntimes = false,
  ) {
    const props = api.registry.getChainProperties();
    this.ss58 = props?.ss58Format.unwrapOr(undefined)?.toNumber() ?? api.registry.chainSS58 ?? 42;
    this.native = {
      symbol: props?.tokenSymbol.unwrapOr(undefined)?.[0]?.toString() ?? "UNIT",
      decimals: props?.tokenDecimals.unwrapOr(undefined)?.[0]?.toNumber() ?? 12,
    };
    this.identity = { genesisHash: api.genesisHash.toHex(), specName: api.runtimeVersion.specName.toString() };
    // Raw calls: polkadot-js' rpc methods that take a block hash look up (and memoize for the
    // life of the connection) a type registry for that hash; the indexer picks each block's
    // runtime itself (runtimes.ts).
    const provider = (api as unknown as { _rpcCore?: { provider?: ChainRpc } })._rpcCore?.provider;
    this.rpc = { send: (method, params) => provider!.send(method, params) };
    let runtimes = shareRuntimes ? sharedRuntimes.get(api) : undefined;
    if (!runtimes) {
      runtimes = new Runtimes(this.rpc, props);
      if (shareRuntimes) sharedRuntimes.set(api, runtimes);
    }
    this.runtimes = runtimes;
  }

  readonly rpc: ChainRpc;
  /** The runtimes blocks were executed by, each confirmed from the block's own state. */
  readonly runtimes: Runtimes;

  /** The LP fee of the block's runtime, in parts per million (null without asset conversion). */
  lpFeePpm(at: At): bigint | null {
    return lpFeePpm(at);
  }

  /** The hash of block `number`; throws when the chain has no such block (yet). */
  async hashOf(number: number): Promise<string> {
    const hash = await this.hashAt(number);
    if (hash === undefined) throw new Error(`the node has no block ${number}`);
    return hash;
  }

  /**
   * The state after block `hash` (number, storage with the runtime that wrote it, timestamp):
   * a bootstrap's pinned block, a backfill chunk's start, the block `verify` compares at.
   */
  async stateAt(hash: string, number?: number): Promise<BlockState> {
    const runtime = await this.runtimes.ofState(hash);
    const at = storageAt(this.rpc, runtime, hash);
    const [now, header] = await Promise.all([at.query.timestamp.now(), number === undefined ? this.rpc.send<{ number: string }>("chain_getHeader", [hash]) : undefined]);
    return { number: number ?? Number(header!.number), hash, at, timestamp: Math.floor(Number(now.toString()) / 1000) };
  }

  /** The state after block `number` (see stateAt). */
  async block(number: number): Promise<BlockState> {
    return this.stateAt(await this.hashOf(number), number);
  }

  async blockByHash(hash: string, number?: number): Promise<BlockState> {
    return this.stateAt(hash, number);
  }

  /** The hash of block `number` on this chain, or undefined when the chain has no such block yet. */
  async hashAt(number: number): Promise<string | undefined> {
    const hash = await this.rpc.send<string | null>("chain_getBlockHash", [number]);
    return hash === null || /^0x0*$/.test(hash) ? undefined : hash;
  }

  /** Nodes found to answer chain_getBlockHash of a list otherwise than with a list: asked one block at a time. */
  private hashListsRefused = false;

  /**
   * The hashes of blocks `numbers`, in order (undefined where the chain has no such block yet), in
   * one chain_getBlockHash call: sc-rpc takes a list (ListOrValue) since 2019, chopsticks too. A
   * node that answers a list with anything but a list of as many is asked block by block from
   * then on.
   */
  async hashesAt(numbers: number[]): Promise<(string | undefined)[]> {
    if (!this.hashListsRefused && numbers.length > 1) {
      const answer = await this.rpc.send<unknown>("chain_getBlockHash", [numbers]).catch(() => undefined);
      if (Array.isArray(answer) && answer.length === numbers.length) return answer.map((h: unknown) => (typeof h === "string" && !/^0x0*$/.test(h) ? h : undefined));
      this.hashListsRefused = true;
    }
    return Promise.all(numbers.map((n) => this.hashAt(n)));
  }

  /**
   * Whether the node still has the state of block `hash` (a pruned node keeps the last 256
   * blocks' by default). Other failures (a dropped socket) are thrown, not taken for pruning.
   */
  async hasState(hash: string): Promise<boolean> {
    try {
      await this.rpc.send("state_getStorage", [LAST_UPGRADE_KEY, hash]);
      return true;
    } catch (err) {
      if (isStateDiscarded(err)) return false;
      throw err;
    }
  }

  async finalizedHead(): Promise<{ number: number; hash: string }> {
    const hash = await this.rpc.send<string>("chain_getFinalizedHead", []);
    const header = await this.rpc.send<{ number: string }>("chain_getHeader", [hash]);
    return { number: Number(header.number), hash };
  }
}

/**
 * True when an RPC error says the node no longer has a block's state: a pruned node (the
 * default keeps 256 blocks) answers "UnknownBlock: State already discarded for 0x…"; older
 * nodes said "Api called for an unknown Block: State already discarded".
 */
export function isStateDiscarded(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /state already discarded|unknown block/i.test(message);
}

/**
 * A block whose state the node no longer has, met by a batch (catch-up.ts) or a re-read
 * (reread.ts); the follower's session catches it: fatal, or a re-bootstrap.
 */
export class StateDiscardedAt extends Error {
  constructor(
    readonly block: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}
