/**
 * Headers of the two HTML pages the API serves (the dashboard and /docs): everything they load
 * comes from this origin (the policy says so to the browser too), they are never framed, and no
 * type is sniffed. No inline script runs on either: their scripts are files of this origin
 * (/dashboard/app.js, bundled from api/dashboard/src/; /docs/assets/init.js), so an injected
 * `<script>` or `onerror=` in anything they render is refused by the browser. The dashboard allows no inline style either;
 * Swagger UI sets style attributes in the markup it renders, so /docs keeps inline styles (a
 * style cannot run code).
 */
const POLICY = "default-src 'self'; script-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const COMMON = { "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

export const PAGE_HEADERS: Record<string, string> = { "Content-Security-Policy": `${POLICY}; style-src 'self'`, ...COMMON };

export const DOCS_PAGE_HEADERS: Record<string, string> = { "Content-Security-Policy": `${POLICY}; style-src 'self' 'unsafe-inline'`, ...COMMON };
