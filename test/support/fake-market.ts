/**
 * The fake Asset Hub's market for the runtime-upgrade tests: DOT, USDt (1984, 6 decimals, a USD
 * anchor of Polkadot AH) and PINK (23, 10 decimals), a DOT/USDt pool at 5 USDt per DOT, and
 * blocks on both sides of an upgrade: transfers, swaps both ways, asset transfers, and after the
 * upgrade balances.TransferOnHold — an event only the new runtime has, in its very first block.
 */
import { decodeAddress } from "@polkadot/util-crypto";
import { u8aToHex } from "@polkadot/util";
import { account, ChainBuilder, type BlockOps, type FakeChain, type RuntimeId } from "./fake-chain.js";
import type { RuntimeCodec } from "./fake-storage.js";

export const USDT = 1984;
export const PINK = 23;
const DOT = 10_000_000_000n;
const USD = 1_000_000n;

export const ACTORS = {
  alice: account("alice"),
  bob: account("bob"),
  charlie: account("charlie"),
  dave: account("dave"),
  erin: account("erin"),
  issuer: account("issuer"),
  /** The live DOT/USDt pool's account (its LP token's owner on Polkadot AH). */
  pool: u8aToHex(decodeAddress("12dvmstTqsjrPrPdouMpbsgaaQjPGYFh7gMaiNgZ7Rzaacok")),
};

export interface MarketOptions {
  /** Blocks after genesis. */
  blocks: number;
  /** The block that applies the upgrade. */
  upgradeAt: number;
  /** Whether that block emits system.CodeUpdated (ValidationFunctionApplied it always does). */
  codeUpdated?: boolean;
  /** A block that applies a second upgrade, to runtime C. */
  secondUpgradeAt?: number;
  /** More of what block `n` does, after its usual activity (a migration: state changed without events). */
  extra?: (n: number, b: BlockOps) => void;
}

function genesis(chain: ChainBuilder): void {
  const { alice, bob, charlie, dave, erin, issuer, pool } = ACTORS;
  const g = chain.genesis;
  const endow = (who: string, free: bigint, reserved = 0n, frozen = 0n) => g.native.set(who, { free, reserved, frozen });
  endow(alice, 1_000n * DOT, 5n * DOT, 1n * DOT);
  endow(bob, 200n * DOT, 50n * DOT);
  endow(charlie, 30n * DOT);
  endow(dave, 500n * DOT, 0n, 100n * DOT);
  endow(erin, 1n * DOT);
  endow(issuer, 10n * DOT);
  endow(pool, 10_000n * DOT);
  g.assets.set(USDT, { id: USDT, owner: issuer, name: "Tether USD", symbol: "USDt", decimals: 6, minBalance: 10_000n, balances: new Map([[alice, 10_000n * USD], [dave, 5_000n * USD], [pool, 50_000n * USD]]) });
  g.assets.set(PINK, { id: PINK, owner: issuer, name: "PINK", symbol: "PINK", decimals: 10, minBalance: 1n, balances: new Map([[alice, 1_000_000n * DOT], [charlie, 2_500n * DOT]]) });
  g.pools.set(USDT, { assetId: USDT, lpToken: 0, account: pool });
  g.lpTokens.set(0, { id: 0, owner: pool, balances: new Map([[alice, 22_360_679_774_997n]]) });
}

/** What block `n` does (the same on both runtimes, except what only B has). */
function activity(n: number, upgradeAt: number, b: BlockOps): void {
  const { alice, bob, charlie, dave, erin } = ACTORS;
  const after = n > upgradeAt;
  if (n % 3 === 0) b.transfer(alice, erin, BigInt(n) * DOT);
  if (n % 5 === 1) b.swap(dave, USDT, true, 3n * DOT + BigInt(n));
  if (n % 5 === 3) b.swap(dave, USDT, false, 7n * USD + BigInt(n));
  if (n % 7 === 2) b.assetTransfer(PINK, alice, charlie, BigInt(n) * DOT);
  if (n % 11 === 4) b.assetTransfer(USDT, alice, bob, 25n * USD);
  // The first block of the new runtime and a later one carry an event only it has.
  if (after && (n === upgradeAt + 1 || n % 9 === 0)) b.transferOnHold(bob, charlie, BigInt(n) * 1_000_000n);
}

/** The market chain: genesis, `blocks` blocks, the upgrade applied by `upgradeAt`. */
export function marketChain(runtimes: Record<RuntimeId, RuntimeCodec>, options: MarketOptions): FakeChain {
  const chain = new ChainBuilder(runtimes);
  genesis(chain);
  while (chain.next <= options.blocks) {
    const n = chain.next;
    const ops = (b: BlockOps) => {
      activity(n, options.upgradeAt, b);
      options.extra?.(n, b);
    };
    if (n === options.upgradeAt) chain.upgrade({ codeUpdated: options.codeUpdated ?? true }, ops);
    else if (n === options.secondUpgradeAt) chain.upgrade({ to: "C" }, ops);
    else chain.block(ops);
  }
  return chain.build();
}
