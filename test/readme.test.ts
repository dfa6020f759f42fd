/** The README documents what the code does: its error table and its variables are the code's. */
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { ERROR_CODES } from "../shared/errors.js";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");

it("lists every error code with its HTTP status, and no other", () => {
  const rows = [...readme.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
  expect(rows).toEqual(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]));
});

it("lists every configuration variable", async () => {
  const source = await readFile(new URL("../shared/config.ts", import.meta.url), "utf8");
  const read = new Set([...source.matchAll(/\(env, "([A-Z_]+)"/g)].map((m) => m[1] as string));
  expect(read.size).toBeGreaterThanOrEqual(12);
  for (const name of read) {
    // Service variables of the test suites are described in prose; the rest are table rows.
    expect(readme, name).toContain(name.startsWith("TEST_") ? `\`${name}\`` : `| \`${name}\` |`);
  }
  
});
