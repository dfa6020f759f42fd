/**
 * The client's generated types (client/src/schema.ts): the app's /openapi.json through
 * openapi-typescript. Beside the build, not in client/: it needs the app, and the app (its
 * dashboard) imports the client.
 */
import openapiTS, { astToString } from "openapi-typescript";
import { createApp } from "../api/app.js";
import { MemoryRateLimitStore } from "../api/rate-limit/memory-store.js";
import { createDb } from "../db/index.js";
import { createLogger } from "../shared/logger.js";

export const SCHEMA_FILE = new URL("../client/src/schema.ts", import.meta.url);
/**
 * The API document as the app serves it (/openapi.json), written by `npm run client:types` and
 * read back by the generators: the client is made from a file, and integrators get the same file
 * without running the API.
 */
export const DOCUMENT_FILE = new URL("../docs/openapi.json", import.meta.url);
export const documentText = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;
/** The client's methods, one per operation (scripts/client-operations.ts). */
export const OPERATIONS_FILE = new URL("../client/src/operations.ts", import.meta.url);

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

type Doc = { security?: unknown[]; paths: Record<string, Record<string, { security?: unknown[] }>> };

export async function generateSchema(doc?: unknown): Promise<string> {
  const document = (doc ?? (await appDocument())) as Doc;
  const ast = await openapiTS(document as never, { alphabetize: true });
  // The operations that take no bearer token (`security: []`): the client sends none there, so a
  // token that expired does not turn a public answer into a 401.
  const methods = ["get", "post", "put", "patch", "delete"];
  const open = Object.entries(document.paths)
    .flatMap(([route, ops]) => Object.entries(ops).filter(([m, op]) => methods.includes(m) && Array.isArray(op.security) && op.security.length === 0).map(([m]) => `${m.toUpperCase()} ${route}`))
    .sort();
  return `${HEADER}${astToString(ast)}
/** Operations that take no bearer token (their \`security\` is empty), as "METHOD /path/{param}". */
export const PUBLIC_OPERATIONS: readonly string[] = ${JSON.stringify(open, null, 4)};
`;
}
