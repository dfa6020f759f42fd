/**
 * A signed extrinsic's fee as one transfer row (docs/api.md, "Transfers"). The runtime takes a
 * fee in three events: before the call it withdraws the estimated fee from the payer
 * (`balances.Withdraw`, or the asset's `Withdrawn`), after it deposits back what was not used
 * (`Deposit`/`Deposited`), and then reports the fee (`transactionPayment.TransactionFeePaid`,
 * `*.AssetTxFeePaid`). Kept as three rows, a fee would count twice for whoever adds up an
 * account's withdrawals and fees, so the withdrawal and its refund become the fee row: its
 * amount is what left the payer for the fee, withdrawal less refund, and an account's rows
 * still add up to what moved.
 */

/** The fields of a transfer row the folding reads. */
export interface FeeMovement {
  eventIndex: number;
  extrinsic: number | null;
  event: string;
  kind: string;
  tokenId: number | null;
  from: string | null;
  to: string | null;
  amount: string;
}

const WITHDRAWALS = new Set(["balances.Withdraw", "assets.Withdrawn", "foreignAssets.Withdrawn"]);
const DEPOSITS = new Set(["balances.Deposit", "assets.Deposited", "foreignAssets.Deposited"]);

/**
 * `rows` (one block's, in event order) with each fee's withdrawal and refund folded into the fee
 * row. The withdrawal is the extrinsic's first movement (fee payment runs before the call), a
 * withdrawal of the fee's token from the payer of at least the fee. The refund is a deposit of
 * that token to the payer of exactly withdrawal − fee, the last before the fee event; none when
 * the runtime refunded nothing (the call removed the account), and then the fee row says the
 * whole withdrawal left. A fee with no such withdrawal (fee 0, 2023 pallet-assets emitting no
 * Withdrawn) keeps the fee the event states.
 */
export function foldFees<T extends FeeMovement>(rows: T[]): T[] {
  const byExtrinsic = new Map<number, T[]>();
  for (const r of rows) {
    if (r.extrinsic === null) continue;
    let list = byExtrinsic.get(r.extrinsic);
    if (!list) byExtrinsic.set(r.extrinsic, (list = []));
    list.push(r);
  }
  const folded = new Set<T>();
  for (const own of byExtrinsic.values()) {
    const fee = own.find((r) => r.kind === "fee");
    const withdrawal = own[0];
    if (!fee || !withdrawal || !WITHDRAWALS.has(withdrawal.event) || withdrawal.from !== fee.from || withdrawal.tokenId !== fee.tokenId) continue;
    const unused = BigInt(withdrawal.amount) - BigInt(fee.amount);
    if (unused < 0n) continue;
    const refund = unused === 0n ? undefined : own.findLast((r) => r.eventIndex < fee.eventIndex && r !== withdrawal && DEPOSITS.has(r.event) && r.to === fee.from && r.tokenId === fee.tokenId && BigInt(r.amount) === unused);
    folded.add(withdrawal);
    if (refund) folded.add(refund);
    fee.amount = refund ? fee.amount : withdrawal.amount;
  }
  return folded.size === 0 ? rows : rows.filter((r) => !folded.has(r));
}
