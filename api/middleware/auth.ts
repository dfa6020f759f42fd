import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";
import type { TokenIssuer } from "../auth/tokens.js";
import type { AppEnv } from "../env.js";

export const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/i;

/** Paths that answer only with a valid token (api/app.ts and api/fast-path.ts apply it). */
export function requiresToken(path: string): boolean {
  return path.startsWith("/assets/") || path.startsWith("/accounts/") || path === "/snapshots" || path.startsWith("/snapshots/");
}

/**
 * Checks `Authorization: Bearer <jwt>` wherever one is sent, and requires it where `required`
 * says. A header that is present but bad is a 401 even on public paths, so a client learns its
 * token is dead instead of silently being served as anonymous.
 */
export function bearerAuth(tokens: TokenIssuer, required: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    const path = c.req.path;
    if (header === undefined) {
      if (required(path)) throw new AppError("UNAUTHORIZED", "Missing access token: send Authorization: Bearer <token>.");
      return next();
    }
    const token = BEARER.exec(header)?.[1];
    // A token verified before and unexpired needs no promise; any other is verified (again).
    const known = token === undefined ? undefined : tokens.known(token);
    const userId = typeof known === "string" ? known : token ? await tokens.verify(token) : undefined;
    if (!userId) throw new AppError("UNAUTHORIZED", "The access token is invalid or expired.");
    c.set("userId", userId);
    return next();
  };
}
