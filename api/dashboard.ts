/**
 * The live dashboard: a page, its script and its style sheet (api/dashboard/), no build step and
 * no CDN. Each file is read once, at start, and every answer sends that same buffer with its ETag
 * (a reload revalidates: 304 until the process serves a new version).
 */
import { readFileSync } from "node:fs";
import type { Hono } from "hono";
import { etagOf, ifNoneMatches } from "./middleware/cache.js";
import { PAGE_HEADERS } from "./page-headers.js";

const FILES: Record<string, [file: string, type: string]> = {
  "/": ["index.html", "text/html; charset=UTF-8"],
  "/dashboard/app.js": ["app.js", "text/javascript; charset=utf-8"],
  "/dashboard/style.css": ["style.css", "text/css; charset=utf-8"],
};

/** The dashboard's paths (for the strict-input route table). */
export const DASHBOARD_PATHS = Object.keys(FILES);

export function dashboardRoutes(app: Hono<any>): void {
  for (const [route, [file, type]] of Object.entries(FILES)) {
    const bytes = readFileSync(new URL(`./dashboard/${file}`, import.meta.url));
    const etag = etagOf(bytes);
    const headers = { ...(route === "/" ? PAGE_HEADERS : { "X-Content-Type-Options": "nosniff" }), "Content-Type": type, "Cache-Control": "no-cache", ETag: etag };
    app.get(route, (c) => (ifNoneMatches(c.req.header("if-none-match"), etag) ? c.body(null, 304, headers) : c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers)));
  }
}
