/**
 * `npm run client:types`: writes client/src/schema.ts, the types of the API document the app
 * serves (openapi-typescript), from the app itself — not from a copy that could be stale.
 * client/test/types.test.ts fails when the file differs from what this would write now.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateSchema, SCHEMA_FILE } from "./client-schema.js";

writeFileSync(SCHEMA_FILE, await generateSchema());
console.log(`client: wrote ${fileURLToPath(SCHEMA_FILE)}`);
