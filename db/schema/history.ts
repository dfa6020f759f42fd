import { boolean, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, amount, int64, tokenFields } from "./tokens.js";

/**
 * Every balance the indexer read, at the block it was read (docs/api.md, "Balances as of a
 * block"): holders (`lp` false: native, assets, foreign assets) and LP positions (`lp` true,
 * PoolAssets ids: their own id space). A balance that went to zero, or an account a sweep
 * removed, is a row of 0. So the balance of (token, account) at block N is the newest row at or
 * before N — exact from the store's history floor (the block of its full snapshot, see
 * db/queries/balance-history.ts) on, because every write to holders / lp_holders writes here
 * too, in the same transaction.
 *
 * The key is the lookup's order: one backward index step answers a balance as of a block, and a
 * token's rows in account order answer its holder list as of a block.
 */
export const balanceHistory = pgTable(
  "balance_history",
  {
    lp: boolean().notNull(),
    tokenId: int64().notNull(),
    account: address().notNull(),
    blockNumber: int64().notNull(),
    balance: amount().notNull(),
  },
  (t) => [primaryKey({ columns: [t.lp, t.tokenId, t.account, t.blockNumber] })],
);

/**
 * Where balance history starts being complete, per kind ("holders", "lp"): the block of the
 * newest full snapshot that history has followed without a break since. A balance as of an
 * earlier block is refused (BLOCK_BEFORE_HISTORY), never guessed. "transfers": the block transfer
 * lists are complete from after `tokenpool prune-history --transfers` (absent: since the first).
 */
export const historyFloors = pgTable("history_floors", {
  kind: text({ enum: ["holders", "lp", "transfers"] }).primaryKey(),
  blockNumber: int64().notNull(),
});

/**
 * Every token row the indexer wrote, at the block it was read (name, symbol, decimals, supply,
 * owner, status…), and a row with `destroyed` at the block a token was found gone: a token as of
 * block N is its newest row at or before N, exact from the "holders" history floor on (the
 * bootstrap writes every token at that block).
 */
export const tokenHistory = pgTable(
  "token_history",
  {
    id: int64().notNull(),
    ...tokenFields(),
    destroyed: boolean().notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.id, t.blockNumber] })],
);
