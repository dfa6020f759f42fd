import type { Logger } from "../shared/logger.js";

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    userId?: string;
    logger: Logger;
  };
}
