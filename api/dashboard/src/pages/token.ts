/**
 * A token (#/token/ID): its figures, USD candles from its deepest pool, supply and holders over
 * time, top holders and newest transfers (logged in), the token as of a block, every holder as CSV.
 */
import { ACTIVITY_ROWS, api, download, follow, fresh, onChange, poolsList, session, Stale, tokensList, type Body } from "../api.js";
import { candleChart, twoLineChart } from "../charts.js";
import { $, onLeave, page } from "../dom.js";
import { accountLink, badge, esc, facts, kindText, loginNote, note, num, percent, poolLink, since, sym, time, units, wholeUnits } from "../format.js";
import { candleItems, chartTools, type Interval } from "./candles.js";

/** The pool to chart a token with: its deepest pool (KSM's deepest is against a stablecoin). */
async function chartPool(id: number): Promise<[Body, Body] | undefined> {
  const mine = (await poolsList()).filter((p) => p.tokenA.tokenId === id || p.tokenB.tokenId === id);
  mine.sort((a, b) => Number(b.totalValueLocked) - Number(a.totalValueLocked));
  const p = mine[0];
  if (!p) return undefined;
  return p.tokenA.tokenId === id ? [p.tokenA, p.tokenB] : [p.tokenB, p.tokenA];
}

async function layout(t: Body, pair: [Body, Body] | undefined): Promise<void> {
  const pools = (await poolsList()).filter((p) => p.tokenA.tokenId === t.tokenId || p.tokenB.tokenId === t.tokenId);
  page.innerHTML = `<div class="title"><h2>${esc(t.name || t.symbol)}${t.name && t.name !== t.symbol ? ` <span class="meta">${sym(t)}</span>` : ""}${badge(t)}</h2><span class="meta">token id ${t.tokenId}</span></div>
    <section class="wide">${facts([["Value (USD)", num(t.valueUsd, 6), "token-value"], ["Market cap", num(t.marketCapUsd, 0)], ["Total supply", units(t.totalSupply, t.decimals)], ["Holders", t.holders, "token-holders"], ["Decimals", t.decimals], ["Status", esc(t.status)], ["Kind", esc(t.kind) + (t.assetId !== null ? ` (asset ${t.assetId})` : "")]])}</section>
    <section class="wide"><h2 id="token-chart-title">Price (USD)${pair ? ` · from ${poolLink(pair[0], pair[1])}` : ""}</h2><div class="chart" id="token-chart"></div></section>
    <section><h2>Supply and holders <span class="legend"><span class="swatch right"></span>Supply (${sym(t)}) <span class="swatch left"></span>Holders</span></h2><div class="chart" id="supply-chart"></div></section>
    <section><h2>Top holders <button type="button" id="holders-csv" class="small">CSV</button></h2><div id="top-holders"></div></section>
    <section><h2>As of a block</h2><form id="asof-form" class="inline"><input id="asof-block" inputmode="numeric" autocomplete="off" placeholder="block number" aria-label="block number"> <button type="submit">Show</button> <button type="button" id="asof-csv">Holders CSV</button></form><div id="asof"></div><p class="meta" id="asof-csv-state"></p></section>
    <section class="wide"><h2>Transfers</h2><div id="token-transfers"></div></section>
    <section class="wide"><h2>Pools</h2><table id="token-pools"><thead><tr><th>Pair</th><th>TVL (USD)</th><th>Volume 24 h</th><th>Swaps 24 h</th></tr></thead><tbody>${pools.map((p) => `<tr><td>${poolLink(p.tokenA, p.tokenB)}</td><td>${num(p.totalValueLocked, 0)}</td><td>${num(p.volume24h)}</td><td>${p.swaps24h}</td></tr>`).join("") || '<tr><td class="empty" colspan="4">no pool</td></tr>'}</tbody></table></section>`;
}

/** Every holder as CSV at the block typed (or the head): a snapshot job, polled, then downloaded. */
async function snapshotCsv(id: number): Promise<void> {
  const out = $("#asof-csv-state");
  if (!session.token) return void (out.innerHTML = loginNote("holder snapshots"));
  try {
    const block = $<HTMLInputElement>("#asof-block").value.trim();
    let snap = await fresh(api.createSnapshot(block ? { tokenId: id, block: Number(block) } : { tokenId: id }));
    while (snap.state === "queued" || snap.state === "running") {
      out.textContent = `snapshot ${snap.id} at block ${snap.blockNumber}: ${snap.state}, ${percent(snap.progress.fraction, 0)}`;
      await new Promise((r) => setTimeout(r, 1000));
      snap = await fresh(api.snapshot(snap.id));
    }
    if (snap.state !== "done") throw new Error(snap.error ?? `snapshot ${snap.state}`);
    out.textContent = `snapshot ${snap.id}: ${snap.holders} holders at block ${snap.blockNumber}`;
    await download(snap.links.csv, `holders-${id}-at-${snap.blockNumber}.csv`);
  } catch (err) {
    if (!(err instanceof Stale)) out.textContent = (err as Error).message;
  }
}

/** The token as the store read it at a past block (GET /assets/metadata/{id}?at=); refusals as the API words them. */
async function asOf(id: number): Promise<void> {
  const out = $("#asof");
  if (!session.token) return void (out.innerHTML = loginNote("the token as of a block"));
  try {
    const m = await fresh(api.assetMetadata(id, { at: $<HTMLInputElement>("#asof-block").value.trim() }));
    out.innerHTML = facts([["Block", m.asOf.blockNumber, "asof-number"], ["Time", time(m.asOf.timestamp)], ["Total supply", units(m.totalSupply, m.decimals), "asof-supply"], ["Treasury (USD)", m.valueUsd === null ? "– (no price)" : num(m.treasuryValue, 2)], ["Status", esc(m.status)], ["Read at block", m.blockNumber]]);
  } catch (err) {
    if (!(err instanceof Stale)) out.innerHTML = note((err as Error).message, "asof-error");
  }
}

export async function tokenPage(id: number): Promise<void> {
  const tokens = await tokensList(true);
  // Beyond the 500 largest by market cap, the token is asked for by its id.
  const t = tokens.find((x) => x.tokenId === id) ?? (await fresh(api.assets({ tokenId: id })).catch(() => ({ assets: [] }))).assets[0];
  if (!t) return void (page.innerHTML = `<section class="wide"><p class="empty">Token ${id} is not indexed.</p></section>`);
  const pair = await chartPool(id);
  await layout(t, pair);
  let interval: Interval = "1m";
  const price = candleChart($("#token-chart"));
  const drawPrice = async (reset: boolean) => {
    if (!pair) return price.set([], true);
    const body = await fresh(api.ohlcv(pair[0].tokenId, pair[1].tokenId, { interval }));
    price.set(candleItems(body.candles, true), reset);
  };
  $("#token-chart-title").append(chartTools(interval, price, (i) => ((interval = i), void drawPrice(true))));
  // The token's newest transfers (GET /assets/{id}/transfers), read again when a block changes something.
  const drawTransfers = async () => {
    if (!session.token) return void ($("#token-transfers").innerHTML = loginNote("the token's transfers"));
    const body = await fresh(api.assetTransfers(id, { limit: ACTIVITY_ROWS }));
    const rows = body.transfers.map((x: Body) => `<tr data-transfer="${x.blockNumber}/${x.eventIndex}"><td>${time(x.timestamp)}</td><td>${kindText(x)}</td><td>${units(x.amount, t.decimals)}</td><td>${x.valueUsd === null ? "–" : num(x.valueUsd)}</td><td>${accountLink(x.from)}</td><td>${accountLink(x.to)}</td><td>${x.blockNumber}</td></tr>`);
    $("#token-transfers").innerHTML = `<table id="transfers"><thead><tr><th>Time</th><th>Kind</th><th>Amount</th><th>Value (USD)</th><th>From</th><th>To</th><th>Block</th></tr></thead><tbody>${rows.join("") || '<tr><td class="empty" colspan="7">no transfers indexed</td></tr>'}</tbody></table><p class="meta" id="token-transfers-since">${esc(since(body))}</p>`;
  };
  const supplyChart = twoLineChart($("#supply-chart"), { left: "holders", right: "supply" }, { left: true });
  const drawPrivate = async () => {
    if (!session.token) {
      $("#supply-chart").innerHTML = loginNote("supply and holders over time");
      $("#top-holders").innerHTML = loginNote("the top holders");
      return;
    }
    const [history, holders] = await Promise.all([fresh(api.assetHistory(id, { interval })), fresh(api.holders(id, { limit: 10 }))]);
    // Supply in whole tokens (its exact figure in the tip; the line's height is a number).
    const points = history.points.filter((p: Body) => p.supply !== null && p.holders !== null);
    supplyChart.set(points.map((p: Body) => ({ time: p.timestamp, left: p.holders, right: Number(wholeUnits(p.supply, t.decimals)), tip: `${time(p.timestamp)}<br>supply ${units(p.supply, t.decimals)} ${sym(t)}<br>${p.holders} holders` })));
    $("#top-holders").innerHTML = `<table id="holders"><thead><tr><th>#</th><th>Account</th><th>Balance</th><th>Share</th></tr></thead><tbody>${holders.holders.map((h: Body) => `<tr><td>${h.rank}</td><td>${accountLink(h.address)}</td><td>${units(h.balance, t.decimals)}</td><td>${percent(h.share)}</td></tr>`).join("")}</tbody></table>`;
  };
  $("#holders-csv").addEventListener("click", () => download(`/assets/holders/${id}`, `holders-${id}.csv`).catch((err) => ($("#top-holders").innerHTML = note(err.message))));
  $("#asof-csv").addEventListener("click", () => void snapshotCsv(id));
  $("#asof-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void asOf(id);
  });
  const noteOn = (sel: string) => (e: Error) => {
    if (e instanceof Stale) throw e;
    $(sel).innerHTML = note(e.message);
  };
  await Promise.all([drawPrice(true), drawPrivate().catch(noteOn("#top-holders")), drawTransfers().catch(noteOn("#token-transfers"))]);
  // A push without valueUsd is an error (the price expired): show none rather than the old one.
  await follow(`oracle.value:${id}`, (v) => ($("#token-value").textContent = num(v.valueUsd ?? null, 6)));
  onLeave(onChange(() => {
    void drawPrice(false);
    drawTransfers().catch(noteOn("#token-transfers"));
  }, 6000));
}
