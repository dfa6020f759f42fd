import type { Logger } from "../shared/logger.js";

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    userId?: string;
    logger: Logger;
    /** The rate limit's answer fields (RateLimit-Limit, -Remaining, -Reset), as a flat list, set before the route runs. */
    rateLimitHeaders?: string[];
    /** The response cache answered with its whole header block (api/middleware/cache.ts answer()): nothing is added to it. */
    answered?: boolean;
    /** Bytes of the body a static file's answer sends (api/middleware/static-budget.ts charges them). */
    staticBytes?: number;
  };
}

/**
 * A request header without building a fetch Headers object: @hono/node-server exposes the Node
 * request as c.env.incoming, whose headers are already parsed (lower-case names). Elsewhere
 * (app.request() in tests) it falls back to c.req.header().
 */
export function rawHeader(c: { env: unknown; req: { header(name: string): string | undefined } }, name: string): string | undefined {
  const headers = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming?.headers;
  if (!headers) return c.req.header(name);
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

const HEAD = Symbol("a HEAD request answered as GET");

/** api/server.ts answers HEAD as GET: the request says GET from here on, and remembers it was HEAD. */
export function markHead(req: { method?: string | undefined }): void {
  (req as { [HEAD]?: boolean })[HEAD] = true;
  req.method = "GET";
}

/** The method the client sent (HEAD for one answered as GET), for logs and metrics. */
export function clientMethod(c: { env: unknown; req: { method: string } }): string {
  const incoming = (c.env as { incoming?: { [HEAD]?: boolean } } | undefined)?.incoming;
  return incoming?.[HEAD] ? "HEAD" : c.req.method;
}

/** clientMethod for a Node request (the fast path). */
export function requestMethod(req: { method?: string | undefined }): string {
  return (req as { [HEAD]?: boolean })[HEAD] ? "HEAD" : (req.method ?? "GET");
}

/** The Node response under a request (@hono/node-server's c.env.outgoing); undefined under app.request() in tests. */
export function rawResponse(c: { env: unknown }): import("node:http").ServerResponse | undefined {
  return (c.env as { outgoing?: import("node:http").ServerResponse } | undefined)?.outgoing;
}
