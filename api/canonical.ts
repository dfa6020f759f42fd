/**
 * One cache key per answer, whatever the spelling of its path. A pair may be named by ids or by
 * symbols in any case (`/pools/KSM/USDt`, `/pools/ksm/usdt`, `/pools/0/1984`) and an account by
 * its SS58 address in any of 16,384 network prefixes or by its hex account id: every spelling
 * gives the same answer, so it must not cost its own computation (nor fill the cache with copies).
 *
 * canonicalPath() maps a path to the spelling the key uses: an account segment to its account id
 * in lower-case hex, a symbol that names exactly one token to that token's id. It runs on the
 * fast path's hot loop (api/fast-path.ts) and in the cache middleware, before the lookup, and
 * makes no query: symbols are looked up in a table read from the store at each block switch
 * (api/block-switch.ts), together with the cache's new generation, so a symbol that stops naming
 * one token (a new asset took it) is not mapped from that block on. A segment that maps to
 * nothing (an unknown or shared symbol, an invalid address) is kept as it is: the app answers it,
 * and an error answer is never cached.
 */
import { u8aToHex } from "@polkadot/util";
import { symbolCounts, type Database } from "../db/index.js";
import { accountId } from "../shared/address.js";

/** Symbols as the pair routes match them (`lower(symbol) = lower(ref)`): the id of the one token, or null when several share it. */
export type SymbolTable = ReadonlyMap<string, number | null>;

/**
 * A ref the routes treat as a symbol and the table may hold: printable ASCII, 1–64 characters
 * (the routes' limit), not all digits (a ref of digits is an id). Beyond ASCII, JavaScript's
 * toLowerCase and Postgres' lower() may disagree, so such refs are never mapped.
 */
const SYMBOL_REF = /^(?!\d+$)[!-~]{1,64}$/;

/** Every symbol of the store, lower-cased by Postgres as the routes compare them. */
export async function loadSymbols(db: Database): Promise<SymbolTable> {
  const table = new Map<string, number | null>();
  for (const row of await symbolCounts(db)) {
    // lower() of a non-ASCII symbol can be ASCII (K, the Kelvin sign, is "k"): the group counts
    // it with the ASCII ones, as the route's comparison would.
    if (SYMBOL_REF.test(row.symbol) && row.symbol === row.symbol.toLowerCase()) table.set(row.symbol, row.tokens === 1 ? row.id : null);
  }
  return table;
}

function tokenRef(ref: string, symbols: SymbolTable | undefined): string {
  if (symbols === undefined || !SYMBOL_REF.test(ref)) return ref;
  const id = symbols.get(ref.toLowerCase());
  return id === undefined || id === null ? ref : String(id);
}

/** Addresses already decoded (a checksum is a blake2b hash: ≈ 5 µs a hit without this). */
const accounts = new Map<string, string>();

/** The memo's size and the characters it holds (tests: it stays bounded whatever paths arrive). */
export function accountMemo(): { entries: number; chars: number } {
  let chars = 0;
  for (const k of accounts.keys()) chars += k.length;
  return { entries: accounts.size, chars };
}

function account(text: string): string {
  // Longer than any address or account id: not one (and never kept: the memo holds ≤ 66-character keys).
  if (text.length > 66) return text;
  let canonical = accounts.get(text);
  if (canonical === undefined) {
    const id = accountId(text);
    canonical = id === undefined ? text : u8aToHex(id);
    if (accounts.size >= 10_000) accounts.clear();
    accounts.set(text, canonical);
  }
  return canonical;
}

/**
 * The canonical spelling of `path` (no query). Paths of other routes, and any path that is
 * not one of these shapes, are returned as they are.
 *   /accounts/{address} | /accounts/{address}/transfers | /accounts/{address}/swaps
 *   /accounts/{address}/balances/{id} | /accounts/{address}/lp-balances/{lpTokenId}
 *   /pool/stats/{tokenA}/{tokenB}
 *   /pools/{tokenA}/{tokenB}/swaps | /ohlcv
 */
export function canonicalPath(path: string, symbols: SymbolTable | undefined): string {
  // Only /accounts/…, /pool/stats/… and /pools/… are rewritten: the other routes (every hit on
  // the fast path goes through here) pay a prefix check, not a split.
  if (!path.startsWith("/accounts/") && !path.startsWith("/pool/stats/") && !path.startsWith("/pools/")) return path;
  const parts = path.split("/");
  if (parts[1] === "accounts" && parts[2] !== "" && (parts.length === 3 || (parts.length === 4 && (parts[3] === "transfers" || parts[3] === "swaps")) || (parts.length === 5 && (parts[3] === "balances" || parts[3] === "lp-balances")))) {
    const canonical = account(parts[2]!);
    if (canonical === parts[2]) return path;
    parts[2] = canonical;
    return parts.join("/");
  }
  if (symbols === undefined) return path;
  let a: number;
  if (parts[1] === "pool" && parts[2] === "stats" && parts.length === 5) a = 3;
  else if (parts[1] === "pools" && parts.length === 5 && (parts[4] === "swaps" || parts[4] === "ohlcv")) a = 2;
  else return path;
  const refA = tokenRef(parts[a]!, symbols);
  const refB = tokenRef(parts[a + 1]!, symbols);
  if (refA === parts[a] && refB === parts[a + 1]) return path;
  parts[a] = refA;
  parts[a + 1] = refB;
  return parts.join("/");
}
