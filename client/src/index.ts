export { TokenPool, type TokenPoolOptions, type Schemas } from "./client.js";
export { TokenPoolError, retryAfterSeconds, type ErrorCode } from "./errors.js";
export type { RetryOptions } from "./http.js";
export { paginate, type Page } from "./paginate.js";
export { LiveClient, LiveError, type LiveOptions, type Subscription, type WebSocketConstructor, type WebSocketLike } from "./live.js";
export type { BlockSummary, Push, Topic, TopicError, TopicResult } from "./topics.js";
export type { components, paths, operations } from "./schema.js";
