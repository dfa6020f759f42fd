/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against the devnet:
 * it lists the devnet's tokens and pools, updates a value after a swap on chain through the
 * WebSocket, loads nothing from outside the server, and leaves a screenshot in test-output/.
 */
import { existsSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { createDb, type DbHandle } from "../../db/index.js";
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

const genesis = loadConfig().devnetGenesis;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = !existsSync(CHROMIUM) ? `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` : undefined;
export const SCREENSHOT = "test-output/dashboard.png";
const LONG = 180_000;

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
    handle = await createDb({ dataDir: "memory://" });
    await handle.migrate();
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: "d".repeat(32), ORACLE_MIN_LIQUIDITY_USD: "1" });
    const market = await seedMarket(api, { holders: 5 });
    follower = startIndexer(config, createLogger("silent"), handle, devnet.wsUrl);
    await until("the follower to reach the seeded market", () => (follower.status.block ?? 0) >= market.block);
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

  it("shows the devnet's tokens and pools, moves a value after a swap, and loads nothing from outside", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    const outside: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(`ws://127.0.0.1:${server.port}`)) outside.push(r.url());
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/`);

    await page.waitForSelector("#status.live", { timeout: 30_000 });
    const tokenRows = await page.locator("#tokens tbody tr").allInnerTexts();
    for (const symbol of ["KSM", "USDt", "USDC", "WETH", "TEN"]) expect(tokenRows.some((r) => r.startsWith(symbol)), symbol).toBe(true);
    // Foreign assets are tokens like the others, marked as such; asset 0 says its chain id.
    for (const symbol of ["pUSDC", "KAR"]) expect(tokenRows.some((r) => r.startsWith(`${symbol}foreign`)), symbol).toBe(true);
    expect(tokenRows.some((r) => r.startsWith("DOGasset 0"))).toBe(true);
    const poolRows = await page.locator("#pools tbody tr").allInnerTexts();
    expect(poolRows.map((r) => r.split("\t")[0]).sort()).toEqual(["KSM/TEN", "KSM/USDC", "KSM/USDt", "KSM/WETH", "KSM/WHL", "KSM/pUSDC", "KSM/KAR"].sort());
    const ksmValue = page.locator('#tokens tr[data-token-id="0"] td:nth-child(2)');
    const before = await ksmValue.innerText();
    expect(before).toMatch(/^\d[\d,]*(\.\d+)?$/);
    await page.waitForSelector("#chart polyline", { state: "attached", timeout: 10_000 });
    expect((await page.locator("#chart polyline").getAttribute("points"))!.split(" ").length).toBeGreaterThan(1);

    // Someone sells a lot of USDt for KSM: KSM's USD value goes up.
    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const swap = api.tx.assetConversion.swapExactTokensForTokens([assetLocation(1984), NATIVE_LOCATION], assetUnits(1984, 20_000), 1, dev.Bob.address, false);
    await createSubmitter(api, dev.Bob).send(swap, "swap USDt→KSM");
    await until("the KSM value on the page to change", async () => (await ksmValue.innerText()) !== before, 30_000);
    expect(Number((await ksmValue.innerText()).replaceAll(",", ""))).toBeGreaterThan(Number(before.replaceAll(",", "")));
    expect(await ksmValue.getAttribute("class")).toBe("flash-up");

    await mkdir("test-output", { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect((await stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, LONG);
});
