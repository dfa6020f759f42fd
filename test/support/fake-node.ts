/**
 * An in-process JSON-RPC WebSocket server that answers as a Polkadot Asset Hub node does for a
 * chain built with fake-chain.ts — no wasm, storage and events encoded with the runtimes' own
 * types. Versions and metadata follow the code in the state at the hash asked (at the applying
 * block U already the new runtime's), without a hash the best block's. Blocks past the best
 * one do not exist yet; `finalize(n)` makes them appear at once (finality that jumps, as after
 * a restart or a stall). Every call is counted; a method it does not implement is answered with
 * an error and listed in `unimplemented`.
 *
 * Attacks: `lateVersion` — state_getRuntimeVersion, state_getMetadata and the runtime calls at
 * U and U + 1 still answer the old runtime (storage, :code and System.LastRuntimeUpgrade stay
 * true); `lateMetadata` — only state_getMetadata and the Metadata_* calls at U and U + 1 still
 * answer the old runtime's metadata (the version is right); `latencyMs` — every message waits
 * that long each way.
 */
import { WebSocket, WebSocketServer } from "ws";
import { blake2AsHex } from "@polkadot/util-crypto";
import type { FakeBlock, FakeChain } from "./fake-chain.js";
import type { RuntimeCodec } from "./fake-storage.js";

export interface FakeNodeOptions {
  /** The best and finalized block at start. Default: the last block. */
  finalized?: number;
  lateVersion?: boolean;
  lateMetadata?: boolean;
  latencyMs?: number;
}

export interface FakeNode {
  url: string;
  chain: FakeChain;
  /** Requests by method (runtime calls also as "state_call:<name>"). */
  calls: Map<string, number>;
  /** Methods asked that the node does not implement (answered with an error), in order. */
  unimplemented: string[];
  readonly finalized: number;
  /** Makes blocks up to `n` the best and finalized ones, and tells the subscribers. */
  finalize(n: number): void;
  /** Requests of `methods` (default: all), runtime calls counted once under state_call. */
  total(methods?: string[]): number;
  close(): Promise<void>;
}

interface Request {
  id: number | string;
  method: string;
  params?: unknown[];
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const SUBSCRIPTIONS: Record<string, { notify: string; kind: "finalized" | "new" | "version" }> = {
  chain_subscribeFinalizedHeads: { notify: "chain_finalizedHead", kind: "finalized" },
  chain_subscribeFinalisedHeads: { notify: "chain_finalizedHead", kind: "finalized" },
  chain_subscribeNewHeads: { notify: "chain_newHead", kind: "new" },
  chain_subscribeNewHead: { notify: "chain_newHead", kind: "new" },
  chain_subscribeAllHeads: { notify: "chain_allHead", kind: "new" },
  state_subscribeRuntimeVersion: { notify: "state_runtimeVersion", kind: "version" },
  chain_subscribeRuntimeVersion: { notify: "state_runtimeVersion", kind: "version" },
};
const UNSUBSCRIBE = new Set(Object.keys(SUBSCRIPTIONS).map((m) => m.replace("_subscribe", "_unsubscribe")));
/** The other names sc-rpc answers the same methods under. */
const ALIASES: Record<string, string> = {
  chain_getHead: "chain_getBlockHash",
  chain_getFinalisedHead: "chain_getFinalizedHead",
  chain_getRuntimeVersion: "state_getRuntimeVersion",
  state_getStorageAt: "state_getStorage",
  state_getStorageHashAt: "state_getStorageHash",
  state_getStorageSizeAt: "state_getStorageSize",
  state_getKeysPagedAt: "state_getKeysPaged",
  state_callAt: "state_call",
};

/** The chain as the node sees it: which blocks exist, and which runtime it reports at each. */
class NodeView {
  private readonly byHash: Map<string, FakeBlock>;

  constructor(
    readonly chain: FakeChain,
    public finalized: number,
    private readonly lateVersion: boolean,
    private readonly lateMetadata = false,
  ) {
    this.byHash = new Map(chain.blocks.map((b) => [b.hash, b]));
  }

  best(): FakeBlock {
    return this.chain.blocks[this.finalized]!;
  }

  /** A block the node has (the best one without a hash); undefined for others. */
  visible(hash: unknown): FakeBlock | undefined {
    if (hash === undefined || hash === null) return this.best();
    const block = this.byHash.get(String(hash).toLowerCase());
    return block && block.number <= this.finalized ? block : undefined;
  }

  /** A block for a state call: an unknown one (or past the best) is sc-rpc's UnknownBlock error. */
  at(hash: unknown): FakeBlock {
    const block = this.visible(hash);
    if (!block) throw new RpcError(4003, `Client error: UnknownBlock: Header was not found in the database: ${String(hash)}`);
    return block;
  }

  /** The runtime the node reports at `block`: the code in its state, unless it lags (lateVersion). */
  reported(block: FakeBlock): RuntimeCodec {
    const u = this.chain.upgradeAt;
    const late = this.lateVersion && u !== undefined && (block.number === u || block.number === u + 1);
    return this.chain.runtimes[late ? "A" : block.code];
  }

  /** The runtime whose metadata the node answers at `block` (lateMetadata: the old one at U and U + 1). */
  metadata(block: FakeBlock): RuntimeCodec {
    const u = this.chain.upgradeAt;
    return this.lateMetadata && u !== undefined && (block.number === u || block.number === u + 1) ? this.chain.runtimes.A : this.reported(block);
  }
}

type Handler = (params: unknown[]) => unknown;

function blockNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string") return value.startsWith("0x") ? parseInt(value, 16) : Number(value);
  return undefined;
}

function chainHandlers(view: NodeView, rpcMethods: () => string[]): Record<string, Handler> {
  const block = (b: FakeBlock | undefined) => (b ? { block: { header: b.header, extrinsics: [] }, justifications: null } : null);
  return {
    rpc_methods: () => ({ version: 1, methods: rpcMethods() }),
    system_chain: () => "Polkadot Asset Hub",
    system_name: () => "Polkadot Parachain",
    system_version: () => "1.17.0-fake",
    system_properties: () => ({ ss58Format: 0, tokenDecimals: [10], tokenSymbol: ["DOT"] }),
    system_health: () => ({ peers: 8, isSyncing: false, shouldHavePeers: true }),
    chain_getBlockHash: ([n]) => {
      const at = n === undefined || n === null ? view.finalized : blockNumber(n);
      return at !== undefined && at >= 0 && at <= view.finalized ? view.chain.blocks[at]!.hash : null;
    },
    chain_getHeader: ([hash]) => view.visible(hash)?.header ?? null,
    chain_getBlock: ([hash]) => block(view.visible(hash)),
    chain_getFinalizedHead: () => view.best().hash,
    state_getRuntimeVersion: ([hash]) => view.reported(view.at(hash)).version,
    state_getMetadata: ([hash]) => view.metadata(view.at(hash)).metadataHex(),
  };
}

function stateHandlers(view: NodeView, onCall: (name: string) => void, unimplemented: string[]): Record<string, Handler> {
  const value = (key: unknown, hash: unknown) => view.at(hash).storage.get(String(key));
  return {
    state_getStorage: ([key, hash]) => value(key, hash) ?? null,
    state_getStorageHash: ([key, hash]) => {
      const v = value(key, hash);
      return v === undefined ? null : blake2AsHex(v);
    },
    state_getStorageSize: ([key, hash]) => {
      const v = value(key, hash);
      return v === undefined ? null : (v.length - 2) / 2;
    },
    state_queryStorageAt: ([keys, hash]) => {
      const b = view.at(hash);
      return [{ block: b.hash, changes: (keys as string[]).map((k) => [k, b.storage.get(k) ?? null]) }];
    },
    state_getKeysPaged: ([prefix, count, startKey, hash]) => {
      const p = String(prefix ?? "0x");
      const after = typeof startKey === "string" && startKey.length > 2 ? startKey : "";
      return view.at(hash).keys.filter((k) => k.startsWith(p) && k > after).slice(0, Number(count));
    },
    state_getKeys: ([prefix, hash]) => view.at(hash).keys.filter((k) => k.startsWith(String(prefix ?? "0x"))),
    state_call: ([method, data, hash]) => {
      const name = String(method);
      onCall(`state_call:${name}`);
      const block = view.at(hash);
      const answer = (name.startsWith("Metadata_") ? view.metadata(block) : view.reported(block)).call(name, String(data ?? "0x"));
      if (answer !== undefined) return answer;
      unimplemented.push(`state_call:${name}`);
      throw new RpcError(-32000, `Client error: Execution failed: Other: Exported method ${name} is not found`);
    },
  };
}

export async function startFakeNode(chain: FakeChain, options: FakeNodeOptions = {}): Promise<FakeNode> {
  const { default: rpc } = (await import("@polkadot/types-support/metadata/v15/asset-hub-polkadot-rpc")) as unknown as { default: { methods: string[] } };
  const view = new NodeView(chain, options.finalized ?? chain.blocks.length - 1, options.lateVersion ?? false, options.lateMetadata ?? false);
  const calls = new Map<string, number>();
  const count = (method: string) => calls.set(method, (calls.get(method) ?? 0) + 1);
  const unimplemented: string[] = [];
  // A real node's list, less what this one does not answer: a client that checks it is not misled.
  const methods = (): string[] => rpc.methods.filter((m) => m in handlers || m in SUBSCRIPTIONS || UNSUBSCRIBE.has(m));
  const handlers: Record<string, Handler> = { ...chainHandlers(view, methods), ...stateHandlers(view, count, unimplemented) };
  for (const [alias, method] of Object.entries(ALIASES)) handlers[alias] = handlers[method]!;
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1", maxPayload: 256 * 1024 * 1024 });
  const subs = new Subscriptions(view, options.latencyMs ?? 0);

  const answer = (socket: WebSocket, req: Request) => {
    const params = req.params ?? [];
    count(req.method);
    const reply = (body: object) => subs.send(socket, { jsonrpc: "2.0", id: req.id, ...body });
    if (req.method in SUBSCRIPTIONS) return subs.open(socket, req.method, (id) => reply({ result: id }));
    if (UNSUBSCRIBE.has(req.method)) return reply({ result: subs.close(String(params[0])) });
    const handler = handlers[req.method];
    if (!handler) {
      unimplemented.push(req.method);
      return reply({ error: { code: -32601, message: "Method not found" } });
    }
    try {
      reply({ result: handler(params) });
    } catch (err) {
      reply({ error: { code: err instanceof RpcError ? err.code : -32603, message: err instanceof Error ? err.message : String(err) } });
    }
  };

  server.on("connection", (socket) => {
    subs.sockets.add(socket);
    socket.on("close", () => subs.drop(socket));
    socket.on("message", (data) =>
      subs.later(() => {
        let req: Request;
        try {
          req = JSON.parse(data.toString()) as Request;
        } catch {
          return subs.send(socket, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
        }
        answer(socket, req);
      }),
    );
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    chain,
    calls,
    unimplemented,
    get finalized() {
      return view.finalized;
    },
    finalize: (n) => subs.finalize(n),
    total: (only) => [...calls].filter(([m]) => !m.startsWith("state_call:") && (!only || only.includes(m))).reduce((a, [, c]) => a + c, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of subs.sockets) s.terminate();
        server.close(() => resolve());
      }),
  };
}

/** Open sockets and their subscriptions; what a new head or a new runtime tells each. */
class Subscriptions {
  readonly sockets = new Set<WebSocket>();
  private readonly subs = new Map<string, { socket: WebSocket; notify: string; kind: string }>();
  private next = 1;

  constructor(
    private readonly view: NodeView,
    private readonly latencyMs: number,
  ) {}

  later(fn: () => void): void {
    if (this.latencyMs > 0) setTimeout(fn, this.latencyMs);
    else fn();
  }

  send(socket: WebSocket, message: unknown): void {
    this.later(() => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message)));
  }

  /** A new subscription: its id is answered first, then (as a node does) the current head or version. */
  open(socket: WebSocket, method: string, answerId: (id: string) => void): void {
    const { notify, kind } = SUBSCRIPTIONS[method]!;
    const id = `fake-${this.next++}`;
    this.subs.set(id, { socket, notify, kind });
    answerId(id);
    this.push(id, kind === "version" ? this.view.reported(this.view.best()).version : this.view.best().header);
  }

  close(id: string): boolean {
    return this.subs.delete(id);
  }

  drop(socket: WebSocket): void {
    this.sockets.delete(socket);
    for (const [id, s] of this.subs) if (s.socket === socket) this.subs.delete(id);
  }

  private push(id: string, result: unknown): void {
    const sub = this.subs.get(id);
    if (sub) this.send(sub.socket, { jsonrpc: "2.0", method: sub.notify, params: { subscription: id, result } });
  }

  finalize(n: number): void {
    const { chain } = this.view;
    if (n >= chain.blocks.length) throw new Error(`the chain has ${chain.blocks.length - 1} blocks, not ${n}`);
    const before = this.view.reported(this.view.best()).version.specVersion;
    const from = this.view.finalized;
    this.view.finalized = Math.max(from, n);
    for (const [id, s] of this.subs) {
      if (s.kind === "new") for (let b = from + 1; b <= this.view.finalized; b++) this.push(id, chain.blocks[b]!.header);
      if (s.kind === "finalized" && this.view.finalized > from) this.push(id, this.view.best().header);
      if (s.kind === "version" && this.view.reported(this.view.best()).version.specVersion !== before) this.push(id, this.view.reported(this.view.best()).version);
    }
  }
}
