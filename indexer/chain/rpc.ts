/**
 * The node's raw JSON-RPC, and raw storage values read over it, batched per block: what both
 * storage.ts (values decoded with a given runtime) and runtimes.ts (the value that names a
 * block's runtime) read through.
 */

/** Raw JSON-RPC: what every fetch goes through (no decoding, no cache keyed by block hash). */
export interface ChainRpc {
  send<T = unknown>(method: string, params: unknown[]): Promise<T>;
}

/** Keys per state_queryStorageAt (a node caps a request's size; polkadot-js pages the same way). */
const KEYS_PER_CALL = 1_000;

interface Pending {
  keys: string[];
  waiters: { from: number; to: number; resolve: (v: (string | null)[]) => void; reject: (e: unknown) => void }[];
}
const pending = new WeakMap<ChainRpc, Map<string, Pending>>();

/**
 * Raw values of `keys` at `hash`, in order (null where absent). The reads of one block made in
 * the same turn (a block's tokens, pools and balances, each a `.multi`) go out as one
 * state_queryStorageAt: one round trip and one message instead of ten, for the node and for us.
 */
export function rawValues(rpc: ChainRpc, keys: string[], hash: string): Promise<(string | null)[]> {
  if (keys.length === 0) return Promise.resolve([]);
  let byHash = pending.get(rpc);
  if (!byHash) pending.set(rpc, (byHash = new Map()));
  let batch = byHash.get(hash);
  if (!batch) {
    const created: Pending = (batch = { keys: [], waiters: [] });
    const map = byHash;
    byHash.set(hash, created);
    queueMicrotask(() => {
      map.delete(hash);
      queryValues(rpc, created.keys, hash).then(
        (values) => created.waiters.forEach((w) => w.resolve(values.slice(w.from, w.to))),
        (err: unknown) => created.waiters.forEach((w) => w.reject(err)),
      );
    });
  }
  const from = batch.keys.length;
  batch.keys.push(...keys);
  const joined = batch;
  return new Promise((resolve, reject) => joined.waiters.push({ from, to: from + keys.length, resolve, reject }));
}

/** Raw values of `keys` at `hash`, in order, a call per KEYS_PER_CALL keys. */
async function queryValues(rpc: ChainRpc, keys: string[], hash: string): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
    const chunk = keys.slice(i, i + KEYS_PER_CALL);
    const [set] = await rpc.send<{ changes: [string, string | null][] }[]>("state_queryStorageAt", [chunk, hash]);
    const found = new Map(set?.changes ?? []);
    for (const k of chunk) out.push(found.get(k) ?? null);
  }
  return out;
}
