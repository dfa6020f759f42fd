/**
 * Candles at scale: a synthetic store (48 h of 12 s blocks, KSM/USDt moving every block, swaps
 * and price points over the whole range) whose candle buckets are rebuilt through the indexer's
 * own ingest functions, fed in shuffled chunks, then asked for random windows of every interval
 * and compared with a brute-force scan of the raw rows, KSM's USD price expiring now and then.
 * `npm run bench` runs the same comparison on the 5M-swap store.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { addCandleVolumes, addPoolCandles, addTokenCandles } from "../../db/index.js";
import { BLOCK_SECONDS, generate, HEAD_TIME, KSM, SMALL_SWAPS, USDT } from "../../bench/synthetic.js";
import { buildApp, noRequestLimit } from "../support/app.js";
import { bruteForceCandles, INTERVAL_SECONDS } from "../support/candles.js";
import { describeDb } from "../support/db.js";

const SEED = Number(process.env.CANDLE_SEED ?? Date.now() % 1_000_000);
const START = HEAD_TIME - 48 * 3_600;

async function all<T>(db: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> }, q: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(q);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/** Deterministic shuffle (the ingest upserts claim to be order-free). */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let s = seed || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function chunks<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

describeDb("candles against a brute-force scan of the raw rows", (ctx) => {
  it(`equal for random windows of every interval, both orientations (seed ${SEED})`, async () => {
    const db = ctx.db;
    await generate(db, { ...SMALL_SWAPS, pools: 20 });
    // Unscaled numerics compared by value (the migration's sums and the upserts' keep different trailing zeros).
    const poolCandles = sql`select *, trim_scale(volume_usd) as volume_usd from pool_candles order by token0_id, token1_id, res, bucket`;
    const tokenCandles = sql`select *, trim_scale(open) as open, trim_scale(close) as close, trim_scale(high) as high, trim_scale(low) as low from token_candles order by token_id, res, bucket`;
    const derived = await all<Record<string, unknown>>(db, poolCandles);
    const derivedUsd = await all<Record<string, unknown>>(db, tokenCandles);

    // Rebuild every bucket through the ingest path, in shuffled chunks.
    await db.execute(sql`truncate pool_candles, token_candles`);
    const reserves = await all<{ token0_id: string; token1_id: string; block_number: string; timestamp: string; reserve0: string; reserve1: string }>(
      db,
      sql`select token0_id::text, token1_id::text, block_number::text, timestamp::text, reserve0::text, reserve1::text from pool_reserves`,
    );
    for (const part of chunks(shuffled(reserves, SEED), 3_000)) {
      await addPoolCandles(db, part.map((r) => ({ token0Id: Number(r.token0_id), token1Id: Number(r.token1_id), blockNumber: Number(r.block_number), timestamp: Number(r.timestamp), reserve0: r.reserve0, reserve1: r.reserve1 })));
    }
    const swaps = await all<{ token0_id: string; token1_id: string; timestamp: string; token_in: string; amount_in: string; amount_out: string; volume_usd: string }>(
      db,
      sql`select token0_id::text, token1_id::text, timestamp::text, token_in::text, amount_in::text, amount_out::text, volume_usd::text from swaps`,
    );
    for (const part of chunks(shuffled(swaps, SEED + 1), 3_000)) {
      await addCandleVolumes(db, part.map((s) => ({ token0Id: Number(s.token0_id), token1Id: Number(s.token1_id), timestamp: Number(s.timestamp), tokenIn: Number(s.token_in), amountIn: s.amount_in, amountOut: s.amount_out, volumeUsd: s.volume_usd })));
    }
    const prices = await all<{ token_id: string; block_number: string; price_usd: string }>(db, sql`select token_id::text, block_number::text, price_usd::text from token_prices`);
    const times = new Map((await all<{ number: string; timestamp: string }>(db, sql`select number::text, timestamp::text from blocks`)).map((b) => [Number(b.number), Number(b.timestamp)]));
    for (const part of chunks(shuffled(prices, SEED + 2), 3_000)) {
      await addTokenCandles(db, part.map((p) => ({ tokenId: Number(p.token_id), blockNumber: Number(p.block_number), priceUsd: p.price_usd })), (n) => times.get(n));
    }
    // The ingest path and the migration's derivation agree bucket for bucket.
    expect(await all(db, poolCandles)).toEqual(derived);
    expect(await all(db, tokenCandles)).toEqual(derivedUsd);
    expect(derived.length).toBeGreaterThan(1_000);

    // KSM's price expires now and then (a null point): for 300 blocks (an hour) from each block
    // 1000k + 95, and for 5 blocks from each 1000k + 705; the candles are built again with the
    // expiries among the points (which they skip).
    await db.execute(sql`delete from token_prices where token_id = ${KSM} and block_number % 1000 between 100 and 399`);
    await db.execute(sql`insert into token_prices (token_id, block_number, price_usd) select ${KSM}, number, null from blocks where number % 1000 in (95, 705)`);
    await db.execute(sql`truncate token_candles`);
    const withExpiries = await all<{ token_id: string; block_number: string; price_usd: string | null }>(db, sql`select token_id::text, block_number::text, price_usd::text from token_prices`);
    expect(withExpiries.filter((p) => p.price_usd === null).length).toBeGreaterThan(20);
    for (const part of chunks(shuffled(withExpiries, SEED + 3), 3_000)) {
      await addTokenCandles(db, part.map((p) => ({ tokenId: Number(p.token_id), blockNumber: Number(p.block_number), priceUsd: p.price_usd })), (n) => times.get(n));
    }

    // fast-check's shrinking after a failure would pass 100 requests: the limit must not hide it.
    const t = buildApp(db, { rateLimit: noRequestLimit() });
    const ksm = { id: KSM, decimals: 12 };
    const usdt = { id: USDT, decimals: 6 };
    const names = Object.keys(INTERVAL_SECONDS) as (keyof typeof INTERVAL_SECONDS)[];
    const window = fc
      .record({ interval: fc.constantFrom(...names), from: fc.integer({ min: START - 3 * 3_600, max: HEAD_TIME }), span: fc.integer({ min: 0, max: 1_000 }), flip: fc.boolean() })
      .map((w) => ({ ...w, to: Math.min(w.from + Math.floor((w.span * INTERVAL_SECONDS[w.interval]) / 4) + BLOCK_SECONDS, HEAD_TIME + 3_600) }));
    let compared = 0;
    let nonEmpty = 0;
    let unpriced = 0;
    await fc.assert(
      fc.asyncProperty(window, async (w) => {
        const [a, b] = w.flip ? [usdt, ksm] : [ksm, usdt];
        const res = await t.get(`/pools/${a.id}/${b.id}/ohlcv?interval=${w.interval}&from=${w.from}&to=${w.to}`);
        const body: any = await res.json();
        expect(res.status, JSON.stringify(body)).toBe(200);
        const expected = await bruteForceCandles(db, a, b, w.interval, w.from, w.to);
        expect(body.candles).toEqual(expected);
        compared += expected.length;
        nonEmpty += expected.filter((c) => !c.empty).length;
        unpriced += expected.filter((c) => c.usd === null && (c.timestamp - START) > 3_600).length;
      }),
      { seed: SEED, numRuns: 40 },
    );
    // The windows were not all empty or all before the first price.
    expect(compared).toBeGreaterThan(500);
    expect(nonEmpty).toBeGreaterThan(100);
    expect(unpriced).toBeGreaterThan(0); // some windows crossed an expiry
  }, 180_000);
});
