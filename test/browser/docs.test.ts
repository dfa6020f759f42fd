/**
 * /docs in a real browser (Debian's chromium through playwright-core): the API reference renders
 * every operation of /openapi.json from files this server serves, and not one request leaves it
 * (every other host is blocked, and any attempt is recorded).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { type DbHandle } from "../../db/index.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { memoryStore } from "../support/db.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = !existsSync(CHROMIUM) ? `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` : undefined;

describe.skipIf(skip)(`/docs in chromium${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let handle: DbHandle;
  let server: ApiServer;
  let browser: Browser;

  beforeAll(async () => {
    handle = await memoryStore();
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: randomBytes(32).toString("base64url") });
    server = await startApiServer(config, createLogger("silent"), { shared: handle });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await handle?.close();
  });

  it("renders every operation offline: nothing is requested from another host", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const page = await browser.newPage();
    const outside: string[] = [];
    const errors: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(base)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    page.on("pageerror", (e) => errors.push(e.message));
    // A resource the page's Content-Security-Policy blocks is reported on the console.
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${base}/docs`);
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(spec.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    await page.locator(".opblock").nth(operations - 1).waitFor({ timeout: 30_000 });
    expect(await page.locator(".opblock").count()).toBe(operations);
    expect(await page.locator(".opblock-summary-path").allInnerTexts()).toContain("/pool/stats/{tokenA}/{tokenB}");
    expect(await page.locator(".info .title").innerText()).toContain("TokenPool API");
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
