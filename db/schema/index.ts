export * from "./users.js";
export * from "./tokens.js";
export * from "./pools.js";
export * from "./chain.js";
export * from "./transfers.js";
export * from "./history.js";
export * from "./snapshots.js";
