/**
 * Continuous verification: the store compared with chain storage, all of it, again and again.
 * Events say what a block touched, not everything it changed: a refund that burns a balance, a
 * hold placed by staking (no `balances` event on today's hubs), a storage write, a migration.
 * The sweep finds those: every token, pool, LP position and holder balance the store serves as
 * current is read from chain storage at the store's checkpoint B (pinned per page: the node keeps
 * a recent block's state, not a 30-minute-old one) and compared with the store's row, when the
 * row is not newer than B (block_number <= B: the store then claims that value at B).
 *
 * A pass reads, in order: tokens (details and metadata), pools (reserves, LP supply), LP
 * positions, every balance of the chain page by page (System.Account, Assets.Account,
 * ForeignAssets.Account: rows the store lacks or has wrong), then every holder row of the store
 * page by page (rows the chain no longer has). Reads are paced to a node budget (entries per
 * second). What differs is not written here: it goes to the follower (RepairQueue), which reads
 * it again at its own checkpoint between batches and writes it as a batch does — current rows,
 * balance and token history, reserves, prices — so a repair can never overwrite a row the
 * follower wrote after the sweep's block, and the in-memory market follows. The sweep's position
 * is stored only once the page's repairs are committed: a crash at any moment finds them again.
 *
 * A runtime upgrade starts a new pass at once (catch-up records the upgrade with its batch); the
 * follower goes on meanwhile.
 */
import { deleteTask, getCheckpoint, getTask, holderPageAfter, setTask, storedHolders, storedLpHolders, storedPools, storedTokens, type Database, type StoredHolder } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import type { At, BalanceState, ChainReader, LpBalance, PoolBalances } from "./chain/reader.js";
import { emptyRepairs, type RepairQueue, type Repairs } from "./repair.js";

export const SWEEP_TASK = "sweep";
/** Written with the batch that holds a runtime's first block: a pass from that block is owed. */
export const UPGRADE_SWEEP_TASK = "sweep-upgrade";

/** Logged at an upgrade (and for a pass owed from before) while the sweep is off. */
export const UNVERIFIED_UPGRADE =
  "indexer: runtime upgrade with the verification sweep off (INDEXER_SWEEP_READS_PER_SECOND=0): tokens and pools were read again at its first block, balances its migrations changed without events stay as they are until `tokenpool verify --repair`";

export type SweepPhase = "tokens" | "pools" | "lp" | "chain" | "store";
const PHASES: SweepPhase[] = ["tokens", "pools", "lp", "chain", "store"];

export interface SweepState {
  /** Passes started since the store was created. */
  pass: number;
  passStartedAt: string;
  passStartBlock: number;
  phase: SweepPhase;
  /** The chain phase's position: BALANCE_MAPS index and last storage key read. */
  chain: { map: number; lastKey: string | null };
  /** The store phase's position: the last (token, account) compared. */
  store: { tokenId: number; account: string } | null;
  /** The block the last page was compared at. */
  block: number;
  /** Entries compared, and differences found, in this pass. */
  checked: number;
  found: number;
  /** Differences repaired since the store began, by "table.kind". */
  repaired: Record<string, number>;
  /** The runtime upgrade whose first block this pass started at, if it did. */
  upgrade: number | null;
  lastPass: { pass: number; startBlock: number; endBlock: number; startedAt: string; endedAt: string; seconds: number; checked: number; found: number; upgrade: number | null } | null;
}

export interface Drift {
  table: "tokens" | "pools" | "lp_holders" | "holders";
  /** undecodable: a chain entry no known layout decodes (counted, logged, not compared). */
  kind: "missing" | "ghost" | "wrong" | "undecodable";
  key: string;
  store: unknown;
  chain: unknown;
}

export interface SweepContext {
  db: Database;
  reader: ChainReader;
  queue: RepairQueue;
  logger: Logger;
  fence?: (tx: Database) => Promise<void>;
  signal: AbortSignal;
  /** Storage entries read per second at most (the node budget). */
  readsPerSecond: number;
  /** Entries per chain page and store rows per store page. */
  pageSize?: number;
  /** After each page (status, metrics). */
  onProgress?: (state: SweepState, drift: Drift[]) => void;
}

const PAGE = 1_000;
/** Differences of one page logged one by one (with both values); the rest are counted in one line. */
export const DRIFT_LOG_LINES = 20;

/** A balance's compared fields: the balance, the native parts, an asset account's status. */
function balanceFields(b: { balance: string; free?: string | null; reserved?: string | null; frozen?: string | null; transferable?: string | null; status?: string | null }): string {
  return [b.balance, b.free ?? null, b.reserved ?? null, b.frozen ?? null, b.transferable ?? null, b.status ?? null].join("|");
}

/**
 * How the store's row differs from the chain's balance at block B; undefined when it does not
 * (or when the row is newer than B: the follower wrote it after, and it is not this page's to judge).
 */
export function balanceDrift(chain: BalanceState, stored: StoredHolder | undefined, B: number): Drift | undefined {
  const key = `${chain.tokenId}|${chain.account}`;
  if (stored && Number(stored.block_number) > B) return undefined;
  const zero = chain.balance === "0";
  if (!stored) return zero ? undefined : { table: "holders", kind: "missing", key, store: null, chain: chain.balance };
  if (zero) return { table: "holders", kind: "ghost", key, store: stored.balance, chain: "0" };
  const [have, want] = [balanceFields(stored), balanceFields(chain)];
  return have === want ? undefined : { table: "holders", kind: "wrong", key, store: have, chain: want };
}

/** Sleeps `ms`, or until `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export class SweepStopped extends Error {}

function freshPass(prior: SweepState | undefined, block: number, upgrade: number | null): SweepState {
  return {
    pass: (prior?.pass ?? 0) + 1,
    passStartedAt: new Date().toISOString(),
    passStartBlock: block,
    phase: "tokens",
    chain: { map: 0, lastKey: null },
    store: null,
    block,
    checked: 0,
    found: 0,
    repaired: prior?.repaired ?? {},
    upgrade,
    lastPass: prior?.lastPass ?? null,
  };
}

/**
 * Runs passes until `signal` aborts (returns) or a read fails (throws: the follower's session
 * ends and a new one resumes from the stored position).
 */
export class Sweeper {
  private state: SweepState | undefined;
  /** When the next read may start (the budget's clock). */
  private nextAt = 0;
  private readonly pageSize: number;

  constructor(private readonly ctx: SweepContext) {
    this.pageSize = ctx.pageSize ?? PAGE;
  }

  async run(): Promise<void> {
    const { db, signal } = this.ctx;
    this.state = await getTask<SweepState>(db, SWEEP_TASK);
    while (!signal.aborted) {
      const cp = await getCheckpoint(db);
      if (!cp) return;
      const upgrade = await getTask<{ block: number; specName: string; specVersion: number }>(db, UPGRADE_SWEEP_TASK);
      if (!this.state || (upgrade && this.state.upgrade !== upgrade.block)) {
        if (upgrade) this.ctx.logger.warn({ block: upgrade.block, specName: upgrade.specName, specVersion: upgrade.specVersion }, "indexer: verifying the store against chain storage from a runtime upgrade (its migrations announce nothing)");
        this.state = freshPass(this.state, cp.blockNumber, upgrade?.block ?? null);
      }
      const at = (await this.ctx.reader.blockByHash(cp.blockHash, cp.blockNumber)).at;
      await this.page(this.state, at, cp.blockNumber);
    }
  }

  /** Waits until `entries` more reads fit the budget. */
  private async budget(entries: number): Promise<void> {
    const now = Date.now();
    const wait = this.nextAt - now;
    this.nextAt = Math.max(now, this.nextAt) + (entries * 1000) / this.ctx.readsPerSecond;
    await pause(wait, this.ctx.signal);
    if (this.ctx.signal.aborted) throw new SweepStopped("stopped");
  }

  /** One unit of work of the current phase at block B, its repairs committed, its position stored. */
  private async page(state: SweepState, at: At, B: number): Promise<void> {
    const drift: Drift[] = [];
    const repairs = emptyRepairs();
    let next: Partial<SweepState> = {};
    let checked = 0;
    let undecodable = 0;
    switch (state.phase) {
      case "tokens":
        checked = await this.tokens(at, B, drift, repairs);
        next = { phase: "pools" };
        break;
      case "pools":
        checked = await this.pools(at, B, drift, repairs);
        next = { phase: "lp" };
        break;
      case "lp":
        checked = await this.lp(at, B, drift, repairs);
        next = { phase: "chain" };
        break;
      case "chain": {
        await this.budget(this.pageSize);
        const page = await this.ctx.reader.balancePage(at, state.chain, this.pageSize);
        const stored = await storedHolders(this.ctx.db, page.rows);
        for (const b of page.rows) {
          const d = balanceDrift(b, stored.get(`${b.tokenId}|${b.account}`), B);
          if (d) drift.push(d), repairs.pairs.push({ tokenId: b.tokenId, account: b.account });
        }
        checked = page.entries;
        // Never silently: an entry no known layout decodes is an error line with its key, counted
        // ("holders.undecodable" in /health and the metrics); the pass goes on past it.
        for (const u of page.undecodable) this.ctx.logger.error({ block: B, key: u.key, reason: u.reason }, "indexer: a balance entry could not be decoded; not compared");
        if (page.undecodable.length > 0) undecodable = page.undecodable.length;
        next = page.next ? { chain: page.next } : { phase: "store", chain: { map: 0, lastKey: null } };
        break;
      }
      case "store": {
        const rows = await holderPageAfter(this.ctx.db, state.store, this.pageSize);
        const readable = rows.filter((r) => this.ctx.reader.directory.key(Number(r.token_id)) !== undefined);
        await this.budget(readable.length);
        const chain = await this.ctx.reader.balances(at, readable.map((r) => ({ tokenId: Number(r.token_id), account: r.account })));
        chain.forEach((b, i) => {
          const d = balanceDrift(b, readable[i], B);
          if (d) drift.push(d), repairs.pairs.push({ tokenId: b.tokenId, account: b.account });
        });
        checked = readable.length;
        const last = rows[rows.length - 1];
        next = rows.length < this.pageSize ? { phase: "tokens", store: null } : { store: { tokenId: Number(last!.token_id), account: last!.account } };
        break;
      }
    }
    // Every difference is repaired and counted; the log names the first few of a page with both
    // values, then counts the rest (a migration that changes every balance is every row of every page).
    for (const d of drift.slice(0, DRIFT_LOG_LINES)) this.ctx.logger.warn({ block: B, table: d.table, kind: d.kind, key: d.key, store: d.store, chain: d.chain }, "indexer: the store differed from chain storage; repairing");
    if (drift.length > DRIFT_LOG_LINES) {
      const byKind: Record<string, number> = {};
      for (const d of drift.slice(DRIFT_LOG_LINES)) byKind[`${d.table}.${d.kind}`] = (byKind[`${d.table}.${d.kind}`] ?? 0) + 1;
      this.ctx.logger.warn({ block: B, more: drift.length - DRIFT_LOG_LINES, byKind, lastKey: drift[drift.length - 1]!.key }, "indexer: the store differed from chain storage in more rows of this page; repairing them too");
    }
    // The follower reads them again at its checkpoint and commits them; only then does the
    // sweep move past them (a crash before finds them again).
    await this.ctx.queue.post(state.upgrade === null ? repairs : { ...repairs, upgrade: state.upgrade });
    const repaired = { ...state.repaired };
    for (const d of drift) repaired[`${d.table}.${d.kind}`] = (repaired[`${d.table}.${d.kind}`] ?? 0) + 1;
    if (undecodable > 0) repaired["holders.undecodable"] = (repaired["holders.undecodable"] ?? 0) + undecodable;
    let updated: SweepState = { ...state, ...next, block: B, checked: state.checked + checked, found: state.found + drift.length, repaired };
    const passEnded = next.phase === "tokens";
    if (passEnded) {
      const endedAt = new Date();
      updated.lastPass = {
        pass: state.pass,
        startBlock: state.passStartBlock,
        endBlock: B,
        startedAt: state.passStartedAt,
        endedAt: endedAt.toISOString(),
        seconds: Math.round((endedAt.getTime() - Date.parse(state.passStartedAt)) / 100) / 10,
        checked: updated.checked,
        found: updated.found,
        upgrade: state.upgrade,
      };
      updated = { ...freshPass(updated, B, null), upgrade: null };
    }
    await this.commit(updated, passEnded ? state.upgrade : null);
    if (passEnded) {
      // On a small chain (the devnet) a pass takes a second and finds nothing: one info line a
      // second buried the log. A pass that found drift, ended an upgrade's check or took a minute
      // or more (every pass of a real chain) is at info; /health shows the last pass either way.
      const pass = updated.lastPass!;
      const level = pass.found > 0 || pass.upgrade !== null || pass.seconds >= 60 ? "info" : "debug";
      this.ctx.logger[level](pass, "indexer: verification pass done: the store was compared with chain storage in full");
    }
    this.state = updated;
    this.ctx.onProgress?.(updated, undecodable > 0 ? [...drift, ...Array.from({ length: undecodable }, () => ({ table: "holders" as const, kind: "undecodable" as const, key: "", store: null, chain: null }))] : drift);
  }

  /** Stores the position; at the end of an upgrade's pass, its marker goes (unless a newer upgrade replaced it). */
  private async commit(state: SweepState, upgradeDone: number | null): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await this.ctx.fence?.(t);
      await setTask(t, SWEEP_TASK, state);
      if (upgradeDone !== null) {
        const marker = await getTask<{ block: number }>(t, UPGRADE_SWEEP_TASK);
        if (marker?.block === upgradeDone) await deleteTask(t, UPGRADE_SWEEP_TASK);
      }
    });
  }

  private async tokens(at: At, B: number, drift: Drift[], repairs: Repairs): Promise<number> {
    const { db, reader } = this.ctx;
    const chainIds = await reader.allTokenIds(at);
    const stored = new Map((await storedTokens(db)).map((t) => [Number(t.id), t]));
    const ids = [...new Set([...chainIds, ...[...stored.keys()].filter((id) => reader.directory.key(id) !== undefined)])];
    await this.budget(ids.length * 2);
    const { tokens, missing } = await reader.tokens(at, ids);
    const fields = (t: { name: string; symbol: string; decimals: number; supply: string; owner: string | null; kind: string; status: string; accounts: number | string | null }) =>
      JSON.stringify([t.name.replaceAll("\u0000", ""), t.symbol.replaceAll("\u0000", ""), Number(t.decimals), String(t.supply), t.owner, t.kind, t.status, t.accounts === null ? null : String(t.accounts)]);
    for (const t of tokens) {
      const s = stored.get(t.id);
      if (s && Number(s.block_number) > B) continue;
      const d: Drift | undefined = !s
        ? { table: "tokens", kind: "missing", key: String(t.id), store: null, chain: fields(t) }
        : fields(s) !== fields(t)
          ? { table: "tokens", kind: "wrong", key: String(t.id), store: fields(s), chain: fields(t) }
          : undefined;
      if (d) drift.push(d), repairs.tokens.push(t.id);
    }
    for (const id of missing) {
      const s = stored.get(id);
      if (s && Number(s.block_number) <= B) drift.push({ table: "tokens", kind: "ghost", key: String(id), store: s.symbol, chain: null }), repairs.tokens.push(id);
    }
    return ids.length;
  }

  private async pools(at: At, B: number, drift: Drift[], repairs: Repairs): Promise<number> {
    const { db, reader } = this.ctx;
    const { pools: refs } = await reader.allPools(at);
    const readable = refs.filter((r) => reader.directory.key(r.token0Id) !== undefined && reader.directory.key(r.token1Id) !== undefined);
    await this.budget(readable.length * 3);
    const states: PoolBalances[] = await reader.pools(at, readable);
    const stored = new Map((await storedPools(db)).map((p) => [`${p.token0_id}/${p.token1_id}`, p]));
    for (const p of states) {
      const key = `${p.ref.token0Id}/${p.ref.token1Id}`;
      const s = stored.get(key);
      if (s && Number(s.block_number) > B) continue;
      const want = [p.reserve0, p.reserve1, p.lpSupply, String(p.ref.lpTokenId), p.ref.account].join("|");
      const have = s && [s.reserve0, s.reserve1, s.lp_supply, s.lp_token_id, s.account].join("|");
      const d: Drift | undefined = !have ? { table: "pools", kind: "missing", key, store: null, chain: want } : have !== want ? { table: "pools", kind: "wrong", key, store: have, chain: want } : undefined;
      if (d) drift.push(d), repairs.pools.push(p.ref);
    }
    // A pool is never removed by the chain (pallet-asset-conversion has no such call): a stored
    // pool the chain lacks is reported, not deleted.
    const onChain = new Set(refs.map((r) => `${r.token0Id}/${r.token1Id}`));
    for (const [key, s] of stored) if (!onChain.has(key) && Number(s.block_number) <= B) this.ctx.logger.error({ block: B, pool: key }, "indexer: the store has a pool the chain does not");
    return readable.length;
  }

  private async lp(at: At, B: number, drift: Drift[], repairs: Repairs): Promise<number> {
    const { db, reader } = this.ctx;
    const chain: LpBalance[] = await reader.allLpBalances(at);
    await this.budget(chain.length);
    const stored = new Map((await storedLpHolders(db)).map((r) => [`${r.lp_token_id}|${r.account}`, r]));
    for (const b of chain) {
      const key = `${b.lpTokenId}|${b.account}`;
      const s = stored.get(key);
      stored.delete(key);
      if (s && Number(s.block_number) > B) continue;
      const d: Drift | undefined = !s ? { table: "lp_holders", kind: "missing", key, store: null, chain: b.balance } : s.balance !== b.balance ? { table: "lp_holders", kind: "wrong", key, store: s.balance, chain: b.balance } : undefined;
      if (d) drift.push(d), repairs.lpPairs.push({ lpTokenId: b.lpTokenId, account: b.account });
    }
    for (const [key, s] of stored) {
      if (Number(s.block_number) > B) continue;
      drift.push({ table: "lp_holders", kind: "ghost", key, store: s.balance, chain: "0" });
      repairs.lpPairs.push({ lpTokenId: Number(s.lp_token_id), account: s.account });
    }
    return chain.length + stored.size;
  }
}

/** The phases in order (docs, status). */
export const SWEEP_PHASES = PHASES;
