/** The header's search box: a token id or symbol, a pair (KSM/USDt) or an address goes to its page. */
import { tokensList, type Body } from "./api.js";
import { $ } from "./dom.js";

const ADDRESS = /^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{40,50})$/;

function find(tokens: Body[], s: string): Body | undefined {
  if (/^\d+$/.test(s)) return tokens.find((t) => String(t.tokenId) === s);
  const same = tokens.filter((t) => t.symbol.toLowerCase() === s.toLowerCase());
  return same.length === 1 ? same[0] : undefined; // an ambiguous symbol is no answer
}

async function go(box: HTMLInputElement): Promise<void> {
  const q = box.value.trim();
  if (!q) return;
  const tokens = await tokensList();
  if (q.includes("/")) {
    const [a, b] = q.split("/").map((s) => find(tokens, s.trim()));
    if (a && b) return void (location.hash = `#/pool/${a.tokenId}/${b.tokenId}`);
  }
  const t = find(tokens, q);
  if (t) return void (location.hash = `#/token/${t.tokenId}`);
  if (ADDRESS.test(q)) return void (location.hash = `#/account/${q}`);
  const partial = tokens.find((x) => x.symbol.toLowerCase().startsWith(q.toLowerCase()) || x.name.toLowerCase().includes(q.toLowerCase()));
  if (partial) return void (location.hash = `#/token/${partial.tokenId}`);
  box.setCustomValidity("No token, pair or address matches");
  box.reportValidity();
  box.setCustomValidity("");
}

export function wireSearch(): void {
  const box = $<HTMLInputElement>("#search");
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter") void go(box);
  });
}
