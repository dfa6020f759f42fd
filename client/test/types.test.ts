/**
 * The client's generated types (client/src/schema.ts) and methods (client/src/operations.ts) are
 * exactly what the generators make of the document the app serves now: a route, field or error
 * code changed in the app without `npm run client:types` fails here (and so in CI).
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { generateOperations, methodName } from "../../scripts/client-operations.js";
import { appDocument, DOCUMENT_FILE, documentText, generateSchema, OPERATIONS_FILE, SCHEMA_FILE } from "../../scripts/client-schema.js";

it("docs/openapi.json is the app's /openapi.json, and client/src/schema.ts is made from it (else: npm run client:types)", async () => {
  const served = await appDocument();
  const file = readFileSync(DOCUMENT_FILE, "utf8");
  expect(file === documentText(served), "docs/openapi.json differs from the document the app serves: run `npm run client:types` and commit it").toBe(true);
  const doc = JSON.parse(file) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
  const generated = await generateSchema(doc);
  const committed = readFileSync(SCHEMA_FILE, "utf8");
  expect(committed === generated, "client/src/schema.ts differs from the app's document: run `npm run client:types` and commit it").toBe(true);

  // The check can fail: one field less in one answer is another file.
  const drifted = structuredClone(doc);
  delete drifted.components.schemas["OracleValue"]!.properties!["valueUsd"];
  expect(await generateSchema(drifted)).not.toBe(committed);

  // Every operation is a method, in the file as generated now.
  const operations = generateOperations(doc);
  expect(readFileSync(OPERATIONS_FILE, "utf8") === operations, "client/src/operations.ts differs from the app's document: run `npm run client:types` and commit it").toBe(true);
  const ids = Object.values((doc as unknown as { paths: Record<string, Record<string, { operationId: string }>> }).paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  for (const id of ids) expect(operations, id).toContain(`(operationId \`${id}\`)`);
}, 60_000);

it("names a method after its operationId, without its group's noun", () => {
  expect(methodName("getAssetMetadata", "assets")).toBe("getMetadata");
  expect(methodName("listAssets", "assets")).toBe("list");
  expect(methodName("listPoolSwaps", "pool")).toBe("listSwaps");
  expect(methodName("getPairStats", "pool")).toBe("getPairStats");
  expect(methodName("getDexScreenerPair", "dexscreener")).toBe("getPair");
  expect(methodName("getSnapshotHoldersCsv", "snapshots")).toBe("getHoldersCsv");
  expect(methodName("getOracleValues", "oracle")).toBe("getValues");
  expect(methodName("login", "auth")).toBe("login");
  // Only a whole word: "Assets" in "getAssetsetting" is not the noun.
  expect(methodName("getAssetsetting", "assets")).toBe("getAssetsetting");
});
