/** A pool (#/pool/A/B): its figures (live over /ws), candles of A in B with volume, and its trades as they happen. */
import { api, follow, fresh, onBlock, type Body } from "../api.js";
import { candleChart } from "../charts.js";
import { $, onLeave, page } from "../dom.js";
import { accountLink, change, esc, facts, lpDecimals, num, percent, since, sym, tokenLink, time, units } from "../format.js";
import { candleItems, chartTools, type Interval } from "./candles.js";

export async function poolPage(a: string, b: string): Promise<void> {
  let stats: Body;
  try {
    stats = await fresh(api.pairStats(a, b));
  } catch (e) {
    page.innerHTML = `<section class="wide"><p class="empty">${esc((e as Error).message)}</p></section>`;
    return;
  }
  const A = stats.tokenA;
  const B = stats.tokenB;
  page.innerHTML = `<div class="title"><h2>${sym(A)} / ${sym(B)}</h2><span class="meta">${tokenLink(A)} · ${tokenLink(B)} · <a href="#/pool/${B.tokenId}/${A.tokenId}">flip</a></span></div>
    <section class="wide" id="pool-facts"></section>
    <section class="wide"><h2 id="pool-chart-title">Price of ${sym(A)} in ${sym(B)}</h2><div class="chart" id="pool-chart"></div></section>
    <section class="wide"><h2>Trades <span class="meta" id="trades-live"></span></h2><table id="trades"><thead><tr><th>Time</th><th>Side</th><th>${sym(A)}</th><th>${sym(B)}</th><th>Value (USD)</th><th>Fee (USD)</th><th>Account</th><th>Block</th></tr></thead><tbody></tbody></table><p class="meta" id="pool-trades-since"></p></section>`;
  const renderFacts = (s: Body) => {
    $("#pool-facts").innerHTML = facts([
      [`Price (${sym(B)} per ${sym(A)})`, num(s.price, 6), "pool-price"],
      ["TVL (USD)", num(s.totalValueLocked, 0)],
      ["Volume 24 h", `$${num(s.volume24h)}`],
      ["Fees 24 h", `$${num(s.fees24h)}`],
      ["Swaps 24 h", s.swaps24h, "pool-swaps"],
      ["Change 24 h", change(s.priceChange24h)],
      ["APR", `${num(s.apr)} %`],
      [`Reserve ${sym(A)}`, units(s.tokenA.reserve, A.decimals)],
      [`Reserve ${sym(B)}`, units(s.tokenB.reserve, B.decimals)],
      ["LP supply", `<span title="${esc(s.lpSupply)} in smallest units; an LP token's whole unit is √(one ${sym(A)} × one ${sym(B)})">${units(s.lpSupply, lpDecimals(A, B))}</span>`, "pool-lp-supply"],
      ["Fee", percent(s.feeRate)],
    ]);
  };
  renderFacts(stats);
  let interval: Interval = "1m";
  const chart = candleChart($("#pool-chart"));
  const drawCandles = async (reset: boolean) => {
    const body = await fresh(api.ohlcv(A.tokenId, B.tokenId, { interval }));
    chart.set(candleItems(body.candles, false), reset);
  };
  $("#pool-chart-title").append(chartTools(interval, chart, (i) => ((interval = i), void drawCandles(true))));
  const seen = new Set<string>();
  const drawTrades = async () => {
    const body = await fresh(api.poolSwaps(A.tokenId, B.tokenId, { limit: 25 }));
    const first = seen.size === 0;
    const rows = body.trades.map((x: Body) => {
      const key = `${x.blockNumber}-${x.eventIndex}-${x.hop}`;
      const fresh = !first && !seen.has(key);
      seen.add(key);
      const inA = x.tokenIn === A.tokenId;
      const side = `${x.side}${x.multiHop ? ` <span class="kind">hop ${x.hop + 1}/${x.hops}</span>` : ""}`;
      return `<tr class="${fresh ? "new" : ""}" data-trade="${key}"><td>${time(x.timestamp)}</td><td class="${x.side === "buy" ? "up" : "down"}">${side}</td><td>${units(inA ? x.amountIn : x.amountOut, A.decimals)}</td><td>${units(inA ? x.amountOut : x.amountIn, B.decimals)}</td><td>${num(x.volumeUsd)}</td><td>${num(x.feeUsd, 4)}</td><td>${accountLink(x.account)}</td><td>${x.blockNumber}</td></tr>`;
    });
    $("#trades tbody").innerHTML = rows.join("") || '<tr><td class="empty" colspan="8">no trades yet</td></tr>';
    $("#pool-trades-since").textContent = since(body, "trades");
  };
  await Promise.all([drawCandles(true), drawTrades()]);
  $("#trades-live").textContent = "· live";
  await follow(`pool.pair:${A.tokenId}/${B.tokenId}`, (s) => {
    if (s.price) renderFacts(s);
  });
  // A block with swaps: the trades and the candles read again, the candles' tail updated in place.
  let refresh: ReturnType<typeof setTimeout> | undefined;
  onLeave(() => clearTimeout(refresh));
  onLeave(
    onBlock((blk) => {
      if (!blk.counts?.swaps || refresh) return;
      refresh = setTimeout(() => {
        refresh = undefined;
        void drawTrades();
        void drawCandles(false);
      }, 300);
    }),
  );
}
