export * from "./client.js";
export * as schema from "./schema/index.js";
export * from "./queries/users.js";
export * from "./queries/tokens.js";
export * from "./queries/holders.js";
export * from "./queries/prices.js";
export * from "./queries/pools.js";
export * from "./queries/activity.js";
export * from "./queries/chain.js";
