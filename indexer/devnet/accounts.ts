/**
 * Who acts on the devnet: the well-known dev accounts (//Alice … //Ferdie) and any number of
 * derived holder accounts, plus a funding shortcut that writes balances straight into storage.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import { Keyring } from "@polkadot/keyring";
import type { KeyringPair } from "@polkadot/keyring/types";
import { cryptoWaitReady } from "@polkadot/util-crypto";

export const DEV_NAMES = ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie"] as const;
export type DevName = (typeof DEV_NAMES)[number];

export interface DevKeyring {
  dev: Record<DevName, KeyringPair>;
  /** //holder/0 … //holder/<count-1>: reproducible, so a test can derive the same addresses. */
  holders: KeyringPair[];
}

/** Derived keyrings by ss58 prefix: the most holders asked for so far. */
const derived = new Map<number, Promise<DevKeyring>>();

/**
 * sr25519 pairs from the public dev seed. Addresses are printed with the chain's ss58 prefix so
 * they read like the ones the indexer stores (prefix 2 on Kusama Asset Hub). Deriving is CPU
 * work on the event loop (≈ 20 ms a pair here: 200 holders block it for 4 s), so pairs are
 * derived once per process and prefix, and shared.
 */
export async function devKeyring(holderCount: number, ss58Format: number): Promise<DevKeyring> {
  const known = await derived.get(ss58Format);
  if (known && known.holders.length >= holderCount) return { dev: known.dev, holders: known.holders.slice(0, holderCount) };
  const deriving = (async () => {
    await cryptoWaitReady();
    const keyring = new Keyring({ type: "sr25519", ss58Format });
    const dev = Object.fromEntries(DEV_NAMES.map((name) => [name, keyring.addFromUri(`//${name}`)])) as Record<DevName, KeyringPair>;
    const holders = Array.from({ length: holderCount }, (_, i) => keyring.addFromUri(`//holder/${i}`));
    return { dev, holders };
  })();
  derived.set(ss58Format, deriving);
  deriving.catch(() => derived.delete(ss58Format));
  return deriving;
}

/**
 * Sets each account's free native balance to `planck` with `dev_setStorage`: one RPC call and no
 * block, instead of one transfer per account. The rest of each AccountInfo (nonce, consumers,
 * reserved…) is written back unchanged: a partial value would reset the nonce to 0 and break
 * the signer's nonce tracking. TotalIssuance moves by the same amount, because the runtime
 * checks its arithmetic against it (large transfers otherwise fail with Arithmetic.Underflow).
 */
export async function fund(api: ApiPromise, addresses: readonly string[], planck: bigint): Promise<void> {
  if (addresses.length === 0) return;
  // One read per account: after a dev_setStorage, chopsticks answered state_queryStorageAt (what
  // .multi sends) from the head block as it was before, while single reads saw the new values —
  // a second call then counted every account's funding into TotalIssuance again.
  const [infos, issuance] = await Promise.all([Promise.all(addresses.map((a) => api.query.system.account(a))), api.query.balances.totalIssuance()]);
  let delta = 0n;
  const entries = addresses.map((address, i) => {
    const info = infos[i]!.toPrimitive() as { providers: number; data: Record<string, unknown> };
    delta += planck - infos[i]!.data.free.toBigInt();
    const value = { ...info, providers: Math.max(1, info.providers), data: { ...info.data, free: planck.toString() } };
    return [[address], value] as const;
  });
  await api.rpc("dev_setStorage", {
    System: { Account: entries },
    Balances: { TotalIssuance: (issuance.toBigInt() + delta).toString() },
  });
}
