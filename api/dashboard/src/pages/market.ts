/**
 * The market (#/): the pools' figures (live over /ws) over a chart of volume and TVL, every token by
 * market cap, and every pool with its 24 h change; values coloured by their last move.
 */
import { api, follow, fresh, listedHead, onChange, poolsList, tokensList, type Body } from "../api.js";
import { volumeChart, type VolumeChart } from "../charts.js";
import { $, onLeave, page } from "../dom.js";
import { badge, change, facts, num, poolLink, sumDec, time, tokenLink } from "../format.js";
import { chartTools, INTERVAL_SECONDS, type Interval } from "./candles.js";

/** Pools whose candles make the volume bars: the deepest (each is a request, once a minute at most). */
const VOLUME_POOLS = 8;
/** Pools whose 24 h change is followed over /ws (one topic each; a connection holds 50 at most). */
const CHANGE_POOLS = 20;

const pairKey = (p: Body) => `${p.tokenA.tokenId}/${p.tokenB.tokenId}`;

/** Volume per interval over the deepest pools, summed exactly (the bars' tips) and as numbers (their heights). */
async function volumeBars(pools: Body[], interval: Interval) {
  const answers = await Promise.all(pools.slice(0, VOLUME_POOLS).map((p) => fresh(api.ohlcv(p.tokenA.tokenId, p.tokenB.tokenId, { interval }))));
  const byTime = new Map<number, { volumes: string[]; swaps: number }>();
  for (const body of answers)
    for (const c of body.candles as Body[]) {
      const at = byTime.get(c.timestamp) ?? { volumes: [], swaps: 0 };
      at.volumes.push(c.volumeUsd);
      at.swaps += c.swaps;
      byTime.set(c.timestamp, at);
    }
  return [...byTime.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, { volumes, swaps }]) => {
      const total = sumDec(volumes);
      return { time: t, value: Number(total), tip: `${time(t)}<br>volume $${num(total)} · ${swaps} swaps` };
    });
}

export async function marketPage(): Promise<void> {
  page.innerHTML = `<section class="wide"><h2 id="market-chart-title">Pools: volume and TVL (USD)</h2><div id="market-facts"></div><div class="chart" id="market-chart"></div><p class="meta" id="market-chart-note"></p></section>
    <section><h2>Tokens</h2><table id="tokens"><thead><tr><th>Token</th><th>Value (USD)</th><th>Market cap</th><th>Holders</th></tr></thead><tbody></tbody></table></section>
    <section><h2>Pools</h2><table id="pools"><thead><tr><th>Pair</th><th>TVL (USD)</th><th>Change 24 h</th><th>Volume 24 h</th><th>Swaps 24 h</th></tr></thead><tbody></tbody></table></section>`;
  const prev = new Map<string, string | null>();
  const trend = (key: string, v: string | null) => {
    const b = prev.get(key);
    prev.set(key, v);
    return b === undefined || v === null || b === null || b === v ? "" : Number(v) > Number(b) ? "up" : "down";
  };
  // Each pool's price change over 24 h, from its pool.pair topic (the list answers carry none).
  const changes = new Map<string, string>();
  let pools: Body[] = [];
  const render = async () => {
    const [tokens, list] = await Promise.all([tokensList(true), poolsList(true)]);
    pools = list;
    const head = listedHead();
    if (head !== undefined && $("#block").textContent === "–") $("#block").textContent = String(head);
    $("#tokens tbody").innerHTML = tokens.length
      ? tokens.map((t) => `<tr data-token-id="${t.tokenId}"><td>${tokenLink(t)}${badge(t)}</td><td class="${trend(`t${t.tokenId}`, t.valueUsd)}">${num(t.valueUsd, 4)}</td><td>${num(t.marketCapUsd, 0)}</td><td>${t.holders}</td></tr>`).join("")
      : '<tr><td class="empty" colspan="4">no tokens indexed yet</td></tr>';
    $("#pools tbody").innerHTML = pools.length
      ? pools.map((p) => `<tr data-pool="${pairKey(p)}"><td>${poolLink(p.tokenA, p.tokenB)}</td><td class="${trend(`p${pairKey(p)}`, p.totalValueLocked)}">${num(p.totalValueLocked, 0)}</td><td class="change">${change(changes.get(pairKey(p)))}</td><td>${num(p.volume24h)}</td><td>${p.swaps24h}</td></tr>`).join("")
      : '<tr><td class="empty" colspan="5">no pools yet</td></tr>';
  };
  await render();
  onLeave(onChange(() => void render(), 6000));

  let interval: Interval = "1h";
  const chart = volumeChart($("#market-chart"));
  const drawVolume = async (reset: boolean) => {
    chart.volume(await volumeBars(pools, interval), INTERVAL_SECONDS[interval], reset);
    $("#market-chart-note").textContent = `Volume: ${pools.length > VOLUME_POOLS ? `the ${VOLUME_POOLS} deepest pools'` : "every pool's"} candles per ${interval}. TVL: each reading since this page opened (the API keeps no TVL history).`;
  };
  $("#market-chart-title").append(chartTools(interval, undefined, (i) => ((interval = i), void drawVolume(true))));
  await drawVolume(true);
  onLeave(onChange(() => void drawVolume(false), 60_000));
  // The live figures arrive after the page is drawn: its tables need not wait for 20 topics.
  void followLive(chart, changes);
}

/** The pools' totals (pool.stats) into the facts and the TVL line; each deep pool's 24 h change into its row. */
async function followLive(chart: VolumeChart, changes: Map<string, string>): Promise<void> {
  await follow(
    "pool.stats",
    (s) => {
      const box = $("#market-facts");
      if (s.totalValueLocked === undefined || !box) return; // (a push in the moment the page is left)
      box.innerHTML = facts([["TVL (USD)", `$${num(s.totalValueLocked, 0)}`, "market-tvl"], ["Volume 24 h", `$${num(s.volume24h)}`, "market-volume"], ["Fees 24 h", `$${num(s.fees24h)}`], ["Swaps 24 h", s.swaps24h], ["Pools", s.totalPools]]);
      if (s.timestamp === null) return;
      chart.tvl({ time: s.timestamp, value: Number(s.totalValueLocked), tip: `TVL $${num(s.totalValueLocked, 0)} at block ${s.blockNumber}` });
    },
    { answer: true },
  );
  // One topic at a time: the server answers a few calls of a connection at once, not twenty.
  for (const p of (await poolsList()).slice(0, CHANGE_POOLS)) {
    const key = pairKey(p);
    await follow(
      `pool.pair:${key}`,
      (s) => {
        if (s.priceChange24h === undefined) return;
        changes.set(key, s.priceChange24h);
        const cell = $(`#pools tr[data-pool="${key}"] td.change`);
        if (cell) cell.innerHTML = change(s.priceChange24h);
      },
      { answer: true },
    );
  }
}
