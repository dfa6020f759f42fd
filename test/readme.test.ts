/**
 * The README is a front page and the reference lives in docs/: each document is linked from the
 * README, every link between them lands on a file and a heading that exist, and the reference
 * says what the code does — its error table, its variables and its routes are the code's.
 */
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { ERROR_CODES } from "../shared/errors.js";
import { createApp } from "../api/app.js";
import { createDb } from "../db/index.js";
import { createLogger } from "../shared/logger.js";
import { MemoryRateLimitStore } from "../api/rate-limit/memory-store.js";

const root = new URL("../", import.meta.url);
const read = (file: string) => readFile(new URL(file, root), "utf8");
const DOCS = ["api.md", "operators.md", "chains.md", "performance.md", "security.md", "architecture.md"];
const readme = await read("README.md");
const docs = Object.fromEntries(await Promise.all(DOCS.map(async (d) => [d, await read(`docs/${d}`)] as const)));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, "").replaceAll(" ", "-");
const anchors = (text: string) => new Set([...text.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

it("is a front page of at most 300 lines that links every document of docs/", async () => {
  expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  for (const d of DOCS) expect(readme, d).toContain(`](docs/${d})`);
  expect((await readdir(new URL("docs/", root))).filter((f) => f.endsWith(".md")).sort()).toEqual([...DOCS].sort());
});

it("every relative link and image lands on a file, and every anchor on a heading of it", async () => {
  const files: Record<string, string> = { "README.md": readme, ...Object.fromEntries(DOCS.map((d) => [`docs/${d}`, docs[d]!])) };
  for (const [file, text] of Object.entries(files)) {
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^(https?:|mailto:)/.test(target)) continue;
      const [p, anchor] = target.split("#");
      const resolved = p ? path.posix.normalize(path.posix.join(path.posix.dirname(file), p)) : file;
      const content = files[resolved] ?? (await read(resolved).catch(() => undefined));
      expect(content, `${file} → ${target}`).toBeDefined();
      if (anchor) expect(anchors(content!).has(anchor), `${file} → ${target}`).toBe(true);
    }
  }
});

it("docs/api.md lists every error code with its HTTP status, and no other", () => {
  const rows = [...docs["api.md"]!.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
  expect(rows).toEqual(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]));
});

it("docs/operators.md lists every configuration variable", async () => {
  const source = await read("shared/config.ts");
  const names = new Set([...source.matchAll(/\(env, "([A-Z_]+)"/g)].map((m) => m[1] as string));
  expect(names.size).toBeGreaterThanOrEqual(12);
  for (const name of names) {
    // Service variables of the test suites are described in prose; the rest are table rows.
    expect(docs["operators.md"], name).toContain(name.startsWith("TEST_") ? `\`${name}\`` : `| \`${name}\` |`);
  }
});

it("docs/api.md shows every route of the OpenAPI document, and the README one example per family", async () => {
  const handle = await createDb({ dataDir: "memory://" });
  try {
    const app = createApp({ db: handle.db, ping: async () => {}, jwtSecret: "x".repeat(40), rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 }, trustProxy: 0, logger: createLogger("silent") });
    const doc: any = await (await app.request("/openapi.json")).json();
    for (const route of Object.keys(doc.paths)) {
      // "/pools/{tokenA}/{tokenB}/ohlcv" is shown as "$B/pools/KSM/USDt/ohlcv": compare the fixed segments.
      const pattern = new RegExp("\\$B" + route.replace(/\{[^}]+\}/g, "[^/ ?\"]+").replaceAll("/", "\\/") + "[ ?\"\\n]");
      expect(docs["api.md"], route).toMatch(pattern);
    }
    for (const family of ["/auth/", "/oracle/", "/assets/", "/pool/", "/pools/", "/accounts/", "/health"]) expect(readme, family).toContain(`$B${family}`);
  } finally {
    await handle.close();
  }
});

it("the README and docs/ refer to nothing outside the repository", () => {
  for (const [file, text] of [["README.md", readme], ...Object.entries(docs)]) expect(text, file).not.toMatch(/\.\.\/shared\b/);
});

it("the README's test command is the one .ci/run runs, and its start-up lines are the ones the code prints", async () => {
  const commands = /## Two commands\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!.split("\n").filter(Boolean).map((l) => l.replace(/#.*$/, "").trim());
  expect(commands).toEqual(["npm ci && npm start", "npm test"]);
  const ciCommands = (await read(".ci/run")).split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
  expect(ciCommands.at(-1)!.trim()).toBe("npm test");
  const printed = /```text\n([\s\S]*?)```/.exec(readme)![1]!;
  const sources = (await read("scripts/build.mjs")) + (await read("cli/start.ts"));
  for (const phrase of ["built in ", "opening the store ", "devnet at ", "indexing ", "serving at ", "market seeded at block "]) {
    expect(printed, phrase).toContain(phrase);
    expect(sources, phrase).toContain(phrase);
  }
});
