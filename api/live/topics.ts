/**
 * Subscription topics: each names one REST answer, and computes it with the same service
 * function the REST route uses, so a notification carries exactly the JSON the endpoint returns.
 */
import type { Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import { parseTokenId, TOKEN_ID_RULE } from "../../shared/ids.js";
import { CONTROL_CHARS } from "../middleware/strict-input.js";
import { accountId, ADDRESS_RULE } from "../../shared/address.js";
import { accountPortfolio, resolveAddress } from "../services/accounts.js";
import { accountTransferPage } from "../services/transfers.js";
import { aggregatePoolStats, pairStats, resolveTokenRef } from "../services/pools.js";
import { assetMetadata, oracleValue, tokenHolders } from "../services/tokens.js";

export interface Topic {
  /** Canonical name, e.g. "oracle.value:1984". */
  name: string;
  /** Topics under assets.* need an authenticated connection, like /assets/* over REST. */
  needsAuth: boolean;
  /** The REST path and query whose answer this is: the response cache key it shares. */
  path?: string;
  /** The REST answer now; undefined for `blocks`, which carries the block announcement itself. */
  compute?: (db: Database) => Promise<unknown>;
  /** The most it is charged (topicCost units): its price until its answer says what it costs. */
  cost: number;
  /** The rows a list answer holds, which its price grows with (topicPrice). */
  rows?: (answer: any) => number;
}

/** A pair topic as sent: its tokens may be symbols, resolved to ids before it is named. */
export interface PairRequest {
  needsAuth: false;
  refs: [string, string];
}

/** An account topic as sent: any SS58 prefix or hex, named in the chain's prefix once resolved. */
export interface AccountRequest {
  needsAuth: true;
  account: string;
  /** accounts:{address} (the portfolio) or transfers:{address} (the newest page of its transfers). */
  feed: "portfolio" | "transfers";
}



/**
 * What keeping a topic may cost the server at every block, in queries of its answer: a portfolio
 * ≈ 6, a holders page or an account's transfers 2, one token's value, metadata or a pair 1,
 * `blocks` nothing (it carries the announcement). A subscribe is charged this much, checked before
 * its first await; once its answer is computed, the topic is re-priced to what it costs
 * (topicPrice), never more. The /ws budgets (api/live/ledger.ts) are counted in these units.
 */
export function topicCost(parsed: Topic | PairRequest | AccountRequest): number {
  if ("account" in parsed) return parsed.feed === "portfolio" ? 6 : 2;
  if ("refs" in parsed) return 1;
  return parsed.cost;
}

/**
 * Rows of a list answer that add one unit to its price. Measured (fixture market, this 2-core
 * machine, one computation at a time): a portfolio of no token took what one token's value takes
 * (Postgres 2.0 vs 2.7 ms, PGlite 7 vs 9), of 100 tokens 2.5–3 times that, of 500 tokens 5–5.5
 * times: a unit per 100 rows over a base of 1 follows it, within the kind's cost.
 */
export const ROWS_PER_UNIT = 100;

/**
 * What a topic costs, from its answer: 1, plus a unit per ROWS_PER_UNIT rows of a list, at most
 * its cost (an empty account 1, 500 tokens 6; a holders or transfers page 1 when empty, else 2).
 * An answer that is an error (a token gone, no current price) is 1 too.
 */
export function topicPrice(topic: Topic, answer: unknown): number {
  if (topic.cost === 0) return 0;
  const failed = typeof answer === "object" && answer !== null && "error" in answer;
  const rows = topic.rows && !failed ? topic.rows(answer) : 0;
  return Math.min(topic.cost, 1 + Math.ceil(rows / ROWS_PER_UNIT));
}

/** The newest page of an account's transfers, as pushed to subscribers (the route's default limit). */
export const TRANSFERS_PAGE = 50;

/** Page 1 of the holders endpoint, as pushed to subscribers. */
export const HOLDERS_PAGE = 50;

function tokenId(raw: string, topic: string): number {
  const id = parseTokenId(raw);
  if (id === undefined) throw new AppError("VALIDATION_ERROR", `Topic "${topic}": a token id ${TOKEN_ID_RULE}.`);
  return id;
}

export const TOPIC_FORMS = ["oracle.value:{id}", "assets.metadata:{id}", "assets.holders:{id}", "accounts:{address}", "transfers:{address}", "pool.stats", "pool.pair:{a}/{b}", "blocks"] as const;

/**
 * Parses a topic name without touching the database; throws VALIDATION_ERROR naming the
 * accepted forms. Ids are canonical here (no leading zeros); a pair's symbols are resolved by
 * resolveTopic, so `KSM/1984`, `ksm/1984` and `0/1984` are one topic, `pool.pair:0/1984`.
 */
export function parseTopic(raw: unknown): Topic | PairRequest | AccountRequest {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 160 || CONTROL_CHARS.test(raw)) {
    throw new AppError("VALIDATION_ERROR", `"topic" must be a string of printable characters, one of: ${TOPIC_FORMS.join(", ")}.`);
  }
  if (raw === "pool.stats") return { name: raw, needsAuth: false, path: "/pool/stats", compute: (db) => aggregatePoolStats(db), cost: 1 };
  if (raw === "blocks") return { name: raw, needsAuth: false, cost: 0 };
  const colon = raw.indexOf(":");
  const kind = colon < 0 ? raw : raw.slice(0, colon);
  const arg = colon < 0 ? "" : raw.slice(colon + 1);
  switch (kind) {
    case "oracle.value": {
      const id = tokenId(arg, raw);
      return { name: `oracle.value:${id}`, needsAuth: false, path: `/oracle/value/${id}`, compute: (db) => oracleValue(db, id), cost: 1 };
    }
    case "assets.metadata": {
      const id = tokenId(arg, raw);
      return { name: `assets.metadata:${id}`, needsAuth: true, path: `/assets/metadata/${id}`, compute: (db) => assetMetadata(db, id), cost: 1 };
    }
    case "assets.holders": {
      const id = tokenId(arg, raw);
      return { name: `assets.holders:${id}`, needsAuth: true, path: `/assets/holders/${id}?limit=${HOLDERS_PAGE}`, compute: (db) => tokenHolders(db, id, { limit: HOLDERS_PAGE }), cost: 2, rows: (a: { holders: unknown[] }) => a.holders.length };
    }
    case "pool.pair": {
      const parts = arg.split("/");
      if (parts.length !== 2 || parts.some((p) => p.length === 0 || p.length > 64)) {
        throw new AppError("VALIDATION_ERROR", `Topic "${raw}": expected pool.pair:{tokenA}/{tokenB} with token ids or symbols.`);
      }
      return { needsAuth: false, refs: parts as [string, string] };
    }
    case "accounts":
    case "transfers": {
      if (!accountId(arg)) throw new AppError("VALIDATION_ERROR", `Topic "${raw}": the address ${ADDRESS_RULE}.`);
      return { needsAuth: true, account: arg, feed: kind === "accounts" ? "portfolio" : "transfers" };
    }
    default:
      throw new AppError("VALIDATION_ERROR", `Unknown topic "${raw}"; topics are ${TOPIC_FORMS.join(", ")}.`);
  }
}

/** The topic a parsed request names: a pair's tokens resolved to ids (TOKEN_NOT_FOUND, AMBIGUOUS_TOKEN). */
export async function resolveTopic(db: Database, parsed: Topic | PairRequest | AccountRequest): Promise<Topic> {
  if ("account" in parsed) {
    const { address } = await resolveAddress(db, parsed.account);
    if (parsed.feed === "transfers") {
      // The newest page as GET /accounts/{address}/transfers answers it (its default limit): a new transfer changes it.
      return { name: `transfers:${address}`, needsAuth: true, path: `/accounts/${address}/transfers`, compute: (d) => accountTransferPage(d, address, { limit: TRANSFERS_PAGE }), cost: 2, rows: (a: { transfers: unknown[] }) => a.transfers.length };
    }
    return { name: `accounts:${address}`, needsAuth: true, path: `/accounts/${address}`, compute: (d) => accountPortfolio(d, address), cost: 6, rows: (a: { tokens: unknown[]; lpPositions: unknown[] }) => a.tokens.length + a.lpPositions.length };
  }
  if (!("refs" in parsed)) return parsed;
  const [a, b] = await Promise.all([resolveTokenRef(db, parsed.refs[0], "tokenA"), resolveTokenRef(db, parsed.refs[1], "tokenB")]);
  const [ra, rb] = [String(a.id), String(b.id)];
  return { name: `pool.pair:${ra}/${rb}`, needsAuth: false, path: `/pool/stats/${ra}/${rb}`, compute: (d) => pairStats(d, ra, rb), cost: 1 };
}
