import type { Logger } from "../shared/logger.js";

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    userId?: string;
    logger: Logger;
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
