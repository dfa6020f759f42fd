/**
 * The `/ws` endpoint's limits, error codes and dependencies: what both its upgrade edge (ws.ts)
 * and its connections (connection.ts) read.
 */
import type { Database } from "../../db/index.js";
import type { Logger } from "../../shared/logger.js";
import type { TokenIssuer } from "../auth/tokens.js";
import type { RateLimitStore } from "../rate-limit/store.js";
import type { LiveHub } from "./hub.js";

export interface LiveLimits {
  maxConnectionsPerIp: number;
  maxSubscriptions: number;
  /** Messages of one connection being answered at once; more get a LIMIT error at once. */
  maxInFlight: number;
  maxMessageBytes: number;
  /** Bytes queued on a socket beyond which its peer is dropped as a slow consumer. */
  maxBufferedBytes: number;
  pingIntervalMs: number;
  /**
   * What one client address's subscriptions may cost per block, over all its connections
   * (topicCost units; api/live/ledger.ts): without it one address could hold 1,000 topics (20
   * connections × 50), each a portfolio recomputed at every block.
   */
  maxTopicCostPerIp: number;
  /** The same for an IPv6 /48, over all its /64s (which are client addresses of their own). */
  maxTopicCostPerPrefix: number;
  /**
   * The same for one user (the bearer token's), over every connection and address it
   * subscribed from: one token on 55 addresses once held 5,500 of the server's 6,000.
   */
  maxTopicCostPerUser: number;
}

export const DEFAULT_LIMITS: LiveLimits = {
  maxConnectionsPerIp: 20,
  maxSubscriptions: 50,
  maxInFlight: 8,
  maxMessageBytes: 16 * 1024,
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
  maxTopicCostPerIp: 120,
  maxTopicCostPerPrefix: 240,
  maxTopicCostPerUser: 120,
};

/** JSON-RPC error codes: the standard ones, and ours in the server range. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  UNAUTHORIZED: -32001,
  LIMIT: -32002,
  NOT_FOUND: -32004,
  UNAVAILABLE: -32003,
} as const;

export interface LiveDeps {
  hub: LiveHub;
  /** Resolves pair symbols of topics to ids. */
  db: Database;
  tokens: TokenIssuer;
  trustProxy: number;
  logger: Logger;
  /** The HTTP rate limit whose window /ws messages share; unset or max 0 = unlimited. */
  rateLimit?: { store: RateLimitStore; max: number; windowMs: number };
  now?: () => number;
  limits?: Partial<LiveLimits>;
}

