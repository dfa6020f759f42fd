/**
 * `npm run client:types`: writes client/src/schema.ts, the types of the API document the app
 * serves (openapi-typescript), and client/src/operations.ts, a method per operation — from the
 * app itself, not from a copy that could be stale. client/test/types.test.ts fails when either
 * differs from what this would write now.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateOperations } from "./client-operations.js";
import { appDocument, generateSchema, OPERATIONS_FILE, SCHEMA_FILE } from "./client-schema.js";

const doc = await appDocument();
writeFileSync(SCHEMA_FILE, await generateSchema(doc));
writeFileSync(OPERATIONS_FILE, generateOperations(doc));
console.log(`client: wrote ${fileURLToPath(SCHEMA_FILE)} and ${fileURLToPath(OPERATIONS_FILE)}`);
