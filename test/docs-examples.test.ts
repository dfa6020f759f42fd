/**
 * docs/api.md's examples of what issue 24 changed, against the answers of the test fixture they
 * are taken from: the native holder row with its balance parts, the keys of /health's indexer
 * object (indexer.reread included), and the /ws session's oracle.value results, which carry
 * exactly the REST answer's keys. An example that drifts from the code fails here.
 */
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";

import { authHeader, buildApp } from "./support/app.js";
import { KSM, seedMarket } from "./support/fixtures.js";
import { memoryStore } from "./support/db.js";

const doc = await readFile(new URL("../docs/api.md", import.meta.url), "utf8");

/** The example's lines from `start` on, `# ` prefixes dropped, joined until a line ends with `end`. */
function exampleText(start: string, end: string): string {
  const lines = doc.split("\n");
  const first = lines.findIndex((l) => l.includes(start));
  expect(first, start).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const line of lines.slice(first)) {
    out.push(line.replace(/^#\s*(→\s*)?/, "").trim());
    if (line.trimEnd().endsWith(end)) break;
  }
  return out.join("");
}

it("the native holder example, /health's indexer keys and the /ws oracle.value results are the fixture's", async () => {
  const handle = await memoryStore();
  await seedMarket(handle.db);
  const t = buildApp(handle.db);
  const auth = await authHeader(t);

  // The first native holder: every field but the shortened address, as the fixture answers it.
  const row = JSON.parse(/\{"rank":1,"address":"EaG2…".*?"status":null\}/.exec(exampleText('{"rank":1,"address":"EaG2…"', '"status":null},…]}'))![0]);
  const holders = (await (await t.get(`/assets/holders/${KSM}`, auth)).json()) as { holders: Record<string, unknown>[] };
  expect(holders.holders.length).toBeGreaterThan(0);
  expect({ ...row, address: holders.holders[0]!.address }).toEqual(holders.holders[0]);

  // /health: the example names each key of the fixture's indexer object, in order.
  const health = (await (await t.get("/health")).json()) as { indexer: Record<string, unknown> };
  const example = exampleText('"indexer":{"block":2000,"lag":3', '"db":"ok"}   ← progress of the long tasks: see "Operating on a real chain"');
  const documented = [...example.slice(example.indexOf('"indexer":{')).matchAll(/"(\w+)":/g)].map((m) => m[1]).filter((k) => k !== "indexer" && k !== "db");
  expect(documented).toEqual(Object.keys(health.indexer));

  // /ws: each oracle.value result has the keys of GET /oracle/value/{id}.
  const rest = Object.keys((await (await t.get(`/oracle/value/${KSM}`)).json()) as object);
  const pushes = doc.split("\n").filter((l) => l.startsWith("< ") && l.includes('"topic":"oracle.value:')).map((l) => JSON.parse(l.slice(2)));
  expect(pushes).toHaveLength(3);
  for (const p of pushes) expect(Object.keys((p.result ?? p.params).result)).toEqual(rest);
  await handle.close();
});
