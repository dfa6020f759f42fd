export { TokenPool, type TokenPoolOptions, type Schemas } from "./client.js";
export { TokenPoolError, retryAfterSeconds, type ErrorCode } from "./errors.js";
export type { RetryOptions } from "./http.js";
export { paginate, type Page } from "./paginate.js";
export { LiveClient, LiveError, type BlockSummary, type LiveOptions, type Push, type Subscription, type Topic, type TopicError, type TopicResult, type WebSocketConstructor, type WebSocketLike } from "./live.js";
export type { components, paths, operations } from "./schema.js";
