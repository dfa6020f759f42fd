/**
 * `tokenpool verify`: the store against chain storage at the store's checkpoint block — tokens,
 * pools (reserves, LP supply) and holders, all of them or a random sample — and, with
 * `repair`, the chain's values written back.
 *
 * The indexer may run meanwhile. Every comparison is at the checkpoint block B read at the
 * start; a row the indexer wrote after it (block_number > B) is newer than the comparison and
 * is neither reported nor touched, and every repair write is forward-only (the upserts keep a
 * newer row; deletes are conditional on block_number <= B), so a repair never rolls a value
 * back.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { deleteTokens, getCheckpoint, insertPoolReserves, schema, upsertHolders, upsertPools, upsertTokens, type Database } from "../db/index.js";
import { BALANCE_MAPS, type BalanceState, type ChainReader, type TokenState } from "./chain/reader.js";

export type Scope = "tokens" | "pools" | "holders";

export interface Drift {
  kind: "missing" | "ghost" | "wrong";
  table: "tokens" | "pools" | "holders" | "holder_counts";
  /** Token id, "token0/token1", or "token|account". */
  key: string;
  store: unknown;
  /** The chain's value; for holder_counts, the number of the store's own holder rows of the token. */
  chain: unknown;
}

export interface VerifyReport {
  block: number;
  hash: string;
  /** Rows compared per table. */
  checked: Record<string, number>;
  drift: Drift[];
  /** Drift findings by table and kind ("holders.ghost": 3). */
  counts: Record<string, number>;
  repaired: boolean;
}

export interface VerifyOptions {
  scopes?: Scope[];
  /** Holders: a random sample of about this many rows from each side instead of all. */
  sample?: number;
  repair?: boolean;
  /** Findings kept in the report (the counts are always complete). Default 1,000. */
  keep?: number;
}

/** Rows of a raw query on either driver (PGlite answers { rows }, postgres.js an array). */
async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

const pgText = (values: (string | number)[]) => `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;

/**
 * Compares the store with the chain at its checkpoint (`reader` must be connected to the same
 * chain). Throws when the store has no checkpoint. Contract for callers (the CLI, the follower
 * after a runtime upgrade): the report lists the findings (up to `keep`) and counts all of them;
 * with `repair` every finding has been written back when it returns.
 */
export async function verifyStore(db: Database, reader: ChainReader, options: VerifyOptions = {}): Promise<VerifyReport> {
  const cp = await getCheckpoint(db);
  if (!cp) throw new Error("the store has no checkpoint: nothing to verify yet");
  const B = cp.blockNumber;
  const block = await reader.blockByHash(cp.blockHash, B);
  const scopes = new Set(options.scopes ?? ["tokens", "pools", "holders"]);
  const keep = options.keep ?? 1_000;
  const report: VerifyReport = { block: B, hash: cp.blockHash, checked: {}, drift: [], counts: {}, repaired: !!options.repair };
  const found = (d: Drift) => {
    const k = `${d.table}.${d.kind}`;
    report.counts[k] = (report.counts[k] ?? 0) + 1;
    if (report.drift.length < keep) report.drift.push(d);
  };
  const ids = await reader.allTokenIds(block.at);

  if (scopes.has("tokens")) {
    const { tokens } = await reader.tokens(block.at, ids);
    const stored = new Map((await db.select().from(schema.tokens)).map((t) => [t.id, t]));
    const fields = (t: TokenState | typeof schema.tokens.$inferSelect) => ({ name: t.name, symbol: t.symbol, decimals: t.decimals, supply: String(t.supply), owner: t.owner, status: t.status, kind: t.kind });
    const fix: TokenState[] = [];
    for (const t of tokens) {
      const s = stored.get(t.id);
      stored.delete(t.id);
      if (s && Number(s.blockNumber) > B) continue;
      const want = { ...fields(t), name: t.name.replaceAll("\u0000", ""), symbol: t.symbol.replaceAll("\u0000", "") };
      if (!s) found({ kind: "missing", table: "tokens", key: String(t.id), store: null, chain: want });
      else if (JSON.stringify(fields(s)) !== JSON.stringify(want)) found({ kind: "wrong", table: "tokens", key: String(t.id), store: fields(s), chain: want });
      else continue;
      fix.push(t);
    }
    const ghosts = [...stored.values()].filter((s) => Number(s.blockNumber) <= B);
    for (const s of ghosts) found({ kind: "ghost", table: "tokens", key: String(s.id), store: fields(s), chain: null });
    report.checked.tokens = tokens.length;
    if (options.repair) {
      await upsertTokens(db, fix.map((t) => ({ ...t, blockNumber: B })));
      await deleteTokens(db, ghosts.map((g) => g.id), B);
    }
  }

  if (scopes.has("pools")) {
    const { pools: refs } = await reader.allPools(block.at);
    const states = await reader.pools(block.at, refs);
    const stored = new Map((await db.select().from(schema.pools)).map((p) => [`${p.token0Id}/${p.token1Id}`, p]));
    const fix: typeof schema.pools.$inferInsert[] = [];
    for (const p of states) {
      const key = `${p.ref.token0Id}/${p.ref.token1Id}`;
      const s = stored.get(key);
      stored.delete(key);
      if (s && Number(s.blockNumber) > B) continue;
      const want = { reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply, lpTokenId: p.ref.lpTokenId, account: p.ref.account };
      const have = s && { reserve0: String(s.reserve0), reserve1: String(s.reserve1), lpSupply: String(s.lpSupply), lpTokenId: Number(s.lpTokenId), account: s.account };
      if (!have) found({ kind: "missing", table: "pools", key, store: null, chain: want });
      else if (JSON.stringify(have) !== JSON.stringify(want)) found({ kind: "wrong", table: "pools", key, store: have, chain: want });
      else continue;
      const lpFeePpm = s?.lpFeePpm ?? Number(reader.lpFeePpm(block.at) ?? 0n);
      fix.push({ ...p.ref, reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply, lpFeePpm, createdBlock: Number(s?.createdBlock ?? B), blockNumber: B });
    }
    const ghosts = [...stored.entries()].filter(([, s]) => Number(s.blockNumber) <= B);
    for (const [key, s] of ghosts) found({ kind: "ghost", table: "pools", key, store: { reserve0: s.reserve0, reserve1: s.reserve1 }, chain: null });
    report.checked.pools = states.length;
    if (options.repair) {
      await upsertPools(db, fix);
      // …and its history: from B on, a pair or a portfolio as of a block reads the repaired pool.
      await insertPoolReserves(db, fix.map((f) => ({ token0Id: f.token0Id, token1Id: f.token1Id, blockNumber: B, timestamp: block.timestamp, reserve0: f.reserve0!, reserve1: f.reserve1!, lpSupply: f.lpSupply!, lpFeePpm: f.lpFeePpm })));
      for (const [key] of ghosts) {
        const [a, b] = key.split("/").map(Number);
        await db.execute(sql`delete from pools where token0_id = ${a} and token1_id = ${b} and block_number <= ${B}`);
      }
    }
  }

  if (scopes.has("holders")) {
    report.checked.holders = options.sample ? await sampleHolders(db, reader, block.at, B, options.sample, found, !!options.repair) : await allHolders(db, reader, block.at, B, found, !!options.repair);
    // The counts are the store's own bookkeeping: they must equal its rows.
    for (const c of await rows<{ token_id: string; counted: string | null; actual: string | null }>(
      db,
      sql`select coalesce(c.token_id, h.token_id) as token_id, c.holders::text as counted, h.n::text as actual
          from holder_counts c full join (select token_id, count(*) as n from holders group by token_id) h on h.token_id = c.token_id
          where coalesce(c.holders, 0) <> coalesce(h.n, 0)`,
    )) {
      found({ kind: "wrong", table: "holder_counts", key: String(c.token_id), store: Number(c.counted ?? 0), chain: Number(c.actual ?? 0) });
    }
    if (options.repair && Object.keys(report.counts).some((k) => k.startsWith("holder"))) {
      await db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        await t.execute(sql`delete from holder_counts`);
        await t.execute(sql`insert into holder_counts (token_id, holders) select token_id, count(*) from holders group by token_id`);
      });
    }
  }
  return report;
}

type Found = (d: Drift) => void;

/** Compares chain balances with the store's rows for the same (token, account) pairs; returns the stored pairs seen. */
async function comparePage(db: Database, page: BalanceState[], B: number, found: Found, repair: boolean): Promise<void> {
  if (page.length === 0) return;
  const stored = await rows<{ token_id: string; account: string; balance: string; block_number: string }>(
    db,
    sql`select h.token_id::text, h.account, h.balance::text, h.block_number::text from holders h
        join unnest(${pgText(page.map((b) => b.tokenId))}::bigint[], ${pgText(page.map((b) => b.account))}::text[]) as p(token_id, account)
          on h.token_id = p.token_id and h.account = p.account`,
  );
  const byKey = new Map(stored.map((s) => [`${s.token_id}|${s.account}`, s]));
  const fix: BalanceState[] = [];
  for (const b of page) {
    const key = `${b.tokenId}|${b.account}`;
    const s = byKey.get(key);
    if (s && Number(s.block_number) > B) continue;
    if (!s && b.balance !== "0") found({ kind: "missing", table: "holders", key, store: null, chain: b.balance });
    else if (s && b.balance === "0") found({ kind: "ghost", table: "holders", key, store: s.balance, chain: "0" });
    else if (s && s.balance !== b.balance) found({ kind: "wrong", table: "holders", key, store: s.balance, chain: b.balance });
    else continue;
    fix.push(b);
  }
  // upsertHolders writes forward-only (a newer row wins) and deletes a zero balance only where
  // the row is not newer than B.
  if (repair) await upsertHolders(db, fix.map((b) => ({ ...b, blockNumber: B })));
}

/**
 * Every balance of the chain, page by page, checked against the store; the pairs seen go to a
 * scratch table so that the store's rows the chain does not have (ghosts) are found by one
 * anti-join instead of holding either side in memory.
 */
async function allHolders(db: Database, reader: ChainReader, at: Parameters<ChainReader["tokens"]>[0], B: number, found: Found, repair: boolean): Promise<number> {
  const seen = `verify_seen_${randomUUID().replaceAll("-", "")}`;
  await db.execute(sql.raw(`create table ${seen} (token_id bigint not null, account text not null, primary key (token_id, account))`));
  try {
    let checked = 0;
    for await (const page of reader.allBalances(at)) {
      await comparePage(db, page.rows, B, found, repair);
      if (page.rows.length > 0) {
        await db.execute(sql`insert into ${sql.raw(seen)} select * from unnest(${pgText(page.rows.map((b) => b.tokenId))}::bigint[], ${pgText(page.rows.map((b) => b.account))}::text[]) on conflict do nothing`);
      }
      checked += page.rows.length;
    }
    const ghosts = await rows<{ token_id: string; account: string; balance: string }>(
      db,
      sql`select h.token_id::text, h.account, h.balance::text from holders h left join ${sql.raw(seen)} s on s.token_id = h.token_id and s.account = h.account
          where s.token_id is null and h.block_number <= ${B}`,
    );
    for (const g of ghosts) found({ kind: "ghost", table: "holders", key: `${g.token_id}|${g.account}`, store: g.balance, chain: "0" });
    if (repair && ghosts.length > 0) {
      await upsertHolders(db, ghosts.map((g) => ({ tokenId: Number(g.token_id), account: g.account, balance: "0", blockNumber: B })));
    }
    return checked;
  } finally {
    await db.execute(sql.raw(`drop table if exists ${seen}`));
  }
}

/**
 * About `n` rows from each side: random store rows (wrong values, ghosts) read back from the
 * chain, and chain pages starting at random storage keys of each map (missing rows).
 */
async function sampleHolders(db: Database, reader: ChainReader, at: Parameters<ChainReader["tokens"]>[0], B: number, n: number, found: Found, repair: boolean): Promise<number> {
  const picked = await rows<{ token_id: string; account: string }>(db, sql`select token_id::text, account from holders where block_number <= ${B} order by random() limit ${n}`);
  const pairs = picked.map((p) => ({ tokenId: Number(p.token_id), account: p.account })).filter((p) => reader.directory.key(p.tokenId) !== undefined);
  await comparePage(db, await reader.balances(at, pairs), B, found, repair);
  let fromChain = 0;
  const perMap = Math.max(1, Math.ceil(n / BALANCE_MAPS.length));
  const queries = [at.query.system.account, at.query.assets.account, at.query.foreignAssets?.account] as ({ keyPrefix(): string } | undefined)[];
  for (let map = 0; map < BALANCE_MAPS.length; map++) {
    const query = queries[map];
    if (!query) continue;
    const start = `${query.keyPrefix()}${randomBytes(16).toString("hex")}`;
    for await (const page of reader.allBalances(at, { map, lastKey: start }, perMap)) {
      if (page.map !== map) break;
      await comparePage(db, page.rows, B, found, repair);
      fromChain += page.rows.length;
      break;
    }
  }
  return pairs.length + fromChain;
}
