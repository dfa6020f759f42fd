import type { Hono } from "hono";
import { AppError } from "../../shared/errors.js";
import { sendError } from "../errors.js";

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
    const allow = [...allowed].join(", ");
    // Any other method, not only the common ones (TRACE, PROPFIND, … were 404), registered after
    // the routes: a method the path serves is answered by its route before this is reached.
    app.all(path, (c) =>
      sendError(c, new AppError("METHOD_NOT_ALLOWED", `${c.req.method.slice(0, 32)} is not allowed on ${c.req.path}; use ${allow}.`, { Allow: allow })),
    );
  }
}
