/**
 * An account (#/account/ADDRESS, logged in): its portfolio and LP positions, now (live over /ws) or
 * as of a block; its transfers (live) and trades, each paged back with "Older".
 */
import { ACTIVITY_ROWS, api, follow, fresh, onChange, poolsList, session, Stale, tokensList, type Body } from "../api.js";
import { $, onLeave, page } from "../dom.js";
import { accountLink, badge, esc, facts, held, kindText, loginNote, lpDecimals, note, num, percent, poolLink, since, sym, time, tokenLink, units } from "../format.js";

function renderPortfolio(p: Body): void {
  $(".title h2").textContent = p.address;
  const tokens = p.tokens.map((t: Body) => `<tr data-token-id="${t.tokenId}" data-balance="${esc(t.balance)}"><td>${tokenLink(t)}${badge(t)}</td><td>${units(t.balance, t.decimals)}${held(t)}</td><td>${num(t.valueUsd)}</td><td>${percent(t.share, 4)}</td></tr>`);
  const positions = p.lpPositions.map(
    (l: Body) => `<tr data-lp-token-id="${l.lpTokenId}" data-balance="${esc(l.balance)}"><td>${poolLink(l.tokenA, l.tokenB)}</td><td>${percent(l.share, 4)}</td><td>${units(l.tokenA.amount, l.tokenA.decimals)} ${sym(l.tokenA)} + ${units(l.tokenB.amount, l.tokenB.decimals)} ${sym(l.tokenB)}</td><td>${num(l.valueUsd)}</td></tr>`,
  );
  $("#account").innerHTML = `${facts([["Total value (USD)", `$${num(p.totalValueUsd)}`, "account-total"], ["Tokens", p.tokens.length], ["LP positions", p.lpPositions.length], [p.asOf ? "As of block" : "At block", p.blockNumber ?? "–", "account-block"]])}
    <h2 class="spaced">Tokens</h2><table id="portfolio"><thead><tr><th>Token</th><th>Balance</th><th>Value (USD)</th><th>Share of supply</th></tr></thead><tbody>${tokens.join("") || '<tr><td class="empty" colspan="4">nothing held</td></tr>'}</tbody></table>
    <h2 class="spaced">Liquidity positions</h2><table id="positions"><thead><tr><th>Pool</th><th>Share of pool</th><th>Underlying</th><th>Value (USD)</th></tr></thead><tbody>${positions.join("") || '<tr><td class="empty" colspan="4">no positions</td></tr>'}</tbody></table>
    ${p.truncated ? '<p class="note">More than 1,000 holdings: the first 1,000 are shown.</p>' : ""}`;
}

/** Transfers in and out: the newest (pushed live), then the older pages read by the keyset cursor. */
function activity(address: string, tokens: Map<number, Body>, lpPools: Map<number, Body>) {
  const seen = new Set<string>();
  const older: { transfers: Body[]; cursor: string | null } = { transfers: [], cursor: null };
  let latest: Body;
  const row = (x: Body, before: Set<string>) => {
    const key = `${x.blockNumber}/${x.eventIndex}`;
    const fresh = before.size > 0 && !before.has(key);
    seen.add(key);
    const t = x.tokenId === null ? undefined : tokens.get(x.tokenId);
    const lp = x.lpTokenId === null ? undefined : lpPools.get(x.lpTokenId);
    const token = x.lpTokenId !== null ? (lp ? `LP ${poolLink(lp.tokenA, lp.tokenB)}` : `LP #${x.lpTokenId}`) : t ? tokenLink(t) : `#${x.tokenId}`;
    // An amount of a token the lists do not hold is raw, and says so.
    const decimals = lp ? lpDecimals(lp.tokenA, lp.tokenB) : t?.decimals;
    const amount = decimals === undefined ? `${esc(x.amount)} <span class="kind">smallest units</span>` : units(x.amount, decimals);
    const other = x.direction === "out" ? x.to : x.from;
    const dir = x.direction === "in" ? "up" : x.direction === "out" ? "down" : "";
    return `<tr class="${fresh ? "new" : ""}" data-transfer="${key}"><td>${time(x.timestamp)}</td><td class="${dir}">${kindText(x)}</td><td>${token}</td><td>${amount}</td><td>${x.valueUsd === null ? "–" : num(x.valueUsd)}</td><td>${accountLink(other)}</td><td>${x.blockNumber}</td></tr>`;
  };
  const render = (body: Body) => {
    latest = body;
    const before = new Set(seen); // rows new since the last render are highlighted (none on the first)
    const newest: Body[] = body.transfers.slice(0, ACTIVITY_ROWS);
    const shown = new Set(newest.map((x) => `${x.blockNumber}/${x.eventIndex}`));
    if (older.transfers.length === 0) older.cursor = body.nextCursor; // not paged on: older pages start after the newest
    $("#activity-more").hidden = older.cursor === null;
    const rows = [...newest, ...older.transfers.filter((x) => !shown.has(`${x.blockNumber}/${x.eventIndex}`))].map((x) => row(x, before));
    $("#activity tbody").innerHTML = rows.join("") || '<tr><td class="empty" colspan="7">no transfers indexed</td></tr>';
    // The store may not reach back to the account's first transfer: say from where it does.
    $("#activity-since").textContent = since(body);
  };
  const more = async () => {
    const next = await fresh(api.accountTransfers(address, { limit: ACTIVITY_ROWS, cursor: older.cursor! }));
    older.transfers.push(...next.transfers);
    older.cursor = next.nextCursor;
    render(latest);
  };
  return { render, more };
}

/** Trades, one row per pool a swap crossed (GET /accounts/{address}/swaps), paged the same way. */
function trades(address: string, tokens: Map<number, Body>) {
  const state: { rows: Body[]; cursor: string | null; coverage?: Body } = { rows: [], cursor: null };
  const key = (x: Body) => `${x.blockNumber}/${x.eventIndex}/${x.hop}`;
  const side = (id: number, amount: string) => {
    const t = tokens.get(id);
    return t ? `${units(amount, t.decimals)} ${tokenLink(t)}` : `${esc(amount)} #${id} <span class="kind">smallest units</span>`;
  };
  const pool = (p: Body) => (tokens.has(p.token0Id) && tokens.has(p.token1Id) ? poolLink(tokens.get(p.token0Id), tokens.get(p.token1Id)) : `${p.token0Id}/${p.token1Id}`);
  const render = () => {
    const rows = state.rows.map((x) => `<tr data-trade="${key(x)}"><td>${time(x.timestamp)}</td><td>${pool(x.pool)}</td><td>${side(x.tokenIn, x.amountIn)}</td><td>${side(x.tokenOut, x.amountOut)}</td><td>${num(x.volumeUsd)}</td><td>${x.blockNumber}</td></tr>`);
    $("#account-trades tbody").innerHTML = rows.join("") || '<tr><td class="empty" colspan="6">no trades indexed</td></tr>';
    $("#trades-since").textContent = state.coverage ? since(state.coverage, "trades") : "";
    $("#trades-more").hidden = state.cursor === null;
  };
  return async (more: boolean) => {
    const next = await fresh(api.accountSwaps(address, { limit: ACTIVITY_ROWS, cursor: more ? state.cursor! : undefined }));
    state.coverage = next;
    if (more || state.rows.length <= ACTIVITY_ROWS) {
      state.rows = more ? [...state.rows, ...next.trades] : next.trades; // not paged on: the newest page
      state.cursor = next.nextCursor;
    } else {
      // Paged on: the new newest page above what was read; the cursor stays at the end of it.
      const fresh = new Set(next.trades.map(key));
      state.rows = [...next.trades, ...state.rows.filter((x) => !fresh.has(key(x)))];
    }
    render();
  };
}

export async function accountPage(address: string): Promise<void> {
  page.innerHTML = `<div class="title"><h2 class="mono address">${esc(address)}</h2><form id="account-asof-form" class="inline"><input id="account-asof-block" inputmode="numeric" autocomplete="off" placeholder="as of block (empty: now)" aria-label="as of block"> <button type="submit">Show</button></form></div><section class="wide" id="account"></section>
    <section class="wide"><h2>Activity <span class="meta" id="activity-live"></span></h2><table id="activity"><thead><tr><th>Time</th><th>Kind</th><th>Token</th><th>Amount</th><th>Value (USD)</th><th>Counterparty</th><th>Block</th></tr></thead><tbody></tbody></table><p><button type="button" id="activity-more" hidden>Older transfers</button></p><p class="meta" id="activity-since"></p></section>
    <section class="wide"><h2>Trades</h2><table id="account-trades"><thead><tr><th>Time</th><th>Pool</th><th>Sold</th><th>Bought</th><th>Value (USD)</th><th>Block</th></tr></thead><tbody></tbody></table><p><button type="button" id="trades-more" hidden>Older trades</button></p><p class="meta" id="trades-since"></p></section>`;
  if (!session.token) return void ($("#account").innerHTML = loginNote("an account's portfolio"));
  try {
    renderPortfolio(await fresh(api.account(address)));
  } catch (e) {
    if (e instanceof Stale) throw e;
    return void ($("#account").innerHTML = `<p class="empty">${esc((e as Error).message)}</p>`);
  }
  // As of a block (GET /accounts/{address}?at=): live pushes stop redrawing it until it is cleared.
  let asOf = "";
  $("#account-asof-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    asOf = $<HTMLInputElement>("#account-asof-block").value.trim();
    try {
      renderPortfolio(await fresh(api.account(address, asOf ? { at: asOf } : {})));
    } catch (err) {
      if (!(err instanceof Stale)) $("#account").innerHTML = note((err as Error).message, "account-asof-error");
    }
  });
  const tokens = new Map((await tokensList()).map((t) => [t.tokenId as number, t]));
  const lpPools = new Map((await poolsList()).map((p) => [p.lpTokenId as number, p]));
  const transfers = activity(address, tokens, lpPools);
  transfers.render(await fresh(api.accountTransfers(address, { limit: ACTIVITY_ROWS })));
  $("#activity-more").addEventListener("click", () => void transfers.more());
  const readTrades = trades(address, tokens);
  await readTrades(false);
  $("#trades-more").addEventListener("click", () => readTrades(true).catch(() => {}));
  onLeave(onChange(() => readTrades(false).catch(() => {}), 6000));
  $("#activity-live").textContent = "· live";
  await follow(`accounts:${address}`, (p) => {
    if (p.address && !asOf) renderPortfolio(p);
  });
  await follow(`transfers:${address}`, (b) => {
    if (b.transfers) transfers.render(b);
  });
}
