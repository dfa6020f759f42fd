/**
 * A synthetic large store, generated straight into the database with set-based SQL
 * (generate_series), shaped like what the indexer writes: tokens, holders, pools, reserves,
 * prices, 12 s blocks over 48 h, swaps spread over them, and the hourly volume buckets the
 * indexer maintains from its swaps. Deterministic (hash-derived values, no random()), so every run
 * measures the same data.
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { ensurePartitionsBetween, setCheckpoint, type Database } from "../db/index.js";

export interface Scale {
  /** Holders of the one big token (BIG). */
  bigHolders: number;
  /** Holders spread over ten smaller tokens. */
  otherHolders: number;
  /** Pools: KSM/USDt plus KSM/token for the rest. */
  pools: number;
  swaps: number;
  /** Price history rows of the pool tokens (every pool token, evenly over the 48 h). */
  prices: number;
}

export const FULL: Scale = { bigHolders: 600_000, otherHolders: 400_000, pools: 1_000, swaps: 5_000_000, prices: 1_000_000 };
export const SMALL_SWAPS: Scale = { ...FULL, bigHolders: 1_000, otherHolders: 1_000, swaps: 10_000, prices: 10_000 };

export const HEAD_TIME = 1_795_000_000;
export const BLOCK_SECONDS = 12;
/** 48 h of blocks. */
export const BLOCKS = (48 * 3_600) / BLOCK_SECONDS;
export const HEAD = BLOCKS;
export const KSM = 0;
/** An account holding many tokens and LP positions (the portfolio route). */
export const WALLET = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
export const USDT = 1984;
export const BIG = 1000;
/** Each block of bench/ingest-load.ts: BIG's top balances moved, new BIG holders, KSM/USDt swaps (5,000 holder changes, 200 swaps). */
export const INGEST = { UPDATED: 4_900, NEW_PER_BLOCK: 100, SWAPS_PER_BLOCK: 200 };
/** Pool tokens are FIRST_POOL_TOKEN … FIRST_POOL_TOKEN + pools - 2. */
export const FIRST_POOL_TOKEN = 2000;

/** A deterministic pseudo-random bigint in [0, 2^48) from an integer expression. */
const h = (expr: string) => `(('x' || substr(md5((${expr})::text), 1, 12))::bit(48)::bigint)`;

export async function generate(db: Database, scale: Scale, log: (msg: string) => void = () => {}): Promise<void> {
  const run = (q: string) => db.execute(sql.raw(q));
  const t0 = performance.now();
  const step = (what: string) => log(`  ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const lastPoolToken = FIRST_POOL_TOKEN + scale.pools - 2;
  await ensurePartitionsBetween(db, 0, HEAD);

  await run(`insert into blocks (number, hash, timestamp)
    select n, '0x' || md5(n::text) || md5((n + 1)::text), ${HEAD_TIME} - (${HEAD} - n) * ${BLOCK_SECONDS} from generate_series(1, ${HEAD}) n`);
  // Followed from the chain's first block: every block's events are held (db/queries/coverage.ts).
  await run(`insert into event_ranges (from_block, to_block) values (1, ${HEAD})`);
  step(`${HEAD} blocks`);

  await run(`insert into tokens (id, name, symbol, decimals, supply, owner, kind, asset_id, status, block_number) values
    (${KSM}, 'Kusama', 'KSM', 12, '15000000000000000000', null, 'native', null, 'live', ${HEAD}),
    (${USDT}, 'Tether USD', 'USDt', 6, '100000000000000', 'treasury', 'asset', ${USDT}, 'live', ${HEAD}),
    (${BIG}, 'Big', 'BIG', 10, '1000000000000000000000', 'treasury', 'asset', ${BIG}, 'live', ${HEAD})`);
  await run(`insert into tokens (id, name, symbol, decimals, supply, owner, kind, asset_id, status, block_number)
    select id, 'Token ' || id, 'T' || id, 6 + id % 13, ((1000000000000 + id)::text || '000000')::numeric, 'treasury', 'asset', id, 'live', ${HEAD}
    from generate_series(${FIRST_POOL_TOKEN}, ${lastPoolToken}) id`);
  step(`${scale.pools + 2} tokens`);

  // Holders: accounts are 48-char strings (SS58-sized); balances up to 2^48 × 10^10.
  await run(`insert into holders (token_id, account, balance, block_number)
    select ${BIG}, 'acct' || lpad(i::text, 44, '0'), (${h("i")}::numeric * 10000000000 + 1), ${HEAD} from generate_series(1, ${scale.bigHolders}) i`);
  await run(`insert into holders (token_id, account, balance, block_number)
    select ${FIRST_POOL_TOKEN} + i % 10, 'acct' || lpad(i::text, 44, '0'), (${h("i + 7")} + 1)::numeric, ${HEAD} from generate_series(1, ${scale.otherHolders}) i`);
  // A wallet (Alice, SS58 prefix 42: a store whose chain has not said its own) with 500 tokens and 50 LP positions.
  await run(`insert into holders (token_id, account, balance, block_number)
    select id, '${WALLET}', 1000000 + id, ${HEAD} from generate_series(${FIRST_POOL_TOKEN}, ${FIRST_POOL_TOKEN + 499}) id on conflict do nothing`);
  await run(`insert into lp_holders (lp_token_id, account, balance, block_number) select id, '${WALLET}', 1000 + id, ${HEAD} from generate_series(1, 50) id`);
  await run(`insert into holder_counts (token_id, holders) select token_id, count(*) from holders group by token_id`);
  step(`${scale.bigHolders + scale.otherHolders} holders`);

  // Pools: KSM/USDt (1000 KSM : 25,000 USDt) and KSM/token with hash-derived depths.
  await run(`insert into pools (token0_id, token1_id, lp_token_id, account, reserve0, reserve1, lp_supply, lp_fee_ppm, created_block, block_number) values
    (${KSM}, ${USDT}, 0, 'pool-0', '1000000000000000', '25000000000', '5000000000000', 3000, 1, ${HEAD})`);
  await run(`insert into pools (token0_id, token1_id, lp_token_id, account, reserve0, reserve1, lp_supply, lp_fee_ppm, created_block, block_number)
    select ${KSM}, id, id - ${FIRST_POOL_TOKEN} + 1, 'pool-' || id, ((${h("id")} % 1000 + 10) * 1000000000000)::numeric,
           ((${h("id + 1")} % 100000 + 100) * power(10::numeric, 6 + id % 13))::numeric(78,0), 1000000000, 3000, 1, ${HEAD}
    from generate_series(${FIRST_POOL_TOKEN}, ${lastPoolToken}) id`);
  await run(`insert into pool_reserves (token0_id, token1_id, block_number, timestamp, reserve0, reserve1, lp_supply, lp_fee_ppm)
    select token0_id, token1_id, b.n, b.t, reserve0, reserve1, lp_supply, lp_fee_ppm from pools,
      (values (1, ${HEAD_TIME - (HEAD - 1) * BLOCK_SECONDS}), (${HEAD - 7_200}, ${HEAD_TIME - 7_200 * BLOCK_SECONDS}), (${HEAD}, ${HEAD_TIME})) b(n, t)`);
  // KSM/USDt moves every block (the candles of the busiest pool have a price in every minute).
  await run(`insert into pool_reserves (token0_id, token1_id, block_number, timestamp, reserve0, reserve1, lp_supply, lp_fee_ppm)
    select ${KSM}, ${USDT}, n, ${HEAD_TIME} - (${HEAD} - n) * ${BLOCK_SECONDS}, 1000000000000000 + ${h("n")} % 1000000000000, 25000000000 + ${h("n + 1")} % 100000000, 5000000000000, 3000
    from generate_series(2, ${HEAD - 1}) n where n <> ${HEAD - 7_200}`);
  // BIG's supply and holder count every 10 blocks, as the indexer records them.
  await run(`insert into token_stats (token_id, block_number, timestamp, supply, holders)
    select ${BIG}, n, ${HEAD_TIME} - (${HEAD} - n) * ${BLOCK_SECONDS}, 1000000000000000000000 + n, ${scale.bigHolders} - ${HEAD} + n from generate_series(1, ${HEAD}, 10) n`);
  step(`${scale.pools} pools`);

  // Prices: the head price of every token, and a KSM history point every 10 blocks.
  await run(`insert into token_prices (token_id, block_number, price_usd) values (${USDT}, 1, '1'), (${BIG}, ${HEAD}, '0.37')`);
  await run(`insert into token_prices (token_id, block_number, price_usd)
    select ${KSM}, n, (25 + (${h("n")} % 1000) / 1000.0)::numeric from generate_series(1, ${HEAD}, 10) n`);
  // The price history of the pool tokens, ≈ scale.prices rows: a point every `every` blocks each.
  const every = Math.max(1, Math.ceil((BLOCKS * (scale.pools - 1)) / Math.max(1, scale.prices)));
  await run(`insert into token_prices (token_id, block_number, price_usd)
    select id, n, (1 + (id % 97) / 100.0 + (${h("id * 31 + n")} % 1000) / 100000.0)::numeric
    from generate_series(${FIRST_POOL_TOKEN}, ${lastPoolToken}) id, generate_series(1, ${HEAD - 1}, ${every}) n`);
  await run(`insert into token_prices (token_id, block_number, price_usd)
    select t1.token1_id, ${HEAD}, (25.0 * t1.reserve0::numeric / 1e12 / (t1.reserve1::numeric / power(10::numeric, t.decimals)))::numeric(40,18)
    from pools t1 join tokens t on t.id = t1.token1_id where t1.token1_id <> ${USDT}`);
  await run(`insert into token_latest_prices (token_id, block_number, price_usd)
    select distinct on (token_id) token_id, block_number, price_usd from token_prices order by token_id, block_number desc`);
  step("prices");

  // Swaps over 48 h: row i lands in block 1 + i % BLOCKS; its pool and amounts are hash-derived.
  const chunk = 1_000_000;
  for (let from = 0; from < scale.swaps; from += chunk) {
    const to = Math.min(scale.swaps, from + chunk) - 1;
    await run(`insert into swaps (block_number, event_index, hop, token0_id, token1_id, token_in, token_out, amount_in, amount_out, fee, volume_usd, fee_usd, account, timestamp)
      select b, i / ${BLOCKS}, 0, ${KSM}, p, ${KSM}, p, a::numeric, (a * 997 / 1000)::numeric, (a * 3 / 1000)::numeric,
             (a / 1e12 * 25)::numeric(40,18), (a / 1e12 * 25 * 0.003)::numeric(40,18), 'trader' || (i % 5000), ${HEAD_TIME} - (${HEAD} - b) * ${BLOCK_SECONDS}
      from (select i, 1 + i % ${BLOCKS} as b,
                   case when i % 4 = 0 then ${USDT} else ${FIRST_POOL_TOKEN} + (${h("i")} % ${scale.pools - 1}) end as p,
                   (${h("i + 3")} % 100000000000000 + 1000000) as a
            from generate_series(${from}, ${to}) i) s`);
    step(`${to + 1} swaps`);
  }
  // The hourly and per-minute buckets, per pool and for all pools (-1/-1), as
  // db/queries/activity.ts insertSwaps maintains them at ingest.
  for (const [table, col, size] of [["pool_volume_hourly", "hour", 3600], ["pool_volume_minutely", "minute", 60]] as const) {
    await run(`insert into ${table} (token0_id, token1_id, ${col}, volume_usd, fee_usd, swaps)
      select token0_id, token1_id, timestamp - timestamp % ${size}, sum(volume_usd), sum(fee_usd), count(*)::integer from swaps group by 1, 2, 3`);
    await run(`insert into ${table} (token0_id, token1_id, ${col}, volume_usd, fee_usd, swaps)
      select -1, -1, timestamp - timestamp % ${size}, sum(volume_usd), sum(fee_usd), count(*)::integer from swaps group by 3`);
  }
  step("volume buckets");
  // Candles, and the other rows the indexer derives as it goes, by the statements with which
  // migration 0008 derives them for a store that predates it (one definition of each).
  const migration = readFileSync(new URL("../db/migrations/0008_portfolio_candles.sql", import.meta.url), "utf8");
  for (const statement of migration.slice(migration.indexOf("-- What this migration can derive")).split("--> statement-breakpoint")) {
    if (/insert into "(pool_candles|token_candles)"/i.test(statement)) await run(statement);
  }
  step("candles");
  // Balance and token history from block 1 (answers as of a block): every current row, read there.
  await run(`insert into token_history (id, name, symbol, decimals, supply, owner, kind, asset_id, location, status, accounts, block_number)
    select id, name, symbol, decimals, supply, owner, kind, asset_id, location, status, accounts, 1 from tokens`);
  await run(`insert into balance_history (lp, token_id, account, block_number, balance) select false, token_id, account, 1, balance from holders`);
  await run(`insert into balance_history (lp, token_id, account, block_number, balance) select true, lp_token_id, account, 1, balance from lp_holders`);
  await run(`insert into history_floors (kind, block_number) values ('holders', 1), ('lp', 1)`);
  step("balance and token history");
  await setCheckpoint(db, { blockNumber: HEAD, blockHash: `0x${"ab".repeat(32)}`, chainFinalized: HEAD });
  // A store in steady state has been vacuumed (autovacuum): visibility maps set, so the holder
  // pages are index-only scans.
  await run("vacuum analyze");
  // …and has written the bulk load out: without a checkpoint here, the checkpointer flushes the
  // generated gigabytes while the first figures are taken, on the same cores.
  await run("checkpoint").catch((err: unknown) => log(`  no checkpoint (${(err as Error).message}): the first figures may pay for its flush`));
  step("vacuum analyze, checkpoint");
}
