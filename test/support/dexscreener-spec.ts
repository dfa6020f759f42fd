/**
 * DEX Screener Adapter Specs v1.1 (Dec 2023,
 * https://dexscreener.notion.site/DEX-Screener-Adapter-Specs-cc1223cdf6e74a7799599106b65dcd0e)
 * as checks: the schemas' fields and types (amounts and prices `number | string`), no field the
 * schemas do not have, and the rules the spec states in prose — block times in seconds, a
 * non-empty name, one asset in and one out per swap, a priceNative that is not 0, txnIndex +
 * eventIndex unique within a block, at most 50 decimals. Written from the spec, not from the
 * OpenAPI document, so that the two are checked against each other.
 */
import { expect } from "vitest";

type Obj = Record<string, unknown>;

function fields(where: string, o: unknown, required: Record<string, (v: unknown) => boolean>, optional: Record<string, (v: unknown) => boolean>): asserts o is Obj {
  expect(o !== null && typeof o === "object" && !Array.isArray(o), `${where}: an object`).toBe(true);
  const obj = o as Obj;
  for (const [k, ok] of Object.entries(required)) expect(ok(obj[k]), `${where}.${k} = ${JSON.stringify(obj[k])}`).toBe(true);
  for (const [k, ok] of Object.entries(optional)) if (k in obj) expect(ok(obj[k]), `${where}.${k} = ${JSON.stringify(obj[k])}`).toBe(true);
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  expect(Object.keys(obj).filter((k) => !known.has(k)), `${where}: fields the spec does not have`).toEqual([]);
}

const str = (v: unknown) => typeof v === "string";
const nonEmpty = (v: unknown) => typeof v === "string" && v.length > 0;
const int = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
/** An amount, price or reserve: a JSON number or a decimal string, not negative, at most 50 decimals. */
const amount = (v: unknown) => (typeof v === "number" ? Number.isFinite(v) && v >= 0 : typeof v === "string" && /^\d+(\.\d{1,50})?$/.test(v));
const record = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v) && Object.values(v as Obj).every(str);
const seconds = (v: unknown) => int(v) && (v as number) < 10_000_000_000;

export function checkBlock(where: string, b: unknown): void {
  fields(where, b, { blockNumber: int, blockTimestamp: seconds }, { metadata: record });
}

export function checkLatestBlockResponse(body: unknown): void {
  fields("LatestBlockResponse", body, { block: (v) => v !== undefined }, {});
  checkBlock("block", body.block);
}

export function checkAssetResponse(body: unknown): void {
  fields("AssetResponse", body, { asset: (v) => v !== undefined }, {});
  fields("asset", body.asset, { id: nonEmpty, name: nonEmpty, symbol: nonEmpty }, { totalSupply: amount, circulatingSupply: amount, coinGeckoId: str, coinMarketCapId: str, metadata: record });
}

export function checkPairResponse(body: unknown): void {
  fields("PairResponse", body, { pair: (v) => v !== undefined }, {});
  fields(
    "pair",
    body.pair,
    { id: nonEmpty, dexKey: nonEmpty, asset0Id: nonEmpty, asset1Id: nonEmpty },
    { createdAtBlockNumber: int, createdAtBlockTimestamp: seconds, createdAtTxnId: str, creator: str, feeBps: (v) => num(v) && (v as number) >= 0, pool: (v) => v !== null && typeof v === "object", metadata: record },
  );
  expect(body.pair.asset0Id).not.toBe(body.pair.asset1Id);
}

const common = { block: (v: unknown) => v !== undefined, txnId: nonEmpty, txnIndex: int, eventIndex: int, maker: nonEmpty, pairId: nonEmpty };
const reserves = (v: unknown) => v !== null && typeof v === "object" && Object.keys(v as Obj).sort().join() === "asset0,asset1" && amount((v as Obj).asset0) && amount((v as Obj).asset1);

export function checkEvent(where: string, e: unknown): void {
  expect(e !== null && typeof e === "object", where).toBe(true);
  const type = (e as Obj).eventType;
  if (type === "swap") {
    fields(where, e, { ...common, eventType: str, priceNative: amount }, { asset0In: amount, asset1In: amount, asset0Out: amount, asset1Out: amount, reserves, metadata: record });
    const has = (k: string) => k in e;
    const oneWay = has("asset0In") && has("asset1Out") && !has("asset1In") && !has("asset0Out");
    const otherWay = has("asset1In") && has("asset0Out") && !has("asset0In") && !has("asset1Out");
    expect(oneWay || otherWay, `${where}: asset0In + asset1Out or asset1In + asset0Out`).toBe(true);
    expect(Number(e.priceNative), `${where}: priceNative 0 halts the indexer`).toBeGreaterThan(0);
  } else {
    expect(["join", "exit"], `${where}.eventType`).toContain(type);
    fields(where, e, { ...common, eventType: str, amount0: amount, amount1: amount }, { reserves, metadata: record });
  }
  checkBlock(`${where}.block`, (e as Obj).block);
}

export function checkEventsResponse(body: unknown): void {
  fields("EventsResponse", body, { events: Array.isArray }, {});
  const seen = new Set<string>();
  let last = -1;
  (body.events as unknown[]).forEach((e, i) => {
    checkEvent(`events[${i}]`, e);
    const ev = e as { block: { blockNumber: number }; txnIndex: number; eventIndex: number };
    expect(ev.block.blockNumber, `events[${i}]: blocks in order`).toBeGreaterThanOrEqual(last);
    last = ev.block.blockNumber;
    const key = `${ev.block.blockNumber}/${ev.txnIndex}/${ev.eventIndex}`;
    expect(seen.has(key), `events[${i}]: txnIndex + eventIndex unique within the block`).toBe(false);
    seen.add(key);
  });
}
