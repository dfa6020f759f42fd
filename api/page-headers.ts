/**
 * Headers of the two HTML pages the API serves (the dashboard and /docs): everything they load
 * comes from this origin (the policy says so to the browser too), they are never framed, and no
 * type is sniffed. Inline script and style stay allowed: both pages are single files by design.
 */
export const PAGE_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};
