/**
 * The client's generated types (client/src/schema.ts) are exactly what openapi-typescript makes
 * of the document the app serves now: a route, field or error code changed in the app without
 * `npm run client:types` fails here (and so in CI).
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { appDocument, generateSchema, SCHEMA_FILE } from "../../scripts/client-schema.js";

it("client/src/schema.ts matches the app's /openapi.json (else: npm run client:types)", async () => {
  const doc = (await appDocument()) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
  const generated = await generateSchema(doc);
  const committed = readFileSync(SCHEMA_FILE, "utf8");
  expect(committed === generated, "client/src/schema.ts differs from the app's document: run `npm run client:types` and commit it").toBe(true);

  // The check can fail: one field less in one answer is another file.
  const drifted = structuredClone(doc);
  delete drifted.components.schemas["OracleValue"]!.properties!["valueUsd"];
  expect(await generateSchema(drifted)).not.toBe(committed);
}, 60_000);
