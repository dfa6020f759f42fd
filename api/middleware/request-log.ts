import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../shared/logger.js";
import type { AppEnv } from "../env.js";

/** One JSON log line per request: method, path, status, duration. Never headers or bodies. */
export function requestLog(logger: Logger, now: () => number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const start = performance.now();
    c.set("logger", logger);
    await next();
    logger.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - start) * 10) / 10 }, "request");
    void now;
  };
}
