import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { rpcDuration } from "../../shared/metrics.js";

const CONNECT_TIMEOUT_MS = 15_000;
/** Metadata and runtime version of a remote node, over a slow link included. */
const INIT_TIMEOUT_MS = 60_000;

/**
 * One connection, no automatic reconnects: the caller owns reconnection, so that every new
 * connection starts again from committed state (the follower from its checkpoint, a backfill
 * chunk from its first block).
 */
export async function connect(wsUrl: string, signal?: AbortSignal): Promise<ApiPromise> {
  // A stop ends either wait below at once: the follower's stop() waited up to 75 s on a node that does not answer.
  const onStop = (reject: (err: Error) => void) => {
    const stop = () => reject(new Error(`stopped while connecting to ${wsUrl}`));
    if (signal?.aborted) stop();
    signal?.addEventListener("abort", stop);
    return () => signal?.removeEventListener("abort", stop);
  };
  // What a wait leaves (its timer, its listeners), removed however it ends.
  let cleanup = () => {};
  // A response cache of one entry: polkadot-js keeps answers to queries at a block hash (1,024
  // for 30 s by default), which the indexer never asks twice — during a bootstrap those are
  // 0.3 MB pages. Not 0: in @polkadot/rpc-provider 16.5 a capacity of 0 still caches (its
  // `capacity || 1024` check) in an LRU that never evicts, and a bootstrap kept every page it
  // read until the end (found with a heap snapshot: 0.8 KB per account).
  const provider = new WsProvider(wsUrl, false, {}, undefined, 1);
  // Every call timed by method (tokenpool_rpc_request_duration_seconds).
  const send = provider.send.bind(provider);
  provider.send = (async (method: string, params: unknown[], ...rest: unknown[]) => {
    const end = rpcDuration.startTimer({ method });
    try {
      return await (send as (...a: unknown[]) => Promise<unknown>)(method, params, ...rest);
    } finally {
      end();
    }
  }) as typeof provider.send;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no connection to ${wsUrl} within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      const offError = provider.on("error", (err) => reject(err instanceof Error ? err : new Error(`cannot connect to ${wsUrl}`)));
      const offStop = onStop(reject);
      cleanup = () => {
        clearTimeout(timer);
        offError();
        offStop();
      };
      provider.isReady.then(() => resolve(), reject);
      provider.connect().catch(reject);
    }).finally(() => cleanup());
    // ApiPromise.create never settles when the socket drops while it loads metadata (polkadot-js
    // logs "FATAL: Unable to initialize the API" and waits): the disconnect and a time limit
    // reject it here, so the caller reconnects instead of hanging (found by the fault campaign).
    // rpcCacheCapacity: polkadot-js also keeps the last value of every storage key it decoded
    // (102,400 by default) — during a bootstrap, that is ≈ 6 KB of heap per account. One entry
    // (0 means the default) is what the indexer needs: none.
    const api = new ApiPromise({ provider, noInitWarn: true, rpcCacheCapacity: 1 });
    try {
      return await new Promise<ApiPromise>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the API at ${wsUrl} did not initialise within ${INIT_TIMEOUT_MS} ms`)), INIT_TIMEOUT_MS);
        const offDisconnected = provider.on("disconnected", () => reject(new Error(`${wsUrl} disconnected while the API initialised`)));
        const offStop = onStop(reject);
        cleanup = () => {
          clearTimeout(timer);
          offDisconnected();
          offStop();
        };
        api.isReadyOrError.then(resolve, (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))));
      }).finally(() => cleanup());
    } catch (err) {
      await api.disconnect().catch(() => {});
      throw err;
    }
  } catch (err) {
    await provider.disconnect().catch(() => {});
    throw err;
  }
}

/** How long a subscription's first answer may take: a node that confirms it and then says nothing is as good as gone. */
export const FIRST_ANSWER_MS = 60_000;

export interface UntilLostOptions<T> {
  /** What is waited for, in the error's words. */
  what: string;
  /** The time limit; default FIRST_ANSWER_MS. */
  ms?: number;
  /** A stop: rejects at once. */
  signal?: AbortSignal;
  /** Gets a value that comes after the rejection (an unsubscribe, say). */
  late?: (value: T) => void;
}

/**
 * `pending` (a call on `api`), or a rejection as soon as the connection drops, the time limit
 * passes or `signal` aborts. polkadot-js resolves a subscription with its first value, and a
 * socket that closes after the node confirmed the subscription but before that value leaves the
 * promise pending for good (the provider rejects only requests still waiting for their answer):
 * the follower then waited on "subscribing to finalized heads" for as long as it ran (found by
 * the fault campaign).
 */
export function untilLost<T>(api: ApiPromise, pending: Promise<T>, options: UntilLostOptions<T>): Promise<T> {
  const { what, ms = FIRST_ANSWER_MS, signal, late } = options;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const lost = () => end(new Error(`the connection dropped while waiting for ${what}`));
    const stopped = () => end(new Error(`stopped while waiting for ${what}`));
    const timer = setTimeout(() => end(new Error(`no answer for ${what} within ${ms} ms`)), ms);
    function end(err: Error | undefined, value?: T): void {
      if (settled) return void (err === undefined && late?.(value as T));
      settled = true;
      clearTimeout(timer);
      api.off("disconnected", lost);
      signal?.removeEventListener("abort", stopped);
      if (err) reject(err);
      else resolve(value as T);
    }
    api.on("disconnected", lost);
    signal?.addEventListener("abort", stopped);
    pending.then(
      (value) => end(undefined, value),
      (err: unknown) => end(err instanceof Error ? err : new Error(String(err))),
    );
    if (!api.isConnected) lost();
    else if (signal?.aborted) stopped();
  });
}
