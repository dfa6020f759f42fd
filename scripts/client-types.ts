/**
 * `npm run client:types`: writes docs/openapi.json, the API document the app serves, then reads
 * it back to write client/src/schema.ts, its types (openapi-typescript), and
 * client/src/operations.ts, a method per operation. client/test/types.test.ts fails when any of
 * the three differs from what this would write now.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateOperations } from "./client-operations.js";
import { appDocument, DOCUMENT_FILE, documentText, generateSchema, OPERATIONS_FILE, SCHEMA_FILE } from "./client-schema.js";

writeFileSync(DOCUMENT_FILE, documentText(await appDocument()));
const doc = JSON.parse(readFileSync(DOCUMENT_FILE, "utf8")) as unknown;
writeFileSync(SCHEMA_FILE, await generateSchema(doc));
writeFileSync(OPERATIONS_FILE, generateOperations(doc));
console.log(`client: wrote ${[DOCUMENT_FILE, SCHEMA_FILE, OPERATIONS_FILE].map((f) => fileURLToPath(f)).join(", ")}`);
