/**
 * Input that no route wants is refused before any route, cache or database sees it:
 * - control characters (U+0000–U+001F, U+007F) anywhere in the path or query, raw or
 *   percent-encoded, and malformed percent-encoding: 400. They cannot name a token, an id or a
 *   cursor, and must not reach SQL text parameters or log lines.
 * - query parameters a route does not declare, or declares once but receives twice: 400, so
 *   `/assets?n=1`, `?n=2`… can never mint new response-cache keys.
 * The declared parameters come from the OpenAPI routes themselves (one source of truth).
 */

/**
 * The query as the response cache keys it: names and values decoded and re-encoded one way,
 * empty pairs dropped, sorted. `?&`, `?li%6Dit=5` and `?limit=5` are one key (after strictInput
 * has refused unknown and repeated names, at most one pair per declared parameter).
 */
export function canonicalQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  const pairs: string[] = [];
  for (const pair of rawQuery.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    pairs.push(`${encodeURIComponent(decode(name))}=${encodeURIComponent(decode(value))}`);
  }
  return pairs.sort().join("&");
}
import type { MiddlewareHandler } from "hono";
import { AppError } from "../../shared/errors.js";

export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

interface RouteQuery {
  method: string;
  pattern: RegExp;
  path: string;
  params: Set<string>;
}

/** What the OpenAPI registry holds for a route (the parts read here). */
interface Definition {
  type: string;
  route?: { method: string; path: string; request?: { query?: { shape?: Record<string, unknown> } } };
}

function compile(method: string, path: string, params: Iterable<string>): RouteQuery {
  const source = path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+");
  return { method: method.toUpperCase(), pattern: new RegExp(`^${source}$`), path, params: new Set(params) };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request path or query has malformed percent-encoding.");
  }
}

/**
 * `definitions` is read on the first request (every route is registered by then); `extra` are
 * routes outside the OpenAPI document (the dashboard, /docs, /openapi.json, /ws), which take no
 * query parameters.
 */
export function strictInput(definitions: () => readonly Definition[], extra: readonly string[]): MiddlewareHandler {
  let routes: RouteQuery[] | undefined;
  const table = () =>
    (routes ??= [
      ...definitions().flatMap((d) => (d.type === "route" && d.route ? [compile(d.route.method, d.route.path.replace(/:(\w+)/g, "{$1}"), Object.keys(d.route.request?.query?.shape ?? {}))] : [])),
      ...extra.map((path) => compile("GET", path, [])),
    ]);
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", start);
    const rawPath = q < 0 ? url.slice(start) : url.slice(start, q);
    const rawQuery = q < 0 ? "" : url.slice(q + 1);
    // The hot path (no escapes, no query: most reads) costs two string scans.
    const escaped = rawPath.includes("%") || rawQuery.includes("%");
    if (CONTROL_CHARS.test(rawPath) || CONTROL_CHARS.test(rawQuery) || (escaped && (CONTROL_CHARS.test(decode(rawPath)) || CONTROL_CHARS.test(decode(rawQuery))))) {
      throw new AppError("VALIDATION_ERROR", "The request path or query contains control characters.");
    }
    if (rawQuery === "") return next();
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    // Matched on the path Hono routes on (percent-decoded): on the raw one, `/p%6Fol/stats?x=1`
    // matched no route here and skipped the check, while the router still ran /pool/stats.
    const path = escaped ? c.req.path : rawPath;
    const route = table().find((r) => r.method === method && r.pattern.test(path));
    if (route) {
      const seen = new Set<string>();
      for (const pair of rawQuery.split("&")) {
        if (pair === "") continue;
        const eq = pair.indexOf("=");
        const name = decode(eq < 0 ? pair : pair.slice(0, eq));
        if (!route.params.has(name)) {
          const accepted = route.params.size === 0 ? "it takes no query parameters" : `it accepts ${[...route.params].join(", ")}`;
          throw new AppError("VALIDATION_ERROR", `Unknown query parameter ${JSON.stringify(name.slice(0, 64))} on ${method} ${route.path}: ${accepted}.`);
        }
        if (seen.has(name)) throw new AppError("VALIDATION_ERROR", `Query parameter "${name}" is given more than once.`);
        seen.add(name);
      }
    }
    return next();
  };
}
