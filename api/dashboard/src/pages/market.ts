/** The market (#/): every token by market cap and every pool, values coloured by their last move. */
import { listedHead, onChange, poolsList, tokensList } from "../api.js";
import { $, onLeave, page } from "../dom.js";
import { badge, num, poolLink, tokenLink } from "../format.js";

export async function marketPage(): Promise<void> {
  page.innerHTML = `<section><h2>Tokens</h2><table id="tokens"><thead><tr><th>Token</th><th>Value (USD)</th><th>Market cap</th><th>Holders</th></tr></thead><tbody></tbody></table></section>
    <section><h2>Pools</h2><table id="pools"><thead><tr><th>Pair</th><th>TVL (USD)</th><th>Volume 24 h</th><th>Swaps 24 h</th></tr></thead><tbody></tbody></table></section>`;
  const prev = new Map<string, string | null>();
  const trend = (key: string, v: string | null) => {
    const b = prev.get(key);
    prev.set(key, v);
    return b === undefined || v === null || b === null || b === v ? "" : Number(v) > Number(b) ? "up" : "down";
  };
  const render = async () => {
    const [tokens, pools] = await Promise.all([tokensList(true), poolsList(true)]);
    const head = listedHead();
    if (head !== undefined && $("#block").textContent === "–") $("#block").textContent = String(head);
    $("#tokens tbody").innerHTML = tokens.length
      ? tokens.map((t) => `<tr data-token-id="${t.tokenId}"><td>${tokenLink(t)}${badge(t)}</td><td class="${trend(`t${t.tokenId}`, t.valueUsd)}">${num(t.valueUsd, 4)}</td><td>${num(t.marketCapUsd, 0)}</td><td>${t.holders}</td></tr>`).join("")
      : '<tr><td class="empty" colspan="4">no tokens indexed yet</td></tr>';
    $("#pools tbody").innerHTML = pools.length
      ? pools.map((p) => `<tr data-pool="${p.tokenA.tokenId}/${p.tokenB.tokenId}"><td>${poolLink(p.tokenA, p.tokenB)}</td><td class="${trend(`p${p.tokenA.tokenId}/${p.tokenB.tokenId}`, p.totalValueLocked)}">${num(p.totalValueLocked, 0)}</td><td>${num(p.volume24h)}</td><td>${p.swaps24h}</td></tr>`).join("")
      : '<tr><td class="empty" colspan="4">no pools yet</td></tr>';
  };
  await render();
  onLeave(onChange(() => void render(), 6000));
}
