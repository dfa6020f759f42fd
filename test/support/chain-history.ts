/**
 * History as the chain has it, read block by block with `api.at(hash)` (polkadot.js picks each
 * block's own runtime from its parent's version), beside the store's rows in the same shape:
 * swaps from SwapExecuted events, block hashes, and the history tables a backfill writes.
 */
import "@polkadot/api-augment/assetHubKusama";
import { Writable } from "node:stream";
import type { ApiPromise } from "@polkadot/api";
import type { Codec } from "@polkadot/types/types";
import { encodeAddress } from "@polkadot/util-crypto";
import { and, asc, between, eq, getTableColumns } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { pino, type Logger } from "pino";
import { schema, type Database } from "../../db/index.js";
import { foreignId, tokenIdOfLocation } from "./chain.js";

export interface BlockRange {
  from: number;
  to: number;
}

/** A swap hop as both sides can state it. */
export interface SwapHop {
  blockNumber: number;
  eventIndex: number;
  hop: number;
  tokenIn: number;
  tokenOut: number;
  amountIn: string;
  amountOut: string;
  fee: string;
  account: string | null;
  extrinsicIndex: number | null;
}

/**
 * LP fee in parts per million from the runtime's own constant: a u32 is per mille (statemine up
 * to polkadot-sdk PR 11804), a Permill is already ppm.
 */
function feePpm(lpFee: Codec): bigint {
  const raw = BigInt(lpFee.toString());
  return lpFee.toRawType() === "u32" ? raw * 1_000n : raw;
}

interface Leg {
  tokenId: number;
  amount: bigint;
}

/**
 * A swap's amount at each step of its path. Current runtimes state them in the path; the 2023
 * ones (statemine 1,000,000) give the path's locations only, and every step is an
 * assetConversion.Transfer of the same extrinsic before the SwapExecuted: trader → first pool,
 * pool → pool, last pool → recipient.
 */
function stepAmounts(path: Codec[], legs: Leg[], nativeTokenId: number): Leg[] {
  if (path.every((step) => Array.isArray(step))) {
    return path.map((step) => {
      const [location, amount] = step as unknown as [Codec, Codec];
      return { tokenId: tokenIdOfLocation(location, nativeTokenId), amount: BigInt(amount.toString()) };
    });
  }
  const tokens = path.map((location) => tokenIdOfLocation(location, nativeTokenId));
  if (legs.length !== tokens.length || legs.some((l, i) => l.tokenId !== tokens[i])) {
    throw new Error(`chainSwaps: the Transfer legs (${JSON.stringify(legs, (_, v) => (typeof v === "bigint" ? v.toString() : v))}) do not follow the path ${tokens.join(" → ")}`);
  }
  return legs;
}

/** Every SwapExecuted of blocks [from, to] as hops: path step i → i + 1. */
export async function chainSwaps(api: ApiPromise, range: BlockRange, nativeTokenId = 0): Promise<SwapHop[]> {
  const ss58 = api.registry.chainSS58 ?? 42;
  const out: SwapHop[] = [];
  for (let n = range.from; n <= range.to; n++) {
    const at = await api.at(await api.rpc.chain.getBlockHash(n));
    if (!at.query.assetConversion) continue;
    const ppm = feePpm(at.consts.assetConversion.lpFee as Codec);
    let legs: Leg[] = [];
    (await at.query.system.events()).forEach(({ event, phase }, eventIndex) => {
      if (event.section !== "assetConversion") return;
      const data = event.data as unknown as Record<string, Codec & Codec[]>;
      if (event.method === "Transfer") legs.push({ tokenId: tokenIdOfLocation(data.asset!, nativeTokenId), amount: BigInt(data.amount!.toString()) });
      if (event.method !== "SwapExecuted") return;
      const steps = stepAmounts([...data.path!], legs, nativeTokenId);
      legs = [];
      for (let hop = 0; hop + 1 < steps.length; hop++) {
        const [a, b] = [steps[hop]!, steps[hop + 1]!];
        out.push({
          blockNumber: n,
          eventIndex,
          hop,
          tokenIn: a.tokenId,
          tokenOut: b.tokenId,
          amountIn: a.amount.toString(),
          amountOut: b.amount.toString(),
          fee: ((a.amount * ppm) / 1_000_000n).toString(),
          account: encodeAddress(data.who!.toU8a(), ss58),
          extrinsicIndex: phase.isApplyExtrinsic ? phase.asApplyExtrinsic.toNumber() : null,
        });
      }
    });
  }
  return out;
}

export async function storeSwaps(db: Database, range: BlockRange): Promise<SwapHop[]> {
  const s = schema.swaps;
  const rows = await db.select().from(s).where(between(s.blockNumber, range.from, range.to)).orderBy(asc(s.blockNumber), asc(s.eventIndex), asc(s.hop));
  return rows.map((r) => ({
    blockNumber: r.blockNumber,
    eventIndex: r.eventIndex,
    hop: r.hop,
    tokenIn: r.tokenIn,
    tokenOut: r.tokenOut,
    amountIn: r.amountIn,
    amountOut: r.amountOut,
    fee: r.fee,
    account: r.account,
    extrinsicIndex: r.extrinsicIndex,
  }));
}

/** A balance movement as both sides can state it. */
export interface TransferRow {
  blockNumber: number;
  eventIndex: number;
  extrinsicIndex: number | null;
  tokenId: number | null;
  lpTokenId: number | null;
  from: string | null;
  to: string | null;
  amount: string;
  kind: string;
  event: string;
  tip: string | null;
}

/**
 * Every balance movement of blocks [from, to], from each block's System.Events read with
 * `api.at(hash)` (polkadot.js's own decoding, each block's own runtime): by position in the
 * event's fields, as the pallets declare them, so that a renamed field cannot hide a row.
 */
export async function chainTransfers(api: ApiPromise, range: BlockRange, nativeTokenId = 0): Promise<TransferRow[]> {
  const ss58 = api.registry.chainSS58 ?? 42;
  const out: TransferRow[] = [];
  for (let n = range.from; n <= range.to; n++) {
    const at = await api.at(await api.rpc.chain.getBlockHash(n));
    const start = out.length;
    (await at.query.system.events()).forEach(({ event, phase }, eventIndex) => {
      const f = [...event.data] as Codec[];
      const acc = (c: Codec | undefined) => encodeAddress(c!.toU8a(), ss58);
      const num = (c: Codec | undefined) => BigInt(c!.toString()).toString();
      const row = (kind: string, token: { tokenId?: number; lpTokenId?: number }, from: Codec | null, to: Codec | null, amount: Codec | undefined, tip: Codec | null = null) =>
        out.push({
          blockNumber: n,
          eventIndex,
          extrinsicIndex: phase.isApplyExtrinsic ? phase.asApplyExtrinsic.toNumber() : null,
          tokenId: token.tokenId ?? null,
          lpTokenId: token.lpTokenId ?? null,
          from: from === null ? null : acc(from),
          to: to === null ? null : acc(to),
          amount: num(amount),
          kind,
          event: `${event.section}.${event.method}`,
          tip: tip === null ? null : num(tip),
        });
      // (who, actual_fee, tip[, asset_id]): an asset id is an Option<u32> (2023) or a location.
      if (event.section === "transactionPayment" && event.method === "TransactionFeePaid") return void row("fee", { tokenId: nativeTokenId }, f[0]!, null, f[1], f[2]!);
      if (event.section === "assetTxPayment" && event.method === "AssetTxFeePaid") {
        const id = f[3]!.toPrimitive() as unknown;
        const tokenId = typeof id === "number" ? (id === nativeTokenId ? 2 ** 32 : id) : id === null ? nativeTokenId : tokenIdOfLocation(f[3]!, nativeTokenId);
        if (tokenId !== nativeTokenId) row("fee", { tokenId }, f[0]!, null, f[1], f[2]!);
        return;
      }
      if (event.section === "balances") {
        const native = { tokenId: nativeTokenId };
        switch (event.method) {
          case "Transfer": // (from, to, amount)
          case "ReserveRepatriated": // (from, to, amount, status)
            return void row("transfer", native, f[0]!, f[1]!, f[2]);
          case "TransferOnHold": // (reason, source, dest, amount)
          case "TransferAndHold": // (reason, source, dest, transferred)
            return void row("transfer", native, f[1]!, f[2]!, f[3]);
          case "Minted":
          case "Deposit":
            return void row(event.method === "Minted" ? "mint" : "deposit", native, null, f[0]!, f[1]);
          case "Burned":
          case "Withdraw":
          case "Slashed":
          case "DustLost":
            return void row({ Burned: "burn", Withdraw: "withdraw", Slashed: "slash", DustLost: "dust" }[event.method], native, f[0]!, null, f[1]);
        }
        return;
      }
      if (event.section !== "assets" && event.section !== "foreignAssets" && event.section !== "poolAssets") return;
      const id = f[0]!;
      const token = event.section === "poolAssets" ? { lpTokenId: Number(id.toString()) } : event.section === "assets" ? { tokenId: Number(id.toString()) === nativeTokenId ? 2 ** 32 : Number(id.toString()) } : { tokenId: foreignId(id) };
      switch (event.method) {
        case "Transferred": // (id, from, to, amount)
          return void row("transfer", token, f[1]!, f[2]!, f[3]);
        case "TransferredApproved": // (id, owner, delegate, destination, amount)
          return void row("transfer", token, f[1]!, f[3]!, f[4]);
        case "Issued": // (id, owner, amount)
        case "Deposited": // (id, who, amount)
          return void row(event.method === "Issued" ? "mint" : "deposit", token, null, f[1]!, f[2]);
        case "Burned": // (id, owner, balance)
        case "Withdrawn": // (id, who, amount)
          return void row(event.method === "Burned" ? "burn" : "withdraw", token, f[1]!, null, f[2]);
      }
    });
    out.splice(start, out.length - start, ...feesFolded(out.slice(start)));
  }
  return out;
}

/**
 * docs/api.md, "Transfers": a fee's withdrawal (its extrinsic's first movement, from the payer, in
 * the fee's token) and refund (a deposit to the payer of withdrawal − fee before the fee event)
 * are the fee row, whose amount is withdrawal − refund.
 */
function feesFolded(rows: TransferRow[]): TransferRow[] {
  const gone = new Set<TransferRow>();
  for (const fee of rows.filter((r) => r.kind === "fee" && r.extrinsicIndex !== null)) {
    const own = rows.filter((r) => r.extrinsicIndex === fee.extrinsicIndex);
    const w = own[0]!;
    if (w.kind !== "withdraw" || w.from !== fee.from || w.tokenId !== fee.tokenId || BigInt(w.amount) < BigInt(fee.amount)) continue;
    const unused = (BigInt(w.amount) - BigInt(fee.amount)).toString();
    const refund = own.filter((r) => r.kind === "deposit" && r.eventIndex < fee.eventIndex && r.to === fee.from && r.tokenId === fee.tokenId && r.amount === unused && unused !== "0").pop();
    gone.add(w);
    if (refund) gone.add(refund);
    else fee.amount = w.amount;
  }
  return rows.filter((r) => !gone.has(r));
}

/**
 * Transfer rows with their accounts' addresses in place of the store's ids (account_ids: ids
 * differ between stores, the addresses do not), as a select to narrow with where/orderBy.
 */
export function namedTransfers(db: Database) {
  const t = schema.transfers;
  const fa = alias(schema.accountIds, "fa");
  const ta = alias(schema.accountIds, "ta");
  const { fromId: _from, toId: _to, ...columns } = getTableColumns(t);
  return db.select({ ...columns, fromAccount: fa.address, toAccount: ta.address }).from(t).leftJoin(fa, eq(fa.id, t.fromId)).leftJoin(ta, eq(ta.id, t.toId));
}

export async function storeTransfers(db: Database, range: BlockRange): Promise<TransferRow[]> {
  const t = schema.transfers;
  const rows = await namedTransfers(db).where(between(t.blockNumber, range.from, range.to)).orderBy(asc(t.blockNumber), asc(t.eventIndex));
  return rows.map((r) => ({
    blockNumber: r.blockNumber,
    eventIndex: r.eventIndex,
    extrinsicIndex: r.extrinsicIndex,
    tokenId: r.tokenId,
    lpTokenId: r.lpTokenId,
    from: r.fromAccount,
    to: r.toAccount,
    amount: r.amount,
    kind: r.kind,
    event: r.event,
    tip: r.tip,
  }));
}

/** The chain's block hashes of [from, to], by number. */
export async function chainBlocks(api: ApiPromise, range: BlockRange): Promise<{ number: number; hash: string }[]> {
  const out: { number: number; hash: string }[] = [];
  for (let n = range.from; n <= range.to; n++) out.push({ number: n, hash: (await api.rpc.chain.getBlockHash(n)).toHex() });
  return out;
}

export async function storeBlocks(db: Database): Promise<{ number: number; hash: string }[]> {
  return (await db.select().from(schema.blocks).orderBy(asc(schema.blocks.number))).map((b) => ({ number: b.number, hash: b.hash }));
}

export async function skippedEvents(db: Database) {
  return db.select().from(schema.skippedEvents).orderBy(asc(schema.skippedEvents.blockNumber), asc(schema.skippedEvents.eventIndex));
}

/** The history rows of blocks [from, to] a backfill writes, in key order. */
export async function historyRows(db: Database, r: BlockRange) {
  const { swaps, liquidityEvents, poolReserves, tokenPrices, blocks, transfers } = schema;
  return {
    swaps: await db.select().from(swaps).where(between(swaps.blockNumber, r.from, r.to)).orderBy(asc(swaps.blockNumber), asc(swaps.eventIndex), asc(swaps.hop)),
    liquidity: await db.select().from(liquidityEvents).where(between(liquidityEvents.blockNumber, r.from, r.to)).orderBy(asc(liquidityEvents.blockNumber), asc(liquidityEvents.eventIndex)),
    reserves: await db
      .select()
      .from(poolReserves)
      .where(and(between(poolReserves.blockNumber, r.from, r.to)))
      .orderBy(asc(poolReserves.blockNumber), asc(poolReserves.token0Id), asc(poolReserves.token1Id)),
    prices: await db.select().from(tokenPrices).where(between(tokenPrices.blockNumber, r.from, r.to)).orderBy(asc(tokenPrices.blockNumber), asc(tokenPrices.tokenId)),
    blocks: await db.select().from(blocks).where(between(blocks.number, r.from, r.to)).orderBy(asc(blocks.number)),
    transfers: await namedTransfers(db).where(between(transfers.blockNumber, r.from, r.to)).orderBy(asc(transfers.blockNumber), asc(transfers.eventIndex)),
  };
}

/** What a component logged at warn level and above, for the failure messages of a test. */
export interface CapturedLog {
  logger: Logger;
  lines: { level: number; msg: string; block?: number; err?: unknown }[];
  /** The last few lines, one string each. */
  tail(n?: number): string[];
  /** Every line at `level` or above (pino: 40 warn, 50 error), one string each. */
  at(level: number): string[];
}

export function captureLog(): CapturedLog {
  const lines: CapturedLog["lines"] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as CapturedLog["lines"][number]);
      done();
    },
  });
  const describe = (l: CapturedLog["lines"][number]) => `${l.msg}${l.block !== undefined ? ` (block ${l.block})` : ""}${l.err ? `: ${typeof l.err === "string" ? l.err : JSON.stringify(l.err)}` : ""}`;
  return { logger: pino({ level: "warn" }, sink), lines, tail: (n = 5) => lines.slice(-n).map(describe), at: (level) => lines.filter((l) => l.level >= level).map(describe) };
}
