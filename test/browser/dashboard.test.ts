/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against the devnet:
 * it lists the devnet's tokens and pools, draws its charts with lightweight-charts (canvas, a
 * crosshair and its tooltip under the pointer, the interval picker), updates a value after a swap
 * on chain through the WebSocket, loads nothing from outside the server, and leaves a screenshot
 * in test-output/.
 */
import { randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { existsSync } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { insertPrices, recordEventRanges, upsertTokens, type DbHandle, type NewToken } from "../../db/index.js";
import { ALICE, HEAD_BLOCK, seedMarket as seedFixtures } from "../support/fixtures.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { assetLocation, assetUnits, NATIVE_LOCATION } from "../../indexer/devnet/plan.js";
import { fundMarketAccounts, seedMarket } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import type { Follower } from "../../indexer/follower.js";
import { startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { until } from "../support/wait.js";
import { memoryStore } from "../support/db.js";

/** The API's JWT secret in this file (random: a hand-made one would not pass the rule, shared/secret-strength.ts). */
const JWT_SECRET = randomBytes(32).toString("base64url");

const genesis = loadConfig().devnetGenesis;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = !existsSync(CHROMIUM) ? `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` : undefined;
/** Screenshots go to test-output/; with UPDATE_SCREENSHOTS=1 also to docs/screenshots (the README's). */
const SCREENSHOT_DIRS = ["test-output/screenshots", ...(process.env.UPDATE_SCREENSHOTS === "1" ? ["docs/screenshots"] : [])];
const LONG = 180_000;
/** Goes to a dashboard route and waits until that route's page is drawn (not the one before it). */
async function show(page: Page, base: string, hash: string) {
  await page.goto(`${base}/${hash}`);
  await page.waitForSelector(`#page[data-shown="${hash}"]`, { timeout: 30_000 });
}
/** The canvases lightweight-charts draws into a chart's container (its own element, then a canvas per pane and scale). */
const chartCanvas = (box: string) => `${box} .tv-lightweight-charts canvas`;
/**
 * Moves the pointer over a chart's plot from its right edge leftwards until it is over a point: the
 * library's crosshair follows it, and our tooltip shows that point's figures (its text is returned).
 */
async function hover(page: Page, box: string): Promise<string> {
  const r = (await page.locator(`${box} .tv-lightweight-charts`).boundingBox())!;
  const tip = page.locator(`${box} .tip`);
  for (let x = r.x + r.width - 2; x > r.x; x -= 4) {
    await page.mouse.move(x, r.y + r.height * 0.4);
    if (await tip.isVisible()) return tip.innerText();
  }
  throw new Error(`no tooltip anywhere over ${box}`);
}

/**
 * A figure as the dashboard prints it, worked out here apart from its code: the integer part whole
 * and grouped by thousands, then `digits` decimals (below 1, down to the fourth significant one),
 * trailing zeros dropped. `printedAmount` takes an amount in smallest units and its decimals.
 */
function printed(int: bigint, frac: string, digits: number, negative = false): string {
  const first = frac.search(/[1-9]/);
  const keep = int === 0n && first >= 0 ? Math.max(digits, first + 4) : digits;
  const f = frac.slice(0, keep).replace(/0+$/, "");
  return `${negative ? "-" : ""}${int.toLocaleString("en-US")}${f ? `.${f}` : ""}`;
}
const printedDecimal = (dec: string, digits = 2) => {
  const [int = "0", frac = ""] = dec.replace(/^-/, "").split(".");
  return printed(BigInt(int), frac, digits, dec.startsWith("-"));
};
const printedAmount = (raw: string, decimals: number, digits = 4) => {
  const unit = 10n ** BigInt(decimals);
  return printed(BigInt(raw) / unit, (BigInt(raw) % unit).toString().padStart(decimals, "0").slice(0, decimals), digits);
};
/**
 * A fraction from the API ("0.199999999999886862") as the percentage the dashboard shows for it:
 * the decimal point moved two places by string arithmetic (exact), then cut like any figure
 * (`digits` decimals, below 1 down to the fourth significant one), and " %"; null is "–".
 */
const printedPercent = (fraction: string | null, digits = 2) => {
  if (fraction === null) return "–";
  const [int = "0", frac = ""] = fraction.replace(/^-/, "").split(".");
  const f = frac.padEnd(2, "0");
  return `${printed(BigInt(int + f.slice(0, 2)), f.slice(2), digits, fraction.startsWith("-"))} %`;
};
/** Polls `read` until it equals `want()` (both read again each time), for at most 15 s: the market moves while a page is compared with the API. */
async function settled<T>(read: () => Promise<T>, want: () => Promise<T>): Promise<{ shown: T; api: T }> {
  let got = { shown: await read(), api: await want() };
  for (const until = Date.now() + 15_000; !isDeepStrictEqual(got.shown, got.api) && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 500));
    got = { shown: await read(), api: await want() };
  }
  return got;
}

describe.skipIf(skip)(`dashboard in chromium${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let handle: DbHandle;
  let follower: Follower;
  let server: ApiServer;
  let browser: Browser;

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    await fundMarketAccounts(api, { holders: 5 });
    handle = await memoryStore();
    // The page's own requests, its /ws messages and the test's reads come from one IP: ~90 in a
    // walk, near the default 100 a minute; the limit is tested elsewhere (rate-limit.test.ts).
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET, RATE_LIMIT_MAX: "100000", ORACLE_MIN_LIQUIDITY_USD: "1" });
    const market = await seedMarket(api, { holders: 5 });
    follower = startIndexer(config, createLogger("silent"), handle, devnet.wsUrl);
    await until("the follower to reach the seeded market", () => (follower.status.block ?? 0) >= market.block);
    // The seeded swaps came before the bootstrap block: the first start's history backfills them.
    await until("the history backfill", () => follower.status.progress.history?.finished === true, 60_000);
    server = await startApiServer(config, createLogger("silent"), { shared: handle });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await follower?.stop();
    await handle?.close();
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("walks market → token → pool → account, sees a trade arrive live, and loads nothing from outside", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const outside: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(`ws://127.0.0.1:${server.port}`)) outside.push(r.url());
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // A resource the page's Content-Security-Policy blocks is reported on the console.
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    const shot = async (name: string) => {
      await page.waitForTimeout(300); // let the last chart draw
      for (const dir of SCREENSHOT_DIRS) {
        await mkdir(dir, { recursive: true });
        await page.screenshot({ path: `${dir}/${name}.png`, fullPage: name !== "pool" });
      }
      expect((await stat(`${SCREENSHOT_DIRS[0]}/${name}.png`)).size).toBeGreaterThan(10_000);
    };

    // The market: every token (foreign ones marked, asset 0 with its chain id) and every pool.
    await page.goto(`${base}/`);
    await page.waitForSelector("#status.live", { timeout: 30_000 });
    await page.waitForSelector('#tokens tr[data-token-id="0"]');
    const tokenRows = await page.locator("#tokens tbody tr").allInnerTexts();
    for (const symbol of ["KSM", "USDt", "USDC", "WETH", "TEN"]) expect(tokenRows.some((r) => r.startsWith(symbol)), symbol).toBe(true);
    for (const symbol of ["pUSDC", "KAR"]) expect(tokenRows.some((r) => r.startsWith(`${symbol}foreign`)), symbol).toBe(true);
    expect(tokenRows.some((r) => r.startsWith("DOGasset 0"))).toBe(true);
    const poolRows = await page.locator("#pools tbody tr").allInnerTexts();
    expect(poolRows.map((r) => r.split("\t")[0]).sort()).toEqual(["KSM/TEN", "KSM/USDC", "KSM/USDt", "KSM/WETH", "KSM/WHL", "KSM/pUSDC", "KSM/KAR"].sort());
    // Each pool's 24 h change, and the pools' totals over a chart of volume and TVL: the API's figures.
    const pairKeys = await page.locator("#pools tbody tr[data-pool]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-pool")!));
    const changes = await settled(
      () => page.locator("#pools tbody tr[data-pool] td.change").allInnerTexts(),
      () => Promise.all(pairKeys.map(async (k) => {
        const c = ((await (await fetch(`${base}/pool/stats/${k}`)).json()) as { priceChange24h: string }).priceChange24h;
        return `${c.startsWith("-") || Number(c) === 0 ? "" : "+"}${printedDecimal(c)} %`;
      })),
    );
    expect(changes.shown).toEqual(changes.api);
    await page.waitForSelector("#market-tvl");
    const tvl = await settled(
      () => page.locator("#market-tvl").innerText(),
      async () => `$${printedDecimal(((await (await fetch(`${base}/pool/stats`)).json()) as { totalValueLocked: string }).totalValueLocked, 0)}`,
    );
    expect(tvl.shown).toBe(tvl.api);
    await page.waitForSelector(chartCanvas("#market-chart"));
    expect(await hover(page, "#market-chart")).toMatch(/volume \$.* swaps|TVL \$[\d,]+ at block \d+/);
    await page.mouse.move(0, 0);
    // The icon: an SVG of this origin, which the page's policy lets it load.
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/dashboard/favicon.svg");
    const icon = await fetch(`${base}/dashboard/favicon.svg`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
    expect(await icon.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect((await (await fetch(`${base}/`)).headers.get("content-security-policy"))?.match(/img-src ([^;]+)/)?.[1]).toContain("'self'");
    await shot("market");

    // Search a symbol → the token page: facts, USD candles with a time axis and a tooltip.
    await page.fill("#search", "usdt");
    await page.press("#search", "Enter");
    await page.waitForURL(/#\/token\/1984$/);
    await show(page, base, "#/token/0");
    // The chart is the library's (its canvases, no SVG of ours); the pointer brings its crosshair
    // (drawn on the canvas: the crosshair's time label appears on the time scale) and our tooltip.
    await page.waitForSelector(chartCanvas("#token-chart"));
    expect(await page.locator(chartCanvas("#token-chart")).count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator("#token-chart svg").count()).toBe(0);
    expect(await hover(page, "#token-chart")).toMatch(/O .* H .*\nL .* C /);
    // Another interval: the candles are read again and drawn into the same chart.
    const hourly = page.waitForResponse((r) => r.url().includes("/ohlcv?interval=1h"));
    await page.click('#token-chart-title button[data-interval="1h"]');
    expect((await hourly).ok()).toBe(true);
    expect(await page.locator('#token-chart-title button.on[data-interval="1h"]').count()).toBe(1);
    expect(await page.locator("#token-chart .tv-lightweight-charts").count()).toBe(1);
    await page.click('#token-chart-title button[data-interval="1m"]');
    expect(await page.locator("#top-holders").innerText()).toMatch(/Log in/);

    // Registered and logged in: supply over time and the top holders appear.
    await page.fill('#auth input[name="email"]', "browser@example.com");
    await page.fill('#auth input[name="password"]', "correct horse battery");
    await page.click("#register");
    await page.waitForSelector("#top-holders table");
    await page.waitForSelector(chartCanvas("#supply-chart"));
    // Supply and holders: two series, each named (the legend, and the tip of a point).
    expect(await page.locator("#supply-chart").locator("xpath=..").locator("h2 .legend").innerText()).toMatch(/Supply \(KSM\)\s+Holders/);
    expect(await hover(page, "#supply-chart")).toMatch(/supply [\d,.]+ KSM\n\d+ holders/);
    // As of a block: the API's answer at the store's head, and its refusal before the history floor.
    const head = ((await (await fetch(`${base}/assets?limit=1`)).json()) as { blockNumber: number }).blockNumber;
    const token = `Bearer ${await page.evaluate("sessionStorage.getItem(\"tokenpool.token\")")}`;
    const atHead = (await (await fetch(`${base}/assets/metadata/0?at=${head}`, { headers: { authorization: token } })).json()) as { asOf: { blockNumber: number }; totalSupply: string; decimals: number };
    await page.fill("#asof-block", String(head));
    await page.click("#asof-form button");
    await page.waitForSelector("#asof-supply");
    expect(await page.locator("#asof-number").innerText()).toBe(String(head));
    expect(atHead.asOf.blockNumber).toBe(head);
    expect(await page.locator("#asof-supply").innerText()).toBe(printedAmount(atHead.totalSupply, atHead.decimals));
    // The token's newest transfers: the API's, in its order.
    await page.waitForSelector("#transfers tbody tr[data-transfer]");
    const tokenTransfers: any = await (await fetch(`${base}/assets/0/transfers?limit=25`, { headers: { authorization: token } })).json();
    expect(tokenTransfers.transfers.length).toBeGreaterThan(0);
    expect(await page.locator("#transfers tbody tr[data-transfer]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-transfer")))).toEqual(tokenTransfers.transfers.map((x: any) => `${x.blockNumber}/${x.eventIndex}`));
    // Every holder as CSV: now, and at the head block through a snapshot job — both the API's list.
    const csvNow = page.waitForEvent("download");
    await page.click("#holders-csv");
    const now = await (await csvNow).path();
    const wantNow = await (await fetch(`${base}/assets/holders/0`, { headers: { authorization: token, accept: "text/csv" } })).text();
    expect(await readFile(now!, "utf8")).toBe(wantNow);
    const csvAt = page.waitForEvent("download", { timeout: 60_000 });
    await page.click("#asof-csv");
    const at = await csvAt;
    expect(at.suggestedFilename()).toBe(`holders-0-at-${head}.csv`);
    const snapshotCsv = await readFile((await at.path())!, "utf8");
    expect(snapshotCsv.split("\n").slice(1)).toEqual(wantNow.split("\n").slice(1)); // the same list, at the same block
    expect(await page.locator("#asof-csv-state").innerText()).toMatch(/holders at block/);
    await page.fill("#asof-block", "0");
    await page.click("#asof-form button");
    await page.waitForSelector("#asof-error");
    expect(await page.locator("#asof-error").innerText()).toMatch(/before the store's balance history, which starts at block \d+/);
    await shot("token");

    // A holder → the account page: its portfolio, equal to the API's answer.
    // (the first one with a liquidity position, so the page shows both kinds of holding)
    const auth = { authorization: `Bearer ${await page.evaluate("sessionStorage.getItem(\"tokenpool.token\")")}` };
    const addresses = await page.locator("#top-holders a").evaluateAll((links) => links.map((a) => a.getAttribute("title")!));
    const portfolios: any[] = await Promise.all(addresses.map(async (a) => (await fetch(`${base}/accounts/${a}`, { headers: auth })).json()));
    const chosen = Math.max(0, portfolios.findIndex((p) => p.lpPositions.length > 0));
    await page.locator("#top-holders a").nth(chosen).click();
    await page.waitForSelector("#portfolio");
    // Each row's token and exact balance, in the API's order (the market moves while it is read:
    // the page and a fresh answer are compared until they agree, for at most 15 s).
    const shown = async () => ({
      tokens: await page.locator("#portfolio tbody tr[data-token-id]").evaluateAll((rows) => rows.map((r) => `${r.getAttribute("data-token-id")}:${r.getAttribute("data-balance")}`)),
      positions: await page.locator("#positions tbody tr[data-lp-token-id]").evaluateAll((rows) => rows.map((r) => `${r.getAttribute("data-lp-token-id")}:${r.getAttribute("data-balance")}`)),
    });
    const answered = async () => {
      const p: any = await (await fetch(`${base}/accounts/${addresses[chosen]}`, { headers: auth })).json();
      return { tokens: p.tokens.map((x: any) => `${x.tokenId}:${x.balance}`), positions: p.lpPositions.map((x: any) => `${x.lpTokenId}:${x.balance}`) };
    };
    let compared = { page: await shown(), api: await answered() };
    for (const until = Date.now() + 15_000; !isDeepStrictEqual(compared.page, compared.api) && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 500));
      compared = { page: await shown(), api: await answered() };
    }
    expect(compared.api.tokens.length).toBeGreaterThan(0);
    expect(compared.page).toEqual(compared.api);
    // What each row shows is its balance in whole tokens: the integer part exactly (grouped by
    // thousands), then the leading digits of the fraction (at least four, less trailing zeros).
    const decimals = new Map<string, number>(((await (await fetch(`${base}/accounts/${addresses[chosen]}`, { headers: auth })).json()) as any).tokens.map((x: any) => [String(x.tokenId), x.decimals]));
    const cells = await page.locator("#portfolio tbody tr[data-token-id]").evaluateAll((rows) =>
      rows.map((r) => ({ id: r.getAttribute("data-token-id")!, balance: r.getAttribute("data-balance")!, text: r.children[1]!.firstChild?.textContent ?? "" })),
    );
    const wrong = cells.filter(({ id, balance, text }) => {
      const d = decimals.get(id)!;
      const exact = balance.padStart(d + 1, "0");
      const [int = "", frac = ""] = text.split(".");
      const exactFrac = exact.slice(exact.length - d);
      return !/^\d{1,3}(,\d{3})*$/.test(int) || int.replaceAll(",", "") !== String(BigInt(exact.slice(0, exact.length - d))) || !exactFrac.startsWith(frac) || !frac.startsWith(exactFrac.slice(0, 4).replace(/0+$/, ""));
    });
    expect(cells.length).toBe(compared.api.tokens.length);
    expect(wrong, "balances shown that are not the row's balance in whole tokens").toEqual([]);
    // Its activity: the API's newest transfers, in its order, one row each.
    await page.waitForSelector("#activity-live:has-text('live')");
    const activity: any = await (await fetch(`${base}/accounts/${addresses[chosen]}/transfers?limit=25`, { headers: auth })).json();
    expect(activity.transfers.length).toBeGreaterThan(0);
    expect(await page.locator("#activity tbody tr[data-transfer]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-transfer")))).toEqual(
      activity.transfers.map((x: any) => `${x.blockNumber}/${x.eventIndex}`),
    );
    // As of a block: the API's portfolio at that block; before the history, its refusal.
    const atBlock: any = await (await fetch(`${base}/accounts/${addresses[chosen]}?at=${head}`, { headers: auth })).json();
    expect(atBlock.asOf.blockNumber).toBe(head);
    await page.fill("#account-asof-block", String(head));
    await page.click("#account-asof-form button");
    await page.waitForSelector("#account-block:has-text('" + head + "')");
    expect(await page.locator("#account-total").innerText()).toBe(`$${printedDecimal(atBlock.totalValueUsd, 2)}`);
    expect(await page.locator("#portfolio tbody tr[data-token-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-token-id")))).toEqual(atBlock.tokens.map((x: any) => String(x.tokenId)));
    await page.fill("#account-asof-block", "0");
    await page.click("#account-asof-form button");
    await page.waitForSelector("#account-asof-error");
    expect(await page.locator("#account-asof-error").innerText()).toMatch(/before the store's balance history/);
    await shot("account");

    // A busy account's activity, paged: the newest transfers and trades are the API's first pages,
    // and "Older" appends the API's next page by its cursor, in order, each row once.
    const busy = (await devKeyring(0, api.registry.chainSS58 ?? 42)).dev.Bob.address; // the trader of the seeded market
    await show(page, base, `#/account/${busy}`);
    await page.waitForSelector("#activity-live:has-text('live')");
    const keysOf = (sel: string, attr: string) => page.locator(sel).evaluateAll((rows, a) => rows.map((r) => r.getAttribute(a as string)), attr);
    const transfersPage: any = await (await fetch(`${base}/accounts/${busy}/transfers?limit=25`, { headers: auth })).json();
    expect(transfersPage.transfers).toHaveLength(25);
    expect(transfersPage.nextCursor).not.toBeNull();
    const transfersNext: any = await (await fetch(`${base}/accounts/${busy}/transfers?limit=25&cursor=${transfersPage.nextCursor}`, { headers: auth })).json();
    const tKey = (x: any) => `${x.blockNumber}/${x.eventIndex}`;
    expect(await keysOf("#activity tbody tr[data-transfer]", "data-transfer")).toEqual(transfersPage.transfers.map(tKey));
    // A fee reads as a fee (the ledger's kind), each row's kind in words.
    const words: Record<string, string> = { fee: "fee", withdraw: "withdrawal", deposit: "deposit", mint: "minted", burn: "burned", dust: "dust lost", slash: "slashed" };
    const kindWords = (x: any) => (x.kind === "transfer" ? { in: "received", out: "sent", self: "to self" }[x.direction as string] : words[x.kind]);
    expect(transfersPage.transfers.some((x: any) => x.kind === "fee")).toBe(true);
    expect(await page.locator("#activity tbody tr[data-transfer] td:nth-child(2)").allInnerTexts()).toEqual(transfersPage.transfers.map(kindWords));
    await page.click("#activity-more");
    const rowsAre = (sel: string, n: number) => page.waitForFunction(([q, want]) => (globalThis as any).document.querySelectorAll(q).length === want, [sel, n] as const);
    await rowsAre("#activity tbody tr[data-transfer]", 25 + transfersNext.transfers.length);
    expect(await keysOf("#activity tbody tr[data-transfer]", "data-transfer")).toEqual([...transfersPage.transfers, ...transfersNext.transfers].map(tKey));
    const tradesPage: any = await (await fetch(`${base}/accounts/${busy}/swaps?limit=25`, { headers: auth })).json();
    expect(tradesPage.trades.length).toBeGreaterThan(0);
    const sKey = (x: any) => `${x.blockNumber}/${x.eventIndex}/${x.hop}`;
    expect(await keysOf("#account-trades tbody tr[data-trade]", "data-trade")).toEqual(tradesPage.trades.map(sKey));
    if (tradesPage.nextCursor !== null) {
      const tradesNext: any = await (await fetch(`${base}/accounts/${busy}/swaps?limit=25&cursor=${tradesPage.nextCursor}`, { headers: auth })).json();
      await page.click("#trades-more");
      await rowsAre("#account-trades tbody tr[data-trade]", 25 + tradesNext.trades.length);
      expect(await keysOf("#account-trades tbody tr[data-trade]", "data-trade")).toEqual([...tradesPage.trades, ...tradesNext.trades].map(sKey));
    } else expect(await page.locator("#trades-more").isHidden()).toBe(true);

    // The KSM/USDt pool page: candles, figures, trades; a swap on chain arrives as a new row.
    await show(page, base, "#/pool/0/1984");
    await page.waitForSelector("#trades tbody tr[data-trade]");
    await page.waitForSelector(chartCanvas("#pool-chart"));
    // LP supply in whole LP units: √(one KSM × one USDt) is 10^((12 + 6) / 2) of its smallest units.
    const lp = await settled(
      () => page.locator("#pool-lp-supply").innerText(),
      async () => {
        const pair = (await (await fetch(`${base}/pool/stats/0/1984`)).json()) as { lpSupply: string; tokenA: { decimals: number }; tokenB: { decimals: number } };
        return printedAmount(pair.lpSupply, Math.floor((pair.tokenA.decimals + pair.tokenB.decimals) / 2));
      },
    );
    expect(lp.shown).toBe(lp.api);
    expect(await hover(page, "#pool-chart")).toMatch(/volume \$.* swaps/);
    await page.mouse.move(0, 0); // the tooltip goes with the pointer (and stays out of the screenshot)
    await page.waitForSelector("#pool-chart .tip", { state: "hidden" });
    const trades = await page.locator("#trades tbody tr[data-trade]").count();
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const swap = api.tx.assetConversion.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION], assetUnits(1984, 20_000), 1, dev.Bob.address, false);
    await createSubmitter(api, dev.Bob).send(swap, "swap USDt→KSM");
    await page.waitForSelector("#trades tbody tr.new", { timeout: 30_000 });
    expect(await page.locator("#trades tbody tr[data-trade]").count()).toBeGreaterThanOrEqual(Math.min(25, trades + 1));
    expect(await page.locator("#trades tbody tr.new td").nth(1).innerText()).toMatch(/^buy/); // KSM came out
    await shot("pool");

    // On a phone (390 px) every page is one column no wider than the screen: its controls and its
    // tables' columns within it (a table scrolled inside its section would hide what it cuts).
    await page.setViewportSize({ width: 390, height: 844 });
    const outsideScreen = () =>
      page.evaluate(() => {
        const doc = (globalThis as any).document;
        const wide = doc.documentElement.scrollWidth > 390 ? [`page ${doc.documentElement.scrollWidth} px`] : [];
        const controls = [...doc.querySelectorAll("header input, header button, header a, main button, main input, main th, .chart canvas")];
        return [...wide, ...controls.filter((e: any) => e.offsetParent !== null && (e.getBoundingClientRect().left < 0 || e.getBoundingClientRect().right > 390)).map((e: any) => `${e.tagName} ${e.id || e.textContent}`)];
      });
    for (const hash of ["#/", "#/token/0", `#/account/${addresses[chosen]}`, "#/pool/0/1984"]) {
      await show(page, base, hash);
      await page.waitForSelector(".chart canvas, #account table");
      expect(await outsideScreen(), hash).toEqual([]);
      if (hash === "#/") await shot("market-phone");
    }
    // Logged out, the login form and Register are on screen too.
    await page.click("#logout");
    await page.waitForSelector("#register");
    expect(await outsideScreen()).toEqual([]);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, LONG);
});

describe.skipIf(skip)(`dashboard pages on a seeded store in chromium${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let handle: DbHandle;
  let server: ApiServer;
  let browser: Browser;
  const extra = 600;
  const TINY = 900_000;

  beforeAll(async () => {
    handle = await memoryStore();
    await seedFixtures(handle.db);
    // 600 tokens with a price ahead of one without: TINY is outside the 500 largest by market cap.
    const tokens: NewToken[] = Array.from({ length: extra }, (_, i) => ({ id: 800_000 + i, name: `Filler ${i}`, symbol: `F${i}`, decimals: 6, supply: "1000000000", owner: null, kind: "asset", assetId: 800_000 + i, blockNumber: HEAD_BLOCK }));
    tokens.push({ id: TINY, name: "Tiny Unpriced", symbol: "TINY", decimals: 6, supply: "5", owner: null, kind: "asset", assetId: TINY, blockNumber: HEAD_BLOCK });
    for (let i = 0; i < tokens.length; i += 200) await upsertTokens(handle.db, tokens.slice(i, i + 200));
    await insertPrices(handle.db, tokens.slice(0, extra).map((t) => ({ tokenId: t.id, blockNumber: HEAD_BLOCK, priceUsd: "2" })));
    server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET, RATE_LIMIT_MAX: "100000" }), createLogger("silent"), { shared: handle });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await handle?.close();
  });

  it("a history list the store does not hold back to the chain's first block says since which block (issue 39)", async () => {
    // As a store bootstrapped at block 999 and followed since: events held from 1,000 on.
    await handle.db.execute(sql`delete from event_ranges`);
    await recordEventRanges(handle.db, [{ fromBlock: 1_000, toBlock: HEAD_BLOCK }]);
    const base = `http://127.0.0.1:${server.port}`;
    const page = await browser.newPage();
    await show(page, base, "#/pool/0/1984");
    await page.waitForSelector("#trades tbody tr[data-trade], #trades tbody td.empty");
    expect(await page.locator("#pool-trades-since").innerText()).toMatch(/^trades since block 1000 \(.+\)$/);
    await page.close();
  }, LONG);

  it("a token outside the 500 largest by market cap opens its own page (not 'not indexed'), under a policy that runs no inline script", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const top = (await (await fetch(`${base}/assets?sort=marketCap&limit=500`)).json()) as { assets: { tokenId: number }[] };
    expect(top.assets.some((a) => a.tokenId === TINY)).toBe(false);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    await show(page, base, `#/token/${TINY}`);
    expect(await page.locator(".title h2").innerText()).toContain("Tiny Unpriced");
    expect(await page.locator("main").innerText()).not.toMatch(/not indexed/);
    // An id that is no token at all still says so.
    await show(page, base, "#/token/999999999");
    expect(await page.locator("p.empty").innerText()).toMatch(/not indexed/);
    expect(errors).toEqual([]);
  }, LONG);

  it("percentages are the API's fractions × 100: an account's shares of supply and of pools, and each pool's fee", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The account page is behind a login: registered through the form, as a user would.
    await show(page, base, `#/account/${ALICE}`);
    await page.fill('#auth input[name="email"]', "percent@example.com");
    await page.fill('#auth input[name="password"]', "correct horse battery");
    await page.click("#register");
    await page.waitForSelector("#portfolio");
    const auth = { authorization: `Bearer ${await page.evaluate("sessionStorage.getItem(\"tokenpool.token\")")}` };
    const portfolio: any = await (await fetch(`${base}/accounts/${ALICE}`, { headers: auth })).json();
    // Each table's "Share …" column, read by its heading, row by row (keyed by the row's token).
    const shares = (table: string, key: string) =>
      page.locator(table).evaluate((t, k) => {
        const col = [...t.querySelectorAll("thead th")].findIndex((th) => th.textContent!.startsWith("Share"));
        return [...t.querySelectorAll(`tbody tr[${k}]`)].map((r) => `${r.getAttribute(k)}: ${(r.children[col] as any).innerText}`);
      }, key);
    const tokens = await shares("#portfolio", "data-token-id");
    const positions = await shares("#positions", "data-lp-token-id");
    expect(portfolio.tokens.length).toBeGreaterThanOrEqual(3);
    expect(portfolio.lpPositions.length).toBeGreaterThanOrEqual(1);
    // Every pool's "Fee" figure: its feeRate from the pair's stats.
    const pools: any = await (await fetch(`${base}/pools?limit=500`)).json();
    expect(pools.pools.length).toBeGreaterThan(0);
    const fees: Record<string, string[]> = {};
    const feeRates: Record<string, string[]> = {};
    for (const p of pools.pools) {
      const pair = `${p.tokenA.tokenId}/${p.tokenB.tokenId}`;
      const stats = (await (await fetch(`${base}/pool/stats/${pair}`)).json()) as { feeRate: string };
      feeRates[pair] = [printedPercent(stats.feeRate)];
      await show(page, base, `#/pool/${pair}`);
      fees[pair] = await page.locator("#pool-facts dt").evaluateAll((dts) => dts.filter((dt) => dt.textContent === "Fee").map((dt) => (dt.nextElementSibling as any).innerText));
    }
    // One comparison, so a wrong figure anywhere shows every one in the diff.
    expect({ tokens, positions, fees }).toEqual({
      tokens: portfolio.tokens.map((t: any) => `${t.tokenId}: ${printedPercent(t.share, 4)}`),
      positions: portfolio.lpPositions.map((l: any) => `${l.lpTokenId}: ${printedPercent(l.share, 4)}`),
      fees: feeRates,
    });
    expect(errors).toEqual([]);
    await page.close();
  }, LONG);

  it("a page left before its answers arrive draws nothing into the next one and follows none of its topics", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // KSM's candles are held back until the reader has moved on to TINY (which has no pool, so no chart).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const asked = new Promise<void>((asked) => {
      void page.route("**/ohlcv*", async (r) => { asked(); await held; await r.continue(); });
    });
    const subscribed: string[] = [];
    page.on("websocket", (ws) => ws.on("framesent", (f) => { const m = JSON.parse(String(f.payload)); if (m.method === "subscribe") subscribed.push(m.params.topic); }));
    await page.goto(`${base}/#/token/0`);
    await asked;
    await show(page, base, `#/token/${TINY}`);
    const delivered = page.waitForResponse((r) => r.url().includes("/ohlcv"));
    release();
    const candles = (await (await delivered).json()) as { candles: unknown[] };
    expect(candles.candles.length).toBeGreaterThan(0); // the late answer had something to draw
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    expect(await page.locator("#token-chart").innerText()).toBe("no data in this range yet");
    expect(await page.locator("#token-chart canvas").count()).toBe(0);
    expect(subscribed).not.toContain("oracle.value:0");
    expect(errors).toEqual([]);
  }, LONG);
});
