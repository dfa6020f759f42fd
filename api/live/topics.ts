/**
 * Subscription topics: each names one REST answer, and computes it with the same service
 * function the REST route uses, so a notification carries exactly the JSON the endpoint returns.
 */
import type { Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import { parseTokenId, TOKEN_ID_RULE } from "../../shared/ids.js";
import { aggregatePoolStats, pairStats } from "../services/pools.js";
import { assetMetadata, oracleValue, tokenHolders } from "../services/tokens.js";

export interface Topic {
  /** Canonical name, e.g. "oracle.value:1984". */
  name: string;
  /** Topics under assets.* need an authenticated connection, like /assets/* over REST. */
  needsAuth: boolean;
  /** The REST answer now; undefined for `blocks`, which carries the block announcement itself. */
  compute?: (db: Database) => Promise<unknown>;
}


/** Page 1 of the holders endpoint, as pushed to subscribers. */
export const HOLDERS_PAGE = 50;

function tokenId(raw: string, topic: string): number {
  const id = parseTokenId(raw);
  if (id === undefined) throw new AppError("VALIDATION_ERROR", `Topic "${topic}": a token id ${TOKEN_ID_RULE}.`);
  return id;
}

export const TOPIC_FORMS = ["oracle.value:{id}", "assets.metadata:{id}", "assets.holders:{id}", "pool.stats", "pool.pair:{a}/{b}", "blocks"] as const;

/** Parses a topic name; throws VALIDATION_ERROR naming the accepted forms. */
export function parseTopic(raw: unknown): Topic {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 160) {
    throw new AppError("VALIDATION_ERROR", `"topic" must be a string, one of: ${TOPIC_FORMS.join(", ")}.`);
  }
  if (raw === "pool.stats") return { name: raw, needsAuth: false, compute: (db) => aggregatePoolStats(db) };
  if (raw === "blocks") return { name: raw, needsAuth: false };
  const colon = raw.indexOf(":");
  const kind = colon < 0 ? raw : raw.slice(0, colon);
  const arg = colon < 0 ? "" : raw.slice(colon + 1);
  switch (kind) {
    case "oracle.value": {
      const id = tokenId(arg, raw);
      return { name: `oracle.value:${id}`, needsAuth: false, compute: (db) => oracleValue(db, id) };
    }
    case "assets.metadata": {
      const id = tokenId(arg, raw);
      return { name: `assets.metadata:${id}`, needsAuth: true, compute: (db) => assetMetadata(db, id) };
    }
    case "assets.holders": {
      const id = tokenId(arg, raw);
      return { name: `assets.holders:${id}`, needsAuth: true, compute: (db) => tokenHolders(db, id, { limit: HOLDERS_PAGE }) };
    }
    case "pool.pair": {
      const parts = arg.split("/");
      if (parts.length !== 2 || parts.some((p) => p.length === 0 || p.length > 64)) {
        throw new AppError("VALIDATION_ERROR", `Topic "${raw}": expected pool.pair:{tokenA}/{tokenB} with token ids or symbols.`);
      }
      const [a, b] = parts as [string, string];
      return { name: `pool.pair:${a}/${b}`, needsAuth: false, compute: (db) => pairStats(db, a, b) };
    }
    default:
      throw new AppError("VALIDATION_ERROR", `Unknown topic "${raw}"; topics are ${TOPIC_FORMS.join(", ")}.`);
  }
}
