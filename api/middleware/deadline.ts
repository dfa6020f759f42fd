/**
 * Every request has a deadline (REQUEST_TIMEOUT_MS): one not answered by then is answered 503
 * SERVICE_UNAVAILABLE with the error body and Retry-After, whatever it waits for — a database
 * that hangs, a queue, a rate-limit store. What it was doing is told through an AbortSignal
 * (deadlineOf): a read waiting for its turn leaves the queue, a snapshot stops issuing queries.
 * The work it leaves behind finishes or fails unheard; a database connection that hangs is closed
 * by the pool's own watch (db/client.ts), so it never returns to the pool.
 */
import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../../shared/logger.js";
import type { AppEnv } from "../env.js";
import { sendError } from "../errors.js";
import { loggedPath } from "./request-log.js";

const signals = new WeakMap<Context, AbortSignal>();

/** The request's deadline, aborted when it has been answered 503 for passing it; unset outside deadline(). */
export function deadlineOf(c: Context): AbortSignal | undefined {
  return signals.get(c);
}

export function deadline(ms: number, logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const controller = new AbortController();
    signals.set(c, controller.signal);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<true>((resolve) => (timer = setTimeout(resolve, ms, true)));
    const work = next();
    try {
      if ((await Promise.race([work, expired])) !== true) return;
    } finally {
      clearTimeout(timer);
    }
    // Whatever the work does from here on, nobody reads it: it must not surface as unhandled.
    work.catch(() => {});
    controller.abort();
    logger.warn({ method: c.req.method, path: loggedPath(c.req.path), ms }, "request not answered within its deadline; answered 503");
    // A fresh answer: nothing a handler began (an ETag, a body) carries over into it.
    c.res = undefined;
    c.res = sendError(c, new AppError("SERVICE_UNAVAILABLE", `The request was not answered within ${ms} ms; retry shortly.`, { "Retry-After": "5" }));
  };
}
