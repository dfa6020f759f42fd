/**
 * GET /docs: the interactive API reference, served entirely by this process. Swagger UI's
 * prebuilt bundle comes from the `swagger-ui-dist` package (no dependencies to speak of, static
 * files only) and is read from node_modules once; the page loads nothing from any other host,
 * so the docs work offline and behind a firewall. (Scalar's page, used before, loads its script
 * from a CDN; its self-hostable bundle needs Node 22 or 276 packages.)
 */
import { DOCS_PAGE_HEADERS } from "./page-headers.js";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Hono } from "hono";
import type { AppEnv } from "./env.js";
import { etagOf, ifNoneMatches } from "./middleware/cache.js";

const DIST = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#docs", deepLinking: true, tryItOutEnabled: false, validatorUrl: null });\n`;

/** The files /docs needs, under /docs/assets/ (for the strict-input route table). */
export const DOCS_ASSET_PATHS = [...Object.keys(ASSETS), "init.js"].map((name) => `/docs/assets/${name}`);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>TokenPool API</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;
const PAGE_BYTES = Buffer.byteLength(PAGE);
const INIT_BYTES = Buffer.byteLength(INIT);

/**
 * The bundle is 1.7 MB: each file is read once, on first request, and every answer sends that
 * same buffer (never a copy per request: with a slow reader per connection, copies added up).
 */
export function docsRoutes(app: Hono<AppEnv>): void {
  const files = new Map<string, Promise<{ bytes: Buffer; etag: string }>>();
  app.get("/docs", (c) => {
    c.set("staticBytes", PAGE_BYTES);
    return c.html(PAGE, 200, DOCS_PAGE_HEADERS);
  });
  // The page's own script is a file too: the policy runs no inline script.
  app.get("/docs/assets/init.js", (c) => {
    c.set("staticBytes", INIT_BYTES);
    return c.body(INIT, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" });
  });
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/docs/assets/${name}`, async (c) => {
      let file = files.get(name);
      if (!file) {
        file = readFile(path.join(DIST, name)).then((bytes) => ({ bytes, etag: etagOf(bytes) }));
        files.set(name, file);
        file.catch(() => files.delete(name)); // a failed read is tried again, not kept
      }
      const { bytes, etag } = await file;
      const headers = { "Content-Type": type, "Cache-Control": "public, max-age=86400", ETag: etag };
      if (ifNoneMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
      c.set("staticBytes", bytes.byteLength);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers);
    });
  }
}
