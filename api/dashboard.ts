/**
 * The live dashboard (a front end of its own, docs/architecture.md#the-dashboard): a page, its
 * script, its style sheet and its icon, all from this origin. The script is a bundle — the modules in
 * api/dashboard/src/ (one per page, the API client, formatting, charts) with TradingView's
 * lightweight-charts — that the build writes beside the compiled server (dist/api/dashboard/app.js);
 * run from the sources, where there is none, it is bundled on its first request (api/dashboard-bundle.ts).
 * Each file is read once, and every answer sends that same buffer with its ETag (a reload
 * revalidates: 304 until the process serves a new version).
 */
import { existsSync, readFileSync } from "node:fs";
import type { Hono } from "hono";
import { bundleDashboard } from "./dashboard-bundle.js";
import { etagOf, ifNoneMatches } from "./middleware/cache.js";
import type { AppEnv } from "./env.js";
import { PAGE_HEADERS } from "./page-headers.js";

const FILES: Record<string, [file: string, type: string]> = {
  "/": ["index.html", "text/html; charset=UTF-8"],
  "/dashboard/app.js": ["app.js", "text/javascript; charset=utf-8"],
  "/dashboard/style.css": ["style.css", "text/css; charset=utf-8"],
  "/dashboard/favicon.svg": ["favicon.svg", "image/svg+xml"],
};
/** An SVG opened on its own is a document: this one may load and run nothing (it draws two circles). */
const SVG_HEADERS = { "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'", "X-Content-Type-Options": "nosniff" };
/** The one file the build makes (the others are sources, copied). */
const BUNDLE = "app.js";

/** The dashboard's paths (for the strict-input route table). */
export const DASHBOARD_PATHS = Object.keys(FILES);

interface Served {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  headers: Record<string, string>;
}

export function dashboardRoutes(app: Hono<AppEnv>): void {
  for (const [route, [file, type]] of Object.entries(FILES)) {
    const serve = (bytes: Uint8Array): Served => {
      const etag = etagOf(bytes);
      const own = route === "/" ? PAGE_HEADERS : file.endsWith(".svg") ? SVG_HEADERS : { "X-Content-Type-Options": "nosniff" };
      const headers = { ...own, "Content-Type": type, "Cache-Control": "no-cache", ETag: etag };
      return { bytes: bytes as Uint8Array<ArrayBuffer>, etag, headers };
    };
    const path = new URL(`./dashboard/${file}`, import.meta.url);
    let served: Served | Promise<Served> | undefined = file === BUNDLE && !existsSync(path) ? undefined : serve(readFileSync(path));
    app.get(route, async (c) => {
      // From the sources: bundled once, on the first request (a failure is tried again on the next).
      served ??= bundleDashboard(new URL("../", import.meta.url)).then(serve, (e: unknown) => {
        served = undefined;
        throw e;
      });
      const { bytes, etag, headers } = await served;
      if (ifNoneMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
      c.set("staticBytes", bytes.byteLength);
      return c.body(bytes, 200, headers);
    });
  }
}
