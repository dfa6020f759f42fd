/**
 * An RPC double for bootstrap sizes the devnet cannot hold: a WebSocket JSON-RPC server in front
 * of the devnet that serves System.Account and Assets.Account from generated storage — ACCOUNTS
 * native accounts and ASSET_ACCOUNTS asset accounts over the devnet's own assets — through the
 * same methods a node answers (`state_getKeysPaged`, `state_queryStorageAt`), and relays every
 * other call to the devnet. Every message waits LATENCY_MS each way (a node far away).
 *
 * Run as a child process (`tsx bench/rpc-double.ts`): it starts its own devnet, and prints one
 * JSON line {url, accounts, assetAccounts} once the storage is generated.
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import { bnToU8a, hexToU8a, u8aConcat, u8aToHex } from "@polkadot/util";
import { blake2AsU8a } from "@polkadot/util-crypto";
import { WebSocket, WebSocketServer } from "ws";
import { startDevnet } from "../indexer/devnet/chopsticks.js";
import { loadConfig } from "../shared/config.js";

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 1_000_000);
const ASSET_ACCOUNTS = Number(process.env.ASSET_ACCOUNTS ?? 200_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);

/** A deterministic stream of pseudo-random bytes (xorshift32): the same storage on every run. */
function bytes(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

const blake2_128Concat = (data: Uint8Array) => u8aConcat(blake2AsU8a(data, 128), data);

interface Map {
  prefix: string;
  keys: string[];
  values: Map2;
}
type Map2 = globalThis.Map<string, string>;

async function generate(api: ApiPromise): Promise<Map[]> {
  const rand = bytes(20_261_124);
  const native: Map = { prefix: api.query.system.account.keyPrefix(), keys: [], values: new globalThis.Map() };
  const template = api.registry.createType("AccountInfo", { nonce: 0, consumers: 0, providers: 1, sufficients: 0, data: { free: 1, reserved: 0, frozen: 0, flags: 0 } }).toU8a();
  const nativePrefix = hexToU8a(api.query.system.account.keyPrefix());
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = rand(32);
    const key = u8aToHex(u8aConcat(nativePrefix, blake2_128Concat(account)));
    const value = template.slice();
    // AccountInfo: nonce, consumers, providers, sufficients (4 × u32), then data.free (u128 LE).
    value.set(bnToU8a(BigInt(1 + (i % 1_000_000)) * 1_000_000n, { bitLength: 128 }), 16);
    native.keys.push(key);
    native.values.set(key, u8aToHex(value));
  }
  // The devnet's assets, or (a fresh devnet has none) the ids of the seeded market's.
  const existing = (await api.query.assets.asset.keys()).map((k) => Number(k.args[0]!.toString()));
  const assetIds = existing.length > 0 ? existing : [1984, 10, 18, 21, 42];
  const assets: Map = { prefix: api.query.assets.account.keyPrefix(), keys: [], values: new globalThis.Map() };
  const accountType = api.registry.lookup.getTypeDef(api.query.assets.account.creator.meta.type.asMap.value).type;
  const assetTemplate = api.registry.createType(accountType, { balance: 1, status: "Liquid", isFrozen: false, reason: "Consumer", extra: null }).toU8a();
  const assetPrefix = hexToU8a(api.query.assets.account.keyPrefix());
  for (let i = 0; i < ASSET_ACCOUNTS; i++) {
    const assetId = assetIds[i % assetIds.length]!;
    const key = u8aToHex(u8aConcat(assetPrefix, blake2_128Concat(bnToU8a(assetId, { bitLength: 32 })), blake2_128Concat(rand(32))));
    const value = assetTemplate.slice();
    value.set(bnToU8a(BigInt(1 + i) * 1_000n, { bitLength: 128 }), 0);
    assets.keys.push(key);
    assets.values.set(key, u8aToHex(value));
  }
  for (const m of [native, assets]) m.keys.sort();
  return [native, assets];
}

/** First index in sorted `keys` whose key is greater than `after`. */
function after(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function main(): Promise<void> {
  const devnet = await startDevnet({ genesis: loadConfig().devnetGenesis, port: 0 });
  const upstreamUrl = devnet.wsUrl;
  const api = await ApiPromise.create({ provider: new WsProvider(upstreamUrl), noInitWarn: true });
  const maps = await generate(api);
  await api.disconnect();
  const mapOf = (key: string) => maps.find((m) => key.startsWith(m.prefix));
  const answer = (req: { id: unknown; method: string; params: unknown[] }): unknown => {
    if (req.method === "state_getKeysPaged") {
      const [prefix, count, startKey] = req.params as [string, number, string | null];
      const map = maps.find((m) => m.prefix === prefix);
      if (!map) return undefined;
      const from = startKey ? after(map.keys, startKey) : 0;
      return map.keys.slice(from, from + count);
    }
    if (req.method === "state_queryStorageAt") {
      const [keys, at] = req.params as [string[], string | undefined];
      const map = keys.length > 0 ? mapOf(keys[0]!) : undefined;
      if (!map) return undefined;
      return [{ block: at ?? null, changes: keys.map((k) => [k, map.values.get(k) ?? null]) }];
    }
    return undefined;
  };
  const later = (fn: () => void) => (LATENCY_MS > 0 ? setTimeout(fn, LATENCY_MS) : fn());
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1", maxPayload: 256 * 1024 * 1024 });
  server.on("connection", (client) => {
    const upstream = new WebSocket(upstreamUrl, { maxPayload: 256 * 1024 * 1024 });
    const pending: string[] = [];
    upstream.on("open", () => pending.splice(0).forEach((m) => upstream.send(m)));
    const close = () => {
      client.terminate();
      upstream.terminate();
    };
    for (const s of [client, upstream]) {
      s.on("close", close);
      s.on("error", close);
    }
    upstream.on("message", (data) => later(() => client.readyState === WebSocket.OPEN && client.send(data.toString())));
    client.on("message", (data) => {
      const text = data.toString();
      later(() => {
        const req = JSON.parse(text) as { id: unknown; method: string; params: unknown[] };
        const result = answer(req);
        if (result !== undefined) return void later(() => client.readyState === WebSocket.OPEN && client.send(JSON.stringify({ jsonrpc: "2.0", id: req.id, result })));
        if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
        else pending.push(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ url: `ws://127.0.0.1:${port}`, accounts: ACCOUNTS, assetAccounts: ASSET_ACCOUNTS })}\n`);
}

await main();
