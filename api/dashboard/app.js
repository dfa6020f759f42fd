// No build step and no CDN: plain DOM and SVG, hash routes (#/, #/token/ID, #/pool/A/B,
// #/account/ADDRESS). Values on screen are the API's exact decimal strings; only charts turn them
// into numbers, to place points. Requests are few (each counts against the per-IP limit): a page
// loads its answers once and refreshes them when a block announces a change.
const $ = (s, root = document) => root.querySelector(s);
const page = $("#page");
const state = { token: sessionStorage.getItem("tokenpool.token"), email: sessionStorage.getItem("tokenpool.email"), assets: null, pools: null, route: null };

// ---- formatting
function num(s, digits = 2) {
  if (s === null || s === undefined) return "–";
  const neg = s.startsWith("-"); const [int, frac = ""] = (neg ? s.slice(1) : s).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const keep = int === "0" ? Math.max(digits, frac.search(/[1-9]/) + 4) : digits;
  const shown = frac.slice(0, keep).replace(/0+$/, "");
  return (neg ? "-" : "") + (shown ? `${grouped}.${shown}` : grouped);
}
/** An amount in smallest units as whole tokens (string arithmetic: exact at any size). */
function units(amount, decimals, digits = 4) {
  if (amount === null || amount === undefined) return "–";
  const s = String(amount).padStart(decimals + 1, "0");
  return num(decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}` : s, digits);
}
const short = (a) => (a && a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-6)}` : a ?? "–");
const time = (ts) => new Date(ts * 1000).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const sym = (t) => esc(t.symbol || `#${t.tokenId}`);
const tokenLink = (t) => `<a href="#/token/${t.tokenId}">${sym(t)}</a>`;
const poolLink = (a, b) => `<a href="#/pool/${a.tokenId}/${b.tokenId}">${sym(a)}/${sym(b)}</a>`;
const accountLink = (addr) => (addr ? `<a class="mono" href="#/account/${esc(addr)}" title="${esc(addr)}">${esc(short(addr))}</a>` : "–");
function badge(t) {
  if (t.kind === "foreign") return '<span class="kind">foreign</span>';
  return t.kind === "asset" && t.assetId !== null && t.assetId !== t.tokenId ? `<span class="kind">asset ${t.assetId}</span>` : "";
}
// What of a balance can move: the native token's transferable part when it is not all of it, an asset account's status when not liquid.
function held(t) {
  if (t.transferable !== null && t.transferable !== undefined && t.transferable !== t.balance) {
    return `<span class="kind" title="free ${units(t.free, t.decimals)}, reserved ${units(t.reserved, t.decimals)}, frozen ${units(t.frozen, t.decimals)}">${units(t.transferable, t.decimals)} transferable</span>`;
  }
  return t.status && t.status !== "liquid" ? `<span class="kind">${esc(t.status)}</span>` : "";
}
const facts = (pairs) => `<dl class="facts">${pairs.map(([k, v, id]) => `<div><dt>${k}</dt><dd${id ? ` id="${id}"` : ""}>${v}</dd></div>`).join("")}</dl>`;

// ---- HTTP
// A page's answers can arrive after the reader has left it: each route has a number, and an answer
// asked for under an older one is dropped (Stale) so it cannot draw into, or subscribe for, the page
// shown now.
let routeSeq = 0;
class Stale extends Error {}
window.addEventListener("unhandledrejection", (e) => { if (e.reason instanceof Stale) e.preventDefault(); });
async function get(path, auth = false) {
  const seq = routeSeq;
  const res = await fetch(path, { headers: auth && state.token ? { authorization: `Bearer ${state.token}` } : {} });
  const body = await res.json().catch(() => ({}));
  if (seq !== routeSeq) throw new Stale();
  if (!res.ok) throw Object.assign(new Error(body.error?.message ?? `HTTP ${res.status}`), { status: res.status, code: body.error?.code });
  return body;
}
async function post(path, body) {
  const seq = routeSeq;
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json", ...(state.token ? { authorization: `Bearer ${state.token}` } : {}) }, body: JSON.stringify(body) });
  const answer = await res.json().catch(() => ({}));
  if (seq !== routeSeq) throw new Stale();
  if (!res.ok) throw Object.assign(new Error(answer.error?.message ?? `HTTP ${res.status}`), { status: res.status, code: answer.error?.code });
  return answer;
}
/** Saves a CSV the API streams (with the bearer token a plain link cannot carry) as `name`. */
async function download(path, name) {
  const res = await fetch(path, { headers: { accept: "text/csv", ...(state.token ? { authorization: `Bearer ${state.token}` } : {}) } });
  if (!res.ok) { const body = await res.json().catch(() => ({})); throw new Error(body.error?.message ?? `HTTP ${res.status}`); }
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
async function tokensList(fresh) {
  if (fresh || !state.assets) { const body = await get("/assets?sort=marketCap&limit=500"); state.assets = body.assets; state.head = body.blockNumber; }
  return state.assets;
}
const poolsList = async (fresh) => (state.pools = !fresh && state.pools ? state.pools : (await get("/pools?limit=500")).pools);

// ---- charts (SVG): time axis, value axis, tooltip following the pointer
const PAD = { l: 64, r: 12, t: 10, b: 24 };
function ticks(min, max, n) {
  if (!(max > min)) return [min];
  const step = Math.pow(10, Math.floor(Math.log10((max - min) / n)));
  const s = [1, 2, 5, 10].map((m) => m * step).find((x) => (max - min) / x <= n) ?? step * 10;
  const out = []; for (let v = Math.ceil(min / s) * s; v <= max; v += s) out.push(v); return out;
}
// Time ticks fall on whole seconds, minutes, hours or days (decimal steps gave several ticks a minute, all labelled alike).
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000];
function timeTicks(min, max, n) {
  const s = TIME_STEPS.find((x) => (max - min) / x <= n) ?? 2592000;
  const out = []; for (let v = Math.ceil(min / s) * s; v <= max; v += s) out.push(v); return { step: s, ticks: out };
}
function timeLabel(ts, step) {
  const d = new Date(ts * 1000);
  if (step >= 86400) return d.toLocaleDateString([], { month: "short", day: "numeric" });
  return d.toLocaleTimeString([], step < 60 ? { hour: "2-digit", minute: "2-digit", second: "2-digit" } : { hour: "2-digit", minute: "2-digit" });
}
const fmtAxis = (v) => (Math.abs(v) >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : Math.abs(v) >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));
/**
 * Draws `items` ({t, o?, h?, l?, c, v?, tip}) into `box`: candles when items have o/h/l, a line
 * otherwise, volume bars under them when items have v. Returns nothing; the tooltip shows `tip`.
 */
function chart(box, items, { candles = false, step = 0 } = {}) {
  if (items.length === 0) { box.innerHTML = '<p class="empty">no data in this range yet</p>'; return; }
  // Drawn at the box's own pixel size: text and candles keep their shape on any screen.
  const W = Math.max(300, box.clientWidth || 1000), H = window.innerWidth <= 900 ? 200 : 260;
  const t0 = items[0].t, t1 = items[items.length - 1].t + (step || 0);
  const lows = items.map((d) => (candles ? d.l : d.c)), highs = items.map((d) => (candles ? d.h : d.c));
  let lo = Math.min(...lows), hi = Math.max(...highs); if (hi === lo) { hi += Math.abs(hi) * 0.01 || 1; lo -= Math.abs(lo) * 0.01 || 1; }
  const pad = (hi - lo) * 0.08; hi += pad; lo -= pad;
  const vmax = Math.max(0, ...items.map((d) => d.v ?? 0));
  const pw = W - PAD.l - PAD.r, ph = H - PAD.t - PAD.b;
  const x = (t) => PAD.l + ((t - t0) / Math.max(1, t1 - t0)) * pw;
  const y = (v) => PAD.t + (1 - (v - lo) / (hi - lo)) * ph * 0.8;
  const parts = [];
  for (const v of ticks(lo, hi, 4)) parts.push(`<line class="grid" x1="${PAD.l}" x2="${W - PAD.r}" y1="${y(v)}" y2="${y(v)}"/><text class="axis" x="${PAD.l - 6}" y="${y(v) + 4}" text-anchor="end">${fmtAxis(v)}</text>`);
  const tt = timeTicks(t0, t1, Math.max(2, Math.floor(pw / 140)));
  for (const t of tt.ticks) parts.push(`<line class="grid" x1="${x(t)}" x2="${x(t)}" y1="${PAD.t}" y2="${H - PAD.b}"/><text class="axis" x="${x(t)}" y="${H - 6}" text-anchor="middle">${timeLabel(t, tt.step)}</text>`);
  const bw = Math.min(18, Math.max(1, (step ? (step / Math.max(1, t1 - t0)) * pw : pw / items.length) * 0.7));
  if (vmax > 0) for (const d of items) if (d.v) { const h = (d.v / vmax) * ph * 0.18; parts.push(`<rect class="vol" x="${x(d.t) + (step ? bw * 0.2 : -bw / 2)}" width="${bw}" y="${H - PAD.b - h}" height="${h}"/>`); }
  if (candles) {
    for (const d of items) {
      const cls = d.empty ? "ce" : d.c >= d.o ? "cu" : "cd", cx = x(d.t) + bw * 0.2 + bw / 2;
      parts.push(`<line class="${cls}" x1="${cx}" x2="${cx}" y1="${y(d.h)}" y2="${y(d.l)}"/><rect class="${cls}" x="${cx - bw / 2}" width="${bw}" y="${Math.min(y(d.o), y(d.c))}" height="${Math.max(1, Math.abs(y(d.o) - y(d.c)))}"/>`);
    }
  } else {
    parts.push(`<polyline class="line" points="${items.map((d) => `${x(d.t).toFixed(1)},${y(d.c).toFixed(1)}`).join(" ")}"/>`);
    if (items.length <= 60) for (const d of items) parts.push(`<circle class="cu" r="3" cx="${x(d.t).toFixed(1)}" cy="${y(d.c).toFixed(1)}"/>`);
  }
  parts.push('<line class="cursor" y1="0" y2="0" x1="0" x2="0" visibility="hidden"/>');
  box.innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${parts.join("")}</svg><div class="tip"></div>`;
  const svg = $("svg", box), tip = $(".tip", box), cursor = $(".cursor", box);
  svg.addEventListener("pointermove", (e) => {
    const r = svg.getBoundingClientRect(); const tx = t0 + (((e.clientX - r.left) / r.width) * W - PAD.l) / pw * (t1 - t0);
    let best = items[0]; for (const d of items) if (Math.abs(d.t + step / 2 - tx) < Math.abs(best.t + step / 2 - tx)) best = d;
    const cx = ((x(best.t) + (step ? bw * 0.2 + bw / 2 : 0)) / W) * r.width;
    cursor.setAttribute("x1", x(best.t) + (step ? bw * 0.2 + bw / 2 : 0)); cursor.setAttribute("x2", cursor.getAttribute("x1")); cursor.setAttribute("y2", H - PAD.b); cursor.setAttribute("visibility", "visible");
    tip.innerHTML = best.tip; tip.style.display = "block";
    tip.style.left = `${Math.min(Math.max(0, cx + 12), r.width - tip.offsetWidth)}px`; tip.style.top = "8px";
  });
  svg.addEventListener("pointerleave", () => { tip.style.display = "none"; cursor.setAttribute("visibility", "hidden"); });
}

// ---- live updates over /ws (one connection; a page registers what it wants for its lifetime)
let ws, nextId = 1, wsAuthed = false;
const handlers = new Map(), pending = new Map(), pageTopics = new Map();
function call(method, params) {
  if (!ws || ws.readyState !== 1) return Promise.resolve({ error: { message: "not connected" } });
  const id = nextId++; ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  return new Promise((resolve) => pending.set(id, resolve));
}
async function follow(topic, onValue) {
  const seq = routeSeq;
  pageTopics.set(topic, onValue);
  const answer = await call("subscribe", { topic });
  if (seq !== routeSeq && topic !== "blocks") {
    if (answer.result) await call("unsubscribe", { subscription: answer.result.subscription });
    throw new Stale();
  }
  if (answer.result) handlers.set(answer.result.subscription, { topic, onValue });
}
async function unfollowAll() {
  pageTopics.clear();
  for (const [sub, h] of [...handlers]) if (h.topic !== "blocks") { handlers.delete(sub); await call("unsubscribe", { subscription: sub }); }
}
const blockListeners = new Set();
function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = async () => {
    $("#status").textContent = "live"; $("#status").className = "live"; handlers.clear(); wsAuthed = false;
    if (state.token) wsAuthed = !!(await call("auth", { token: state.token })).result;
    await follow("blocks", (b) => { $("#block").textContent = b.number; for (const f of blockListeners) f(b); });
    try { for (const [topic, f] of [...pageTopics]) if (topic !== "blocks") await follow(topic, f); } catch (e) { if (!(e instanceof Stale)) throw e; }
  };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); return; }
    if (m.method === "subscription") handlers.get(m.params.subscription)?.onValue(m.params.result, m.params.block);
  };
  ws.onclose = () => { $("#status").textContent = "reconnecting…"; $("#status").className = "down"; setTimeout(connect, state.relogin ? 0 : 2000); state.relogin = false; };
}
/** Calls `f` after blocks that changed something, at most every `ms` (each call costs requests). */
function onChange(f, ms = 4000) {
  let last = 0, timer;
  const run = () => { last = Date.now(); timer = undefined; f(); };
  const listener = (b) => {
    const c = b.counts ?? {}; if (!(c.swaps || c.prices || c.reserves || c.holders || c.tokens || c.liquidityEvents)) return;
    if (timer) return; const wait = Math.max(0, ms - (Date.now() - last)); timer = setTimeout(run, wait);
  };
  blockListeners.add(listener);
  return () => { blockListeners.delete(listener); clearTimeout(timer); };
}

// ---- login
function renderAuth() {
  const form = $("#auth");
  form.innerHTML = state.token
    ? `<span class="meta">${esc(state.email ?? "signed in")}</span><button type="button" id="logout">Log out</button>`
    : `<input name="email" type="email" placeholder="email" required autocomplete="username"><input name="password" type="password" placeholder="password" required autocomplete="current-password"><button name="login">Log in</button><button type="button" id="register">Register</button><span class="meta" id="auth-error"></span>`;
  $("#logout")?.addEventListener("click", () => { sessionStorage.clear(); state.token = null; state.email = null; state.relogin = true; renderAuth(); route(); ws?.close(); });
  const submit = async (path) => {
    const email = form.email.value, password = form.password.value;
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) { $("#auth-error").textContent = body.error?.message ?? `HTTP ${res.status}`; return; }
    state.token = body.data.token; state.email = email;
    sessionStorage.setItem("tokenpool.token", state.token); sessionStorage.setItem("tokenpool.email", email);
    state.relogin = true; renderAuth(); ws?.close(); route();
  };
  form.onsubmit = (e) => { e.preventDefault(); submit("/auth/login"); };
  $("#register")?.addEventListener("click", () => form.reportValidity() && submit("/auth/register"));
}
const loginNote = (what) => `<p class="note">Log in (top right) to see ${what}: this part of the API needs a bearer token.</p>`;

// ---- search
$("#search").addEventListener("keydown", async (e) => {
  if (e.key !== "Enter") return;
  const q = e.target.value.trim(); if (!q) return;
  const tokens = await tokensList();
  const find = (s) => (/^\d+$/.test(s) ? tokens.find((t) => String(t.tokenId) === s) : tokens.filter((t) => t.symbol.toLowerCase() === s.toLowerCase()).length === 1 ? tokens.find((t) => t.symbol.toLowerCase() === s.toLowerCase()) : undefined);
  if (q.includes("/")) { const [a, b] = q.split("/").map((s) => find(s.trim())); if (a && b) { location.hash = `#/pool/${a.tokenId}/${b.tokenId}`; return; } }
  const t = find(q); if (t) { location.hash = `#/token/${t.tokenId}`; return; }
  if (/^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{40,50})$/.test(q)) { location.hash = `#/account/${q}`; return; }
  const partial = tokens.find((t) => t.symbol.toLowerCase().startsWith(q.toLowerCase()) || t.name.toLowerCase().includes(q.toLowerCase()));
  if (partial) location.hash = `#/token/${partial.tokenId}`; else e.target.setCustomValidity("No token, pair or address matches"), e.target.reportValidity(), e.target.setCustomValidity("");
});

// ---- pages
const cleanups = [];
function leave() { for (const f of cleanups.splice(0)) f(); unfollowAll(); }

async function marketPage() {
  page.innerHTML = `<section><h2>Tokens</h2><table id="tokens"><thead><tr><th>Token</th><th>Value (USD)</th><th>Market cap</th><th>Holders</th></tr></thead><tbody></tbody></table></section>
    <section><h2>Pools</h2><table id="pools"><thead><tr><th>Pair</th><th>TVL (USD)</th><th>Volume 24 h</th><th>Swaps 24 h</th></tr></thead><tbody></tbody></table></section>`;
  const prev = new Map();
  const render = async (fresh) => {
    const [tokens, pools] = await Promise.all([tokensList(fresh), poolsList(fresh)]);
    if (state.head && $("#block").textContent === "–") $("#block").textContent = state.head;
    const trend = (key, v) => { const b = prev.get(key); prev.set(key, v); return b === undefined || v === null || b === null || b === v ? "" : Number(v) > Number(b) ? "up" : "down"; };
    $("#tokens tbody").innerHTML = tokens.length ? tokens.map((t) => `<tr data-token-id="${t.tokenId}"><td>${tokenLink(t)}${badge(t)}</td><td class="${trend(`t${t.tokenId}`, t.valueUsd)}">${num(t.valueUsd, 4)}</td><td>${num(t.marketCapUsd, 0)}</td><td>${t.holders}</td></tr>`).join("") : '<tr><td class="empty" colspan="4">no tokens indexed yet</td></tr>';
    $("#pools tbody").innerHTML = pools.length ? pools.map((p) => `<tr data-pool="${p.tokenA.tokenId}/${p.tokenB.tokenId}"><td>${poolLink(p.tokenA, p.tokenB)}</td><td class="${trend(`p${p.tokenA.tokenId}/${p.tokenB.tokenId}`, p.totalValueLocked)}">${num(p.totalValueLocked, 0)}</td><td>${num(p.volume24h)}</td><td>${p.swaps24h}</td></tr>`).join("") : '<tr><td class="empty" colspan="4">no pools yet</td></tr>';
  };
  await render(true);
  cleanups.push(onChange(() => render(true), 6000));
}

/** The pool to chart a token with: its deepest pool (KSM's deepest is against a stablecoin). */
async function chartPool(id) {
  const pools = await poolsList();
  const mine = pools.filter((p) => p.tokenA.tokenId === id || p.tokenB.tokenId === id);
  mine.sort((a, b) => Number(b.totalValueLocked) - Number(a.totalValueLocked));
  const p = mine[0]; if (!p) return undefined;
  return p.tokenA.tokenId === id ? [p.tokenA, p.tokenB] : [p.tokenB, p.tokenA];
}

const INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d"];
const SECONDS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "4h": 14400, "1d": 86400 };
function intervalTools(current, onPick) {
  const span = document.createElement("span"); span.className = "tools";
  span.innerHTML = INTERVALS.map((i) => `<button type="button" data-interval="${i}" class="${i === current ? "on" : ""}">${i}</button>`).join("");
  span.addEventListener("click", (e) => { const i = e.target.dataset?.interval; if (i) { for (const b of span.children) b.classList.toggle("on", b.dataset.interval === i); onPick(i); } });
  return span;
}
function candleItems(candles, usd, decimalsB) {
  return candles.map((c) => {
    const o = usd ? c.usd : c; if (!o) return null;
    return { t: c.timestamp, o: Number(o.open), h: Number(o.high), l: Number(o.low), c: Number(o.close), v: Number(c.volumeUsd), empty: c.empty,
      tip: `${time(c.timestamp)}<br>O ${num(o.open, 6)} H ${num(o.high, 6)}<br>L ${num(o.low, 6)} C ${num(o.close, 6)}<br>volume $${num(c.volumeUsd)} · ${c.swaps} swaps${c.empty ? "<br>(no trade: previous close)" : ""}` };
  }).filter(Boolean);
}

async function tokenPage(id) {
  const tokens = await tokensList(true);
  // Beyond the 500 largest by market cap, the token is asked for by its id.
  const t = tokens.find((x) => x.tokenId === id) ?? (await get(`/assets?tokenId=${id}`).catch(() => ({ assets: [] }))).assets[0];
  if (!t) { page.innerHTML = `<section class="wide"><p class="empty">Token ${id} is not indexed.</p></section>`; return; }
  const pair = await chartPool(id);
  page.innerHTML = `<div class="title"><h2>${esc(t.name || t.symbol)}${t.name && t.name !== t.symbol ? ` <span class="meta">${sym(t)}</span>` : ""}${badge(t)}</h2><span class="meta">token id ${t.tokenId}</span></div>
    <section class="wide">${facts([["Value (USD)", num(t.valueUsd, 6), "token-value"], ["Market cap", num(t.marketCapUsd, 0)], ["Total supply", units(t.totalSupply, t.decimals)], ["Holders", t.holders, "token-holders"], ["Decimals", t.decimals], ["Status", t.status], ["Kind", t.kind + (t.assetId !== null ? ` (asset ${t.assetId})` : "")]])}</section>
    <section class="wide"><h2 id="token-chart-title">Price (USD)${pair ? ` · from ${poolLink(pair[0], pair[1])}` : ""}</h2><div class="chart" id="token-chart"></div></section>
    <section><h2>Supply and holders</h2><div class="chart" id="supply-chart"></div></section>
    <section><h2>Top holders <button type="button" id="holders-csv" class="small">CSV</button></h2><div id="top-holders"></div></section>
    <section><h2>As of a block</h2><form id="asof-form" class="inline"><input id="asof-block" inputmode="numeric" autocomplete="off" placeholder="block number" aria-label="block number"> <button type="submit">Show</button> <button type="button" id="asof-csv">Holders CSV</button></form><div id="asof"></div><p class="meta" id="asof-csv-state"></p></section>
    <section class="wide"><h2>Transfers</h2><div id="token-transfers"></div></section>
    <section class="wide"><h2>Pools</h2><table><thead><tr><th>Pair</th><th>TVL (USD)</th><th>Volume 24 h</th><th>Swaps 24 h</th></tr></thead><tbody>${(await poolsList()).filter((p) => p.tokenA.tokenId === id || p.tokenB.tokenId === id).map((p) => `<tr><td>${poolLink(p.tokenA, p.tokenB)}</td><td>${num(p.totalValueLocked, 0)}</td><td>${num(p.volume24h)}</td><td>${p.swaps24h}</td></tr>`).join("") || '<tr><td class="empty" colspan="4">no pool</td></tr>'}</tbody></table></section>`;
  let interval = "1m";
  const drawPrice = async () => {
    if (!pair) { chart($("#token-chart"), []); return; }
    const body = await get(`/pools/${pair[0].tokenId}/${pair[1].tokenId}/ohlcv?interval=${interval}`);
    chart($("#token-chart"), candleItems(body.candles, true), { candles: true, step: SECONDS[interval] });
  };
  $("#token-chart-title").append(intervalTools(interval, (i) => { interval = i; drawPrice(); }));
  // The token's newest transfers (GET /assets/{id}/transfers), redrawn when a block changes something.
  const drawTransfers = async () => {
    if (!state.token) { $("#token-transfers").innerHTML = loginNote("the token's transfers"); return; }
    const body = await get(`/assets/${id}/transfers?limit=${ACTIVITY_ROWS}`, true);
    $("#token-transfers").innerHTML = `<table id="transfers"><thead><tr><th>Time</th><th>Kind</th><th>Amount</th><th>Value (USD)</th><th>From</th><th>To</th><th>Block</th></tr></thead><tbody>${body.transfers.map((x) => `<tr data-transfer="${x.blockNumber}/${x.eventIndex}"><td>${time(x.timestamp)}</td><td>${esc(x.kind)}</td><td>${units(x.amount, t.decimals)}</td><td>${x.valueUsd === null ? "–" : num(x.valueUsd)}</td><td>${accountLink(x.from)}</td><td>${accountLink(x.to)}</td><td>${x.blockNumber}</td></tr>`).join("") || '<tr><td class="empty" colspan="7">no transfers indexed</td></tr>'}</tbody></table>`;
  };
  const drawPrivate = async () => {
    if (!state.token) { $("#supply-chart").innerHTML = loginNote("supply and holders over time"); $("#top-holders").innerHTML = loginNote("the top holders"); return; }
    const [history, holders] = await Promise.all([get(`/assets/${id}/history?interval=${interval}`, true), get(`/assets/holders/${id}?limit=10`, true)]);
    chart($("#supply-chart"), history.points.filter((p) => p.supply !== null).map((p) => ({ t: p.timestamp, c: p.holders, tip: `${time(p.timestamp)}<br>supply ${units(p.supply, t.decimals)}<br>${p.holders} holders` })));
    $("#top-holders").innerHTML = `<table><thead><tr><th>#</th><th>Account</th><th>Balance</th><th>Share</th></tr></thead><tbody>${holders.holders.map((h) => `<tr><td>${h.rank}</td><td>${accountLink(h.address)}</td><td>${units(h.balance, t.decimals)}</td><td>${num(String(Number(h.share) * 100), 2)} %</td></tr>`).join("")}</tbody></table>`;
  };
  // The token as the store read it at a past block (GET /assets/metadata/{id}?at=): refusals
  // (before the store's history, not indexed yet) are shown as the API words them.
  // Every holder as CSV: now (one download), or at the block typed above (a snapshot job, polled).
  $("#holders-csv").addEventListener("click", () => download(`/assets/holders/${id}`, `holders-${id}.csv`).catch((err) => ($("#top-holders").innerHTML = `<p class="note">${esc(err.message)}</p>`)));
  $("#asof-csv").addEventListener("click", async () => {
    const out = $("#asof-csv-state");
    if (!state.token) { out.innerHTML = loginNote("holder snapshots"); return; }
    try {
      const block = $("#asof-block").value.trim();
      let snap = await post("/snapshots", block ? { tokenId: id, block: Number(block) } : { tokenId: id });
      while (snap.state === "queued" || snap.state === "running") {
        out.textContent = `snapshot ${snap.id} at block ${snap.blockNumber}: ${snap.state}, ${num(String(Number(snap.progress.fraction) * 100), 0)} %`;
        await new Promise((r) => setTimeout(r, 1000));
        snap = await get(`/snapshots/${snap.id}`, true);
      }
      if (snap.state !== "done") throw new Error(snap.error ?? `snapshot ${snap.state}`);
      out.textContent = `snapshot ${snap.id}: ${snap.holders} holders at block ${snap.blockNumber}`;
      await download(snap.links.csv, `holders-${id}-at-${snap.blockNumber}.csv`);
    } catch (err) {
      if (!(err instanceof Stale)) out.textContent = err.message;
    }
  });
  $("#asof-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const out = $("#asof");
    if (!state.token) { out.innerHTML = loginNote("the token as of a block"); return; }
    try {
      const m = await get(`/assets/metadata/${id}?at=${encodeURIComponent($("#asof-block").value.trim())}`, true);
      out.innerHTML = facts([["Block", m.asOf.blockNumber, "asof-number"], ["Time", time(m.asOf.timestamp)], ["Total supply", units(m.totalSupply, m.decimals), "asof-supply"], ["Treasury (USD)", num(m.treasuryValue, 2)], ["Status", esc(m.status)], ["Read at block", m.blockNumber]]);
    } catch (err) {
      out.innerHTML = `<p class="note" id="asof-error">${esc(err.message)}</p>`;
    }
  });
  const noteOn = (sel) => (e) => { if (e instanceof Stale) throw e; $(sel).innerHTML = `<p class="note">${esc(e.message)}</p>`; };
  await Promise.all([drawPrice(), drawPrivate().catch(noteOn("#top-holders")), drawTransfers().catch(noteOn("#token-transfers"))]);
  // A push without valueUsd is an error (the price expired): show none rather than the old one.
  await follow(`oracle.value:${id}`, (v) => { $("#token-value").textContent = num(v.valueUsd ?? null, 6); });
  cleanups.push(onChange(() => { drawPrice(); drawTransfers().catch(noteOn("#token-transfers")); }, 6000));
}

async function poolPage(a, b) {
  let stats;
  try { stats = await get(`/pool/stats/${a}/${b}`); } catch (e) { page.innerHTML = `<section class="wide"><p class="empty">${esc(e.message)}</p></section>`; return; }
  const A = stats.tokenA, B = stats.tokenB;
  page.innerHTML = `<div class="title"><h2>${sym(A)} / ${sym(B)}</h2><span class="meta">${tokenLink(A)} · ${tokenLink(B)} · <a href="#/pool/${B.tokenId}/${A.tokenId}">flip</a></span></div>
    <section class="wide" id="pool-facts"></section>
    <section class="wide"><h2 id="pool-chart-title">Price of ${sym(A)} in ${sym(B)}</h2><div class="chart" id="pool-chart"></div></section>
    <section class="wide"><h2>Trades <span class="meta" id="trades-live"></span></h2><table id="trades"><thead><tr><th>Time</th><th>Side</th><th>${sym(A)}</th><th>${sym(B)}</th><th>Value (USD)</th><th>Fee (USD)</th><th>Account</th><th>Block</th></tr></thead><tbody></tbody></table></section>`;
  const renderFacts = (s) => {
    $("#pool-facts").innerHTML = facts([[`Price (${sym(B)} per ${sym(A)})`, num(s.price, 6), "pool-price"], ["TVL (USD)", num(s.totalValueLocked, 0)], ["Volume 24 h", `$${num(s.volume24h)}`], ["Fees 24 h", `$${num(s.fees24h)}`], ["Swaps 24 h", s.swaps24h, "pool-swaps"], ["Change 24 h", `<span class="${Number(s.priceChange24h) >= 0 ? "up" : "down"}">${num(s.priceChange24h)} %</span>`], ["APR", `${num(s.apr)} %`], [`Reserve ${sym(A)}`, units(s.tokenA.reserve, A.decimals)], [`Reserve ${sym(B)}`, units(s.tokenB.reserve, B.decimals)], ["LP supply", units(s.lpSupply, 0)], ["Fee", `${num(String(Number(s.feeRate) * 100))} %`]]);
  };
  renderFacts(stats);
  let interval = "1m";
  const drawCandles = async () => {
    const body = await get(`/pools/${A.tokenId}/${B.tokenId}/ohlcv?interval=${interval}`);
    chart($("#pool-chart"), candleItems(body.candles, false), { candles: true, step: SECONDS[interval] });
  };
  $("#pool-chart-title").append(intervalTools(interval, (i) => { interval = i; drawCandles(); }));
  const seen = new Set();
  const drawTrades = async () => {
    const body = await get(`/pools/${A.tokenId}/${B.tokenId}/swaps?limit=25`);
    const first = seen.size === 0;
    $("#trades tbody").innerHTML = body.trades.map((x) => {
      const key = `${x.blockNumber}-${x.eventIndex}-${x.hop}`; const fresh = !first && !seen.has(key); seen.add(key);
      const inA = x.tokenIn === A.tokenId;
      return `<tr class="${fresh ? "new" : ""}" data-trade="${key}"><td>${time(x.timestamp)}</td><td class="${x.side === "buy" ? "up" : "down"}">${x.side}${x.multiHop ? ` <span class="kind">hop ${x.hop + 1}/${x.hops}</span>` : ""}</td><td>${units(inA ? x.amountIn : x.amountOut, A.decimals)}</td><td>${units(inA ? x.amountOut : x.amountIn, B.decimals)}</td><td>${num(x.volumeUsd)}</td><td>${num(x.feeUsd, 4)}</td><td>${accountLink(x.account)}</td><td>${x.blockNumber}</td></tr>`;
    }).join("") || '<tr><td class="empty" colspan="8">no trades yet</td></tr>';
  };
  await Promise.all([drawCandles(), drawTrades()]);
  $("#trades-live").textContent = "· live";
  await follow(`pool.pair:${A.tokenId}/${B.tokenId}`, (s) => { if (s.price) renderFacts(s); });
  let refresh;
  const listener = (blk) => { if (blk.counts?.swaps && !refresh) refresh = setTimeout(() => { refresh = undefined; drawTrades(); drawCandles(); }, 300); };
  blockListeners.add(listener); cleanups.push(() => blockListeners.delete(listener));
}

async function accountPage(address) {
  page.innerHTML = `<div class="title"><h2 class="mono address">${esc(address)}</h2><form id="account-asof-form" class="inline"><input id="account-asof-block" inputmode="numeric" autocomplete="off" placeholder="as of block (empty: now)" aria-label="as of block"> <button type="submit">Show</button></form></div><section class="wide" id="account"></section>
    <section class="wide"><h2>Activity <span class="meta" id="activity-live"></span></h2><table id="activity"><thead><tr><th>Time</th><th>Kind</th><th>Token</th><th>Amount</th><th>Value (USD)</th><th>Counterparty</th><th>Block</th></tr></thead><tbody></tbody></table><p><button type="button" id="activity-more" hidden>Older transfers</button></p></section>
    <section class="wide"><h2>Trades</h2><table id="account-trades"><thead><tr><th>Time</th><th>Pool</th><th>Sold</th><th>Bought</th><th>Value (USD)</th><th>Block</th></tr></thead><tbody></tbody></table><p><button type="button" id="trades-more" hidden>Older trades</button></p></section>`;
  if (!state.token) { $("#account").innerHTML = loginNote("an account's portfolio"); return; }
  const render = (p) => {
    $(".title h2").textContent = p.address;
    $("#account").innerHTML = `${facts([["Total value (USD)", `$${num(p.totalValueUsd)}`, "account-total"], ["Tokens", p.tokens.length], ["LP positions", p.lpPositions.length], [p.asOf ? "As of block" : "At block", p.blockNumber ?? "–", "account-block"]])}
      <h2 class="spaced">Tokens</h2><table id="portfolio"><thead><tr><th>Token</th><th>Balance</th><th>Value (USD)</th><th>Share of supply</th></tr></thead><tbody>${p.tokens.map((t) => `<tr data-token-id="${t.tokenId}" data-balance="${esc(t.balance)}"><td>${tokenLink(t)}${badge(t)}</td><td>${units(t.balance, t.decimals)}${held(t)}</td><td>${num(t.valueUsd)}</td><td>${num(String(Number(t.share) * 100), 4)} %</td></tr>`).join("") || '<tr><td class="empty" colspan="4">nothing held</td></tr>'}</tbody></table>
      <h2 class="spaced">Liquidity positions</h2><table id="positions"><thead><tr><th>Pool</th><th>Share of pool</th><th>Underlying</th><th>Value (USD)</th></tr></thead><tbody>${p.lpPositions.map((l) => `<tr data-lp-token-id="${l.lpTokenId}" data-balance="${esc(l.balance)}"><td>${poolLink(l.tokenA, l.tokenB)}</td><td>${num(String(Number(l.share) * 100), 4)} %</td><td>${units(l.tokenA.amount, l.tokenA.decimals)} ${sym(l.tokenA)} + ${units(l.tokenB.amount, l.tokenB.decimals)} ${sym(l.tokenB)}</td><td>${num(l.valueUsd)}</td></tr>`).join("") || '<tr><td class="empty" colspan="4">no positions</td></tr>'}</tbody></table>
      ${p.truncated ? '<p class="note">More than 1,000 holdings: the first 1,000 are shown.</p>' : ""}`;
  };
  try { render(await get(`/accounts/${encodeURIComponent(address)}`, true)); } catch (e) { $("#account").innerHTML = `<p class="empty">${esc(e.message)}</p>`; return; }
  // As of a block (GET /accounts/{address}?at=): live pushes stop redrawing it until it is cleared.
  let asOf = "";
  $("#account-asof-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    asOf = $("#account-asof-block").value.trim();
    try { render(await get(`/accounts/${encodeURIComponent(address)}${asOf ? `?at=${encodeURIComponent(asOf)}` : ""}`, true)); } catch (err) { if (!(err instanceof Stale)) $("#account").innerHTML = `<p class="note" id="account-asof-error">${esc(err.message)}</p>`; }
  });
  // Activity: the newest transfers in and out (GET /accounts/{address}/transfers), live over /ws;
  // "Older transfers" pages on by the keyset cursor, and the pages read stay under the live ones.
  const tokens = new Map((await tokensList()).map((t) => [t.tokenId, t]));
  const seen = new Set();
  const older = { transfers: [], cursor: null };
  const renderActivity = (body) => {
    const before = new Set(seen); // rows new since the last render are highlighted (none on the first)
    const newest = body.transfers.slice(0, ACTIVITY_ROWS);
    const shown = new Set(newest.map((x) => `${x.blockNumber}/${x.eventIndex}`));
    if (older.transfers.length === 0) older.cursor = body.nextCursor; // not paged on: older pages start after the newest
    $("#activity-more").hidden = older.cursor === null;
    $("#activity tbody").innerHTML = [...newest, ...older.transfers.filter((x) => !shown.has(`${x.blockNumber}/${x.eventIndex}`))].map((x) => {
      const key = `${x.blockNumber}/${x.eventIndex}`;
      const fresh = before.size > 0 && !before.has(key);
      seen.add(key);
      const t = x.tokenId === null ? undefined : tokens.get(x.tokenId);
      const token = x.lpTokenId !== null ? `LP #${x.lpTokenId}` : t ? tokenLink(t) : `#${x.tokenId}`;
      const amount = t ? units(x.amount, t.decimals) : esc(x.amount);
      const other = x.direction === "out" ? x.to : x.from;
      const kind = x.kind === "transfer" ? (x.direction === "self" ? "to self" : x.direction === "in" ? "received" : "sent") : x.kind;
      return `<tr class="${fresh ? "new" : ""}" data-transfer="${key}"><td>${time(x.timestamp)}</td><td class="${x.direction === "in" ? "up" : x.direction === "out" ? "down" : ""}">${esc(kind)}</td><td>${token}</td><td>${amount}</td><td>${x.valueUsd === null ? "–" : num(x.valueUsd)}</td><td>${accountLink(other)}</td><td>${x.blockNumber}</td></tr>`;
    }).join("") || '<tr><td class="empty" colspan="7">no transfers indexed</td></tr>';
  };
  const path = `/accounts/${encodeURIComponent(address)}`;
  let latest = await get(`${path}/transfers?limit=${ACTIVITY_ROWS}`, true);
  renderActivity(latest);
  $("#activity-more").addEventListener("click", async () => {
    const page = await get(`${path}/transfers?limit=${ACTIVITY_ROWS}&cursor=${encodeURIComponent(older.cursor)}`, true);
    older.transfers.push(...page.transfers);
    older.cursor = page.nextCursor;
    renderActivity(latest);
  });
  // Trades: one row per pool a swap crossed (GET /accounts/{address}/swaps), paged the same way,
  // read again when a block brings swaps.
  const trades = { rows: [], cursor: null };
  const sideOf = (id, amount) => { const t = tokens.get(id); return `${t ? units(amount, t.decimals) : esc(amount)} ${t ? tokenLink(t) : `#${id}`}`; };
  const renderTrades = () => {
    $("#account-trades tbody").innerHTML = trades.rows.map((x) => `<tr data-trade="${x.blockNumber}/${x.eventIndex}/${x.hop}"><td>${time(x.timestamp)}</td><td>${tokens.has(x.pool.token0Id) && tokens.has(x.pool.token1Id) ? poolLink(tokens.get(x.pool.token0Id), tokens.get(x.pool.token1Id)) : `${x.pool.token0Id}/${x.pool.token1Id}`}</td><td>${sideOf(x.tokenIn, x.amountIn)}</td><td>${sideOf(x.tokenOut, x.amountOut)}</td><td>${num(x.volumeUsd)}</td><td>${x.blockNumber}</td></tr>`).join("") || '<tr><td class="empty" colspan="6">no trades indexed</td></tr>';
    $("#trades-more").hidden = trades.cursor === null;
  };
  const readTrades = async (more) => {
    const page = await get(`${path}/swaps?limit=${ACTIVITY_ROWS}${more ? `&cursor=${encodeURIComponent(trades.cursor)}` : ""}`, true);
    if (more || trades.rows.length <= ACTIVITY_ROWS) {
      trades.rows = more ? [...trades.rows, ...page.trades] : page.trades; // not paged on: the newest page
      trades.cursor = page.nextCursor;
    } else {
      // Paged on: the new newest page above what was read; the cursor stays at the end of it.
      const key = (x) => `${x.blockNumber}/${x.eventIndex}/${x.hop}`;
      const fresh = new Set(page.trades.map(key));
      trades.rows = [...page.trades, ...trades.rows.filter((x) => !fresh.has(key(x)))];
    }
    renderTrades();
  };
  await readTrades(false);
  $("#trades-more").addEventListener("click", () => readTrades(true).catch(() => {}));
  cleanups.push(onChange(() => readTrades(false).catch(() => {}), 6000));
  $("#activity-live").textContent = "· live";
  if (state.token) {
    await follow(`accounts:${address}`, (p) => { if (p.address && !asOf) render(p); });
    await follow(`transfers:${address}`, (b) => { if (b.transfers) renderActivity((latest = b)); });
  }
}
const ACTIVITY_ROWS = 25;

async function route() {
  leave();
  const seq = ++routeSeq;
  delete page.dataset.shown;
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  try {
    if (parts[0] === "token" && /^\d+$/.test(parts[1] ?? "")) await tokenPage(Number(parts[1]));
    else if (parts[0] === "pool" && parts[1] && parts[2]) await poolPage(parts[1], parts[2]);
    else if (parts[0] === "account" && parts[1]) await accountPage(parts[1]);
    else await marketPage();
  } catch (e) {
    if (e instanceof Stale || seq !== routeSeq) return;
    page.innerHTML = `<section class="wide"><p class="empty">${esc(e.status === 429 ? "Too many requests from this address: the page refreshes in a minute." : e.message)}</p></section>`;
  }
  if (seq !== routeSeq) return;
  page.dataset.shown = location.hash || "#/"; // the page for this hash is drawn (tests wait on it)
  window.scrollTo(0, 0);
}
window.addEventListener("hashchange", route);
renderAuth();
connect();
route();
