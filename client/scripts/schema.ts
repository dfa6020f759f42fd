/** The client's generated types: the app's /openapi.json through openapi-typescript. */
import openapiTS, { astToString } from "openapi-typescript";
import { createApp } from "../../api/app.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { createDb } from "../../db/index.js";
import { createLogger } from "../../shared/logger.js";

export const SCHEMA_FILE = new URL("../src/schema.ts", import.meta.url);

const HEADER = `/**
 * Generated from the TokenPool API document (/openapi.json) by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:types\`; the test suite fails while this file differs from the
 * document the app serves.
 */

`;

/** The document as the app serves it (the app needs a store to exist; the document reads none). */
export async function appDocument(): Promise<unknown> {
  const handle = await createDb({ dataDir: "memory://" });
  try {
    const app = createApp({
      db: handle.db,
      ping: async () => {},
      jwtSecret: "client-types-secret-of-thirty-two-characters",
      rateLimit: { store: new MemoryRateLimitStore(), max: 100, windowMs: 60_000 },
      trustProxy: 0,
      logger: createLogger("silent"),
    });
    return await (await app.request("/openapi.json")).json();
  } finally {
    await handle.close();
  }
}

export async function generateSchema(doc?: unknown): Promise<string> {
  const ast = await openapiTS((doc ?? (await appDocument())) as never, { alphabetize: true });
  return HEADER + astToString(ast);
}
