/**
 * The bench node's blocks: TEMPLATES distinct blocks of today's Polkadot Asset Hub traffic, each
 * System.Events encoded once with the runtime's own types; block N is template N mod TEMPLATES
 * with its own number, hash and timestamp. The mix (docs/performance.md, "CPU per block"):
 *
 * - initialization: 2 XCM messages processed (MessageQueue.Processed) — DOT teleported from the
 *   relay (Balances.Minted + the delivery fee's Deposit to the treasury) and a bridged foreign
 *   asset arriving (ForeignAssets.Issued);
 * - 2 inherents (ExtrinsicSuccess each);
 * - 9 signed extrinsics, each paying a fee (Balances.Withdraw, the refund and the collators' and
 *   treasury's shares as Deposits, TransactionPayment.TransactionFeePaid, ExtrinsicSuccess):
 *   3 DOT transfers (one in three endows a new account), 2 asset transfers (USDt/USDC/DED/PINK),
 *   1 foreign-asset transfer, 1 swap (DOT ⇄ an asset through its pool), 1 staking payout
 *   (PayoutStarted, 4 × Rewarded + Deposit), and 1 transfer whose fee is paid in USDt
 *   (AssetConversion.SwapCreditExecuted + AssetTxPayment.AssetTxFeePaid, no native fee events).
 *
 * ≈ 74 events a block.
 */
import type { EventRecord } from "@polkadot/types/interfaces";
import { eventRecord, LOCATIONS, type Runtime } from "../../test/support/runtimes.js";
import { actors, ASSETS, COLLATOR_POT, DOT, isForeign, pallet, poolAccount, reserves, TREASURY } from "./market.js";

export const TEMPLATES = 97;

/** xorshift32: the same blocks on every run. */
function random(seed: number): () => number {
  let x = (seed * 2_654_435_761) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

const location = (i: number) => {
  const a = ASSETS[i]!;
  return isForeign(a) ? a.id : LOCATIONS.asset(a.id as number);
};

/** The events of template `t`, in block order. */
export function templateEvents(rt: Runtime, t: number): EventRecord[] {
  const rand = random(t + 1);
  const pick = () => actors[Math.floor(rand() * actors.length)]!;
  const amount = (unit: bigint, max: number) => (unit * BigInt(1 + Math.floor(rand() * max))) / 100n;
  const out: EventRecord[] = [];
  const init = (section: string, method: string, fields: Record<string, unknown>) => {
    const r = eventRecord(rt, section, method, fields, 0);
    out.push({ event: r.event, phase: rt.registry.createType("Phase", "Initialization") } as unknown as EventRecord);
  };
  const at = (ext: number) => (section: string, method: string, fields: Record<string, unknown>) => out.push(eventRecord(rt, section, method, fields, ext));
  const weight = { refTime: 1_000_000 + Math.floor(rand() * 1e8), proofSize: 3_593 };
  const success = (ext: number) => at(ext)("system", "ExtrinsicSuccess", { dispatchInfo: { weight, class: ext < 2 ? "Mandatory" : "Normal", paysFee: ext < 2 ? "No" : "Yes" } });
  const processed = (origin: unknown) => init("messageQueue", "Processed", { id: `0x${(t * 7 + out.length).toString(16).padStart(64, "0")}`, origin, weightUsed: weight, success: true });

  // XCM from the relay chain (a teleport of DOT) and over the bridge (a foreign asset).
  const teleported = amount(DOT, 50_000);
  processed("Parent");
  init("balances", "Minted", { who: pick(), amount: teleported });
  init("balances", "Deposit", { who: TREASURY, amount: DOT / 1_000n });
  const foreign = 4 + (t % 3);
  processed({ Sibling: 1002 });
  init("foreignAssets", "Issued", { assetId: ASSETS[foreign]!.id, owner: pick(), amount: amount(10n ** BigInt(ASSETS[foreign]!.decimals), 5_000) });
  success(0);
  success(1);

  let ext = 2;
  const signed = (who: string, call: (e: ReturnType<typeof at>) => void) => {
    const e = at(ext);
    const fee = 150_000_000n + BigInt(Math.floor(rand() * 50_000_000));
    const estimated = fee + 20_000_000n;
    e("balances", "Withdraw", { who, amount: estimated });
    call(e);
    e("balances", "Deposit", { who, amount: estimated - fee });
    e("balances", "Deposit", { who: COLLATOR_POT, amount: fee / 5n });
    e("balances", "Deposit", { who: TREASURY, amount: fee - fee / 5n });
    e("transactionPayment", "TransactionFeePaid", { who, actualFee: fee, tip: 0 });
    success(ext++);
  };
  for (let i = 0; i < 3; i++) {
    const [from, to] = [pick(), pick()];
    signed(from, (e) => {
      if ((t + i) % 3 === 0) {
        e("system", "NewAccount", { account: to });
        e("balances", "Endowed", { account: to, freeBalance: 10n * DOT });
      }
      e("balances", "Transfer", { from, to, amount: amount(DOT, 100_000) });
    });
  }
  for (let i = 0; i < 2; i++) {
    const a = ASSETS[(t + i) % 4]!;
    const [from, to] = [pick(), pick()];
    signed(from, (e) => e("assets", "Transferred", { assetId: a.id, from, to, amount: amount(10n ** BigInt(a.decimals), 200_000) }));
  }
  const f = ASSETS[foreign]!;
  const [ff, ft] = [pick(), pick()];
  signed(ff, (e) => e("foreignAssets", "Transferred", { assetId: f.id, from: ff, to: ft, amount: amount(10n ** BigInt(f.decimals), 1_000) }));

  // A swap through one of the DOT pools, at that pool's price.
  const p = t % ASSETS.length;
  const trader = pick();
  signed(trader, (e) => {
    const r = reserves(p, t);
    const dotIn = amount(DOT, 50_000);
    const out = (dotIn * 997n * r.asset) / (r.dot * 1000n + dotIn * 997n);
    e("balances", "Transfer", { from: trader, to: poolAccount(p), amount: dotIn });
    e(pallet(ASSETS[p]!), "Transferred", { assetId: ASSETS[p]!.id, from: poolAccount(p), to: trader, amount: out });
    e("assetConversion", "SwapExecuted", { who: trader, sendTo: trader, amountIn: dotIn, amountOut: out, path: [[LOCATIONS.native, dotIn], [location(p), out]] });
  });

  // A validator's payout for one page of its nominators (staking lives on Asset Hub now).
  const validator = pick();
  signed(pick(), (e) => {
    e("staking", "PayoutStarted", { eraIndex: 1_900 + t, validatorStash: validator, page: 0, next: null });
    for (let i = 0; i < 4; i++) {
      const stash = i === 0 ? validator : pick();
      const reward = amount(DOT, 20_000);
      e("staking", "Rewarded", { stash, dest: i % 2 === 0 ? "Staked" : { Account: pick() }, amount: reward });
      e("balances", "Deposit", { who: stash, amount: reward });
    }
  });

  // A transfer whose fee is paid in USDt: swapped to DOT as credit, reported by AssetTxFeePaid.
  const payer = pick();
  const usdFee = 30_000n + BigInt(Math.floor(rand() * 5_000));
  const e = at(ext);
  const to = pick();
  e("balances", "Transfer", { from: payer, to, amount: amount(DOT, 10_000) });
  e("assetConversion", "SwapCreditExecuted", { amountIn: usdFee, amountOut: 150_000_000n, path: [[LOCATIONS.asset(1984), usdFee], [LOCATIONS.native, 150_000_000n]] });
  e("assetTxPayment", "AssetTxFeePaid", { who: payer, actualFee: usdFee, tip: 0, assetId: LOCATIONS.asset(1984) });
  success(ext++);
  return out;
}
