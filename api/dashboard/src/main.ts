/**
 * The dashboard's entry (bundled with its imports, lightweight-charts included, into
 * /dashboard/app.js by scripts/build.mjs). Hash routes, one module per page: #/ (market),
 * #/token/ID, #/pool/A/B, #/account/ADDRESS.
 */
import { ApiError, connect, currentRoute, nextRoute, Stale, unfollowAll } from "./api.js";
import { renderAuth } from "./auth.js";
import { leavePage, page } from "./dom.js";
import { esc } from "./format.js";
import { accountPage } from "./pages/account.js";
import { marketPage } from "./pages/market.js";
import { poolPage } from "./pages/pool.js";
import { tokenPage } from "./pages/token.js";
import { wireSearch } from "./search.js";

function show(parts: string[]): Promise<void> {
  const [kind, a, b] = parts;
  if (kind === "token" && /^\d+$/.test(a ?? "")) return tokenPage(Number(a));
  if (kind === "pool" && a && b) return poolPage(a, b);
  if (kind === "account" && a) return accountPage(a);
  return marketPage();
}

async function route(): Promise<void> {
  leavePage();
  void unfollowAll();
  const seq = nextRoute();
  delete page.dataset.shown;
  try {
    await show(location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent));
  } catch (e) {
    if (e instanceof Stale || seq !== currentRoute()) return;
    const message = e instanceof ApiError && e.status === 429 ? "Too many requests from this address: the page refreshes in a minute." : (e as Error).message;
    page.innerHTML = `<section class="wide"><p class="empty">${esc(message)}</p></section>`;
  }
  if (seq !== currentRoute()) return;
  page.dataset.shown = location.hash || "#/"; // the page for this hash is drawn (tests wait on it)
  window.scrollTo(0, 0);
}

window.addEventListener("hashchange", () => void route());
renderAuth(() => void route());
wireSearch();
connect();
void route();
