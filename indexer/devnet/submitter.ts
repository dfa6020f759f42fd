/**
 * Sends one account's extrinsics strictly one after another and proves each one worked.
 *
 * chopsticks silently drops a transaction whose nonce is ahead of the chain, and right after a
 * block `accountNextIndex` can still answer the old nonce — so the nonce is counted here, each
 * send waits until its block is final, and sends queue behind each other. A dispatch failure
 * (ExtrinsicFailed, or a batch that stopped half-way) becomes an ExtrinsicError naming the
 * pallet error, so a broken seed never passes for a seeded market.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import type { SubmittableExtrinsic } from "@polkadot/api-base/types";
import type { KeyringPair } from "@polkadot/keyring/types";
import type { DispatchError, EventRecord } from "@polkadot/types/interfaces";
import type { SpRuntimeDispatchError } from "@polkadot/types/lookup";
import type { ISubmittableResult } from "@polkadot/types/types";

/** An extrinsic was rejected, dropped or failed on chain; `reason` is e.g. "assets.InUse". */
export class ExtrinsicError extends Error {
  readonly reason: string;

  constructor(label: string, reason: string) {
    super(`${label} failed: ${reason}`);
    this.name = "ExtrinsicError";
    this.reason = reason;
  }
}

export interface Included {
  blockHash: string;
  events: EventRecord[];
}

export interface Submitter {
  readonly address: string;
  /** Resolves once the extrinsic is in a final block and succeeded; `label` names it in errors. */
  send(tx: SubmittableExtrinsic<"promise">, label: string): Promise<Included>;
}

// Instant mode builds a block within a second or two; on a loaded 2-core CI machine, with
// indexers reading the same chopsticks, a build was seen to take over 20 s. A wait this long only
// ever ends a run that is stuck for good.
const INCLUSION_TIMEOUT_MS = 60_000;

/** "assets.InUse" for pallet errors, "Token.UnknownAsset" or "BadOrigin" for the others. */
export function describeDispatchError(api: ApiPromise, error: DispatchError | SpRuntimeDispatchError): string {
  if (error.isModule) {
    const { section, name } = api.registry.findMetaError(error.asModule);
    return `${section}.${name}`;
  }
  const inner = error.value as { type?: unknown };
  return typeof inner.type === "string" ? `${error.type}.${inner.type}` : error.type;
}

/**
 * utility.batch and forceBatch report a failed item only in an event, with a successful
 * extrinsic. Older runtimes (Rococo Asset Hub) have no ItemFailed, hence the `?.`.
 */
function failureOf(api: ApiPromise, result: ISubmittableResult): string | undefined {
  if (result.dispatchError) return describeDispatchError(api, result.dispatchError);
  for (const { event } of result.events) {
    if (api.events.utility.BatchInterrupted?.is(event)) {
      return `batch item ${event.data.index.toNumber()}: ${describeDispatchError(api, event.data.error)}`;
    }
    if (api.events.utility.ItemFailed?.is(event)) return `batch item: ${describeDispatchError(api, event.data.error)}`;
  }
  return undefined;
}

/** Signs with an explicit nonce and settles on finality, on a pool rejection, or on timeout. */
function untilFinal(tx: SubmittableExtrinsic<"promise">, pair: KeyringPair, nonce: number, label: string): Promise<ISubmittableResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let unsubscribe: (() => void) | undefined;
    const settle = (error: Error | undefined, result?: ISubmittableResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe?.();
      if (error) reject(error);
      else resolve(result!);
    };
    const timer = setTimeout(() => settle(new ExtrinsicError(label, `not in a block after ${INCLUSION_TIMEOUT_MS} ms (nonce ${nonce})`)), INCLUSION_TIMEOUT_MS);
    tx.signAndSend(pair, { nonce }, (result) => {
      if (result.status.isFinalized) settle(undefined, result);
      else if (result.isError) settle(new ExtrinsicError(label, `transaction ${result.status.type}`));
    })
      .then((unsub) => {
        if (settled) unsub();
        else unsubscribe = unsub;
      })
      .catch((err: unknown) => settle(new ExtrinsicError(label, err instanceof Error ? err.message : String(err))));
  });
}

/** One queue per signing account; create it before that account's first extrinsic. */
export function createSubmitter(api: ApiPromise, pair: KeyringPair): Submitter {
  let nextNonce: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const submit = async (tx: SubmittableExtrinsic<"promise">, label: string): Promise<Included> => {
    nextNonce ??= (await api.rpc.system.accountNextIndex(pair.address)).toNumber();
    const nonce = nextNonce;
    try {
      const result = await untilFinal(tx, pair, nonce, label);
      nextNonce = nonce + 1;
      const failure = failureOf(api, result);
      if (failure) throw new ExtrinsicError(label, failure);
      return { blockHash: result.status.asFinalized.toHex(), events: result.events };
    } catch (err) {
      // The chain is final and idle again by now, so its answer is the truth to restart from.
      nextNonce = undefined;
      throw err;
    }
  };

  return {
    address: pair.address,
    send(tx, label) {
      const run = queue.then(() => submit(tx, label));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
