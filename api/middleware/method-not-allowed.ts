import type { Hono } from "hono";
import { AppError } from "../../shared/errors.js";
import { sendError } from "../errors.js";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * For every path the app serves, answers the methods it does not serve with 405 and an Allow
 * header. Call after all routes are registered; Hono matches in registration order.
 */
export function methodNotAllowed(app: Hono<any>): void {
  const byPath = new Map<string, Set<string>>();
  for (const r of app.routes) {
    if (r.method === "ALL") continue;
    const set = byPath.get(r.path) ?? new Set<string>();
    set.add(r.method);
    if (r.method === "GET") set.add("HEAD");
    byPath.set(r.path, set);
  }
  for (const [path, allowed] of byPath) {
    const others = METHODS.filter((m) => !allowed.has(m));
    const allow = [...allowed].join(", ");
    app.on(others, path, (c) =>
      sendError(c, new AppError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}; use ${allow}.`, { Allow: allow })),
    );
  }
}
