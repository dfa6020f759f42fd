/**
 * The bench node: a WebSocket JSON-RPC server that answers as a Polkadot Asset Hub node does for
 * BLOCKS synthesized blocks of today's traffic (blocks.ts) over today's market (market.ts), with
 * the statemint 2,000,000 metadata @polkadot/types-support ships. Everything is encoded at start,
 * so an answer is a map lookup: the process measured against it is the indexer, not the node.
 * Every message waits LATENCY_MS each way (a node far away).
 *
 * Run as a child (`node --import tsx bench/node/server.ts`, bench/node/start.ts): prints one JSON
 * line {url, blocks, events} once ready; on stdin's end, or SIGTERM, it exits.
 */
import { bnToU8a, u8aToHex } from "@polkadot/util";
import { WebSocket, WebSocketServer } from "ws";
import { POLKADOT_ASSET_HUB_GENESIS } from "../../indexer/anchors.js";
import { assetHubRuntimes } from "../../test/support/fake-chain.js";
import { BenchState } from "./market.js";
import { TEMPLATES, templateEvents } from "./blocks.js";

const BLOCKS = Number(process.env.BLOCKS ?? 2_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const GENESIS_MS = 1_780_000_000_000;
const BLOCK_MS = 6_000;

const { A: codec } = await assetHubRuntimes();
const state = new BenchState(codec);
const EVENTS_KEY = codec.key("system", "events");
const NOW_KEY = codec.key("timestamp", "now");
const NUMBER_KEY = codec.key("system", "number");
const dynamic = state.dynamic();
const templates = Array.from({ length: TEMPLATES }, (_, t) => {
  const records = templateEvents(codec.runtime, t);
  return { events: codec.events(records), count: records.length };
});

/**
 * Each template's extrinsics as chain_getBlock gives them (hex, length prefix included), sized as
 * a busy block's: timestamp.set (11 bytes), parachainSystem.setValidationData carrying the relay
 * chain's state proof (INHERENT_BYTES, an assumption: a few KB; the indexer only hashes it), and
 * the mix's 9 signed extrinsics at SIGNED_BYTES (a signed transfer with its extensions ≈ 145).
 * The bytes are filler: the indexer hashes extrinsics (the ledger's extrinsicHash), it never
 * decodes them, so only their count and size cost it anything.
 */
const INHERENT_BYTES = Number(process.env.BENCH_INHERENT_BYTES ?? 8_000);
const SIGNED_BYTES = 145;
const SIGNED_PER_BLOCK = 9;
const filler = (bytes: number, seed: number) => {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (seed * 31 + i * 7) & 0xff;
  return u8aToHex(out);
};
const extrinsics = Array.from({ length: TEMPLATES }, (_, t) => [filler(11, t), filler(INHERENT_BYTES, t + 1), ...Array.from({ length: SIGNED_PER_BLOCK }, (_, i) => filler(SIGNED_BYTES, t * 16 + i + 2))]);

// Block hashes carry their number (a lookup without a table); block 0 is the real genesis, which
// the indexer's anchors know Polkadot Asset Hub by.
const SALT = "b1e5c0de".repeat(7);
const hashOf = (n: number) => (n === 0 ? POLKADOT_ASSET_HUB_GENESIS : `0x${n.toString(16).padStart(8, "0")}${SALT}`);
function numberOf(hash: unknown): number | undefined {
  if (hash === undefined || hash === null) return BLOCKS;
  const h = String(hash).toLowerCase();
  if (h === POLKADOT_ASSET_HUB_GENESIS) return 0;
  if (h.length !== 66 || !h.endsWith(SALT)) return undefined;
  const n = parseInt(h.slice(2, 10), 16);
  return n <= BLOCKS ? n : undefined;
}
function blockHash(n: unknown): string | null {
  const num = n === undefined || n === null ? BLOCKS : typeof n === "string" && n.startsWith("0x") ? parseInt(n, 16) : Number(n);
  return num >= 0 && num <= BLOCKS ? hashOf(num) : null;
}
const header = (n: number) => ({ parentHash: n === 0 ? `0x${"00".repeat(32)}` : hashOf(n - 1), number: `0x${n.toString(16)}`, stateRoot: hashOf(n).replace("0x", "0xaa").slice(0, 66), extrinsicsRoot: hashOf(n).replace("0x", "0xee").slice(0, 66), digest: { logs: [] } });
const u64 = (v: number) => u8aToHex(bnToU8a(v, { bitLength: 64 }));
const u32 = (v: number) => u8aToHex(bnToU8a(v, { bitLength: 32 }));

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function at(hash: unknown): number {
  const n = numberOf(hash);
  if (n === undefined) throw new RpcError(4003, `Client error: UnknownBlock: Header was not found in the database: ${String(hash)}`);
  return n;
}

/** The value of `key` after block `n`. */
function value(key: string, n: number): string | null {
  if (key === NOW_KEY) return u64(GENESIS_MS + n * BLOCK_MS);
  if (key === NUMBER_KEY) return u32(n);
  if (key === EVENTS_KEY) return n > 0 ? templates[n % TEMPLATES]!.events : "0x00";
  const changed = dynamic.get(key);
  if (changed) return changed(n);
  return state.fixed.get(key) ?? state.generated(key);
}

const { default: rpcList } = (await import("@polkadot/types-support/metadata/v15/asset-hub-polkadot-rpc")) as unknown as { default: { methods: string[] } };
const metadataHex = codec.metadataHex();
type Handler = (params: unknown[]) => unknown;
const handlers: Record<string, Handler> = {
  rpc_methods: () => ({ version: 1, methods: rpcList.methods.filter((m) => m in handlers) }),
  system_chain: () => "Polkadot Asset Hub",
  system_name: () => "Polkadot Parachain",
  system_version: () => "1.20.0-bench",
  system_chainType: () => "Live",
  system_properties: () => ({ ss58Format: 0, tokenDecimals: [10], tokenSymbol: ["DOT"] }),
  system_health: () => ({ peers: 8, isSyncing: false, shouldHavePeers: true }),
  // A number or a list of them, as sc-rpc takes (ListOrValue).
  chain_getBlockHash: ([n]) => (Array.isArray(n) ? n.map(blockHash) : blockHash(n)),
  chain_getHeader: ([hash]) => {
    const n = numberOf(hash);
    return n === undefined ? null : header(n);
  },
  chain_getBlock: ([hash]) => {
    const n = numberOf(hash);
    return n === undefined ? null : { block: { header: header(n), extrinsics: n > 0 ? extrinsics[n % TEMPLATES]! : [] }, justifications: null };
  },
  chain_getFinalizedHead: () => hashOf(BLOCKS),
  state_getRuntimeVersion: ([hash]) => (at(hash), codec.version),
  state_getMetadata: ([hash]) => (at(hash), metadataHex),
  state_getStorage: ([key, hash]) => value(String(key), at(hash)),
  state_queryStorageAt: ([keys, hash]) => {
    const n = at(hash);
    return [{ block: hashOf(n), changes: (keys as string[]).map((k) => [k, value(k, n)]) }];
  },
  state_getKeysPaged: ([prefix, count, startKey, hash]) => {
    at(hash);
    const p = String(prefix ?? "0x");
    const after = typeof startKey === "string" && startKey.length > 2 ? startKey : "";
    return state.keys.filter((k) => k.startsWith(p) && k > after).slice(0, Number(count));
  },
  state_call: ([method, data, hash]) => {
    at(hash);
    const answer = codec.call(String(method), String(data ?? "0x"));
    if (answer === undefined) throw new RpcError(-32000, `Client error: Execution failed: Other: Exported method ${String(method)} is not found`);
    return answer;
  },
};
handlers.chain_getFinalisedHead = handlers.chain_getFinalizedHead!;
handlers.chain_getRuntimeVersion = handlers.state_getRuntimeVersion!;
handlers.state_getStorageAt = handlers.state_getStorage!;

/** Subscriptions are answered with an id and the current value once: the chain never moves. */
const SUBSCRIBE: Record<string, [notify: string, first: () => unknown]> = {
  state_subscribeRuntimeVersion: ["state_runtimeVersion", () => codec.version],
  chain_subscribeRuntimeVersion: ["state_runtimeVersion", () => codec.version],
  chain_subscribeFinalizedHeads: ["chain_finalizedHead", () => header(BLOCKS)],
  chain_subscribeNewHeads: ["chain_newHead", () => header(BLOCKS)],
  chain_subscribeAllHeads: ["chain_allHead", () => header(BLOCKS)],
};

const later = (fn: () => void) => (LATENCY_MS > 0 ? setTimeout(fn, LATENCY_MS) : fn());
const server = new WebSocketServer({ port: 0, host: "127.0.0.1", maxPayload: 256 * 1024 * 1024 });
let subscriptions = 0;
server.on("connection", (socket) => {
  const send = (message: object) => later(() => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message)));
  socket.on("message", (data) =>
    later(() => {
      const req = JSON.parse(data.toString()) as { id: number; method: string; params?: unknown[] };
      const params = req.params ?? [];
      const sub = SUBSCRIBE[req.method];
      if (sub) {
        const id = `bench-${++subscriptions}`;
        send({ jsonrpc: "2.0", id: req.id, result: id });
        return send({ jsonrpc: "2.0", method: sub[0], params: { subscription: id, result: sub[1]() } });
      }
      if (req.method.includes("_unsubscribe")) return send({ jsonrpc: "2.0", id: req.id, result: true });
      const handler = handlers[req.method];
      if (!handler) {
        process.stderr.write(`bench node: method not implemented: ${req.method}\n`);
        return send({ jsonrpc: "2.0", id: req.id, error: { code: -32601, message: "Method not found" } });
      }
      try {
        send({ jsonrpc: "2.0", id: req.id, result: handler(params) });
      } catch (err) {
        send({ jsonrpc: "2.0", id: req.id, error: { code: err instanceof RpcError ? err.code : -32603, message: err instanceof Error ? err.message : String(err) } });
      }
    }),
  );
});
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
const { port } = server.address() as { port: number };
const events = templates.reduce((s, t) => s + t.count, 0) / TEMPLATES;
process.stdout.write(`${JSON.stringify({ url: `ws://127.0.0.1:${port}`, blocks: BLOCKS, eventsPerBlock: Number(events.toFixed(1)) })}\n`);
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.stdin.on("end", stop).resume();
