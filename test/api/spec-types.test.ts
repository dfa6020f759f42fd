/**
 * The spec's types hold (the API contract's "Resources and their fields", docs/api.md): every
 * field the spec names in a response is required and never null in the document the app serves.
 * With the conformance test (test/api/openapi.test.ts), which checks every answer against that
 * document, no answer can carry a null where a client typed on the spec expects a value.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DbHandle } from "../../db/index.js";
import { buildApp } from "../support/app.js";
import { memoryStore } from "../support/db.js";

/** Component → the spec's fields of it (dotted for nested objects). */
const SPEC_FIELDS: Record<string, string[]> = {
  RegisterResponse: ["success", "message", "data.userId", "data.token"],
  LoginResponse: ["success", "data.token", "data.expiresIn"],
  OracleValue: ["tokenId", "symbol", "valueUsd", "timestamp"],
  AssetMetadata: ["tokenId", "name", "symbol", "totalSupply", "treasuryValue", "decimals"],
  PoolStats: ["totalPools", "totalValueLocked", "volume24h", "fees24h"],
  Error: ["success", "error.code", "error.message"],
};

type Schema = { $ref?: string; type?: string | string[]; nullable?: boolean; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; properties?: Record<string, Schema>; required?: string[]; const?: unknown; enum?: unknown[] };

let handle: DbHandle;
let schemas: Record<string, Schema>;
beforeAll(async () => {
  handle = await memoryStore();
  const doc = (await (await buildApp(handle.db).request("/openapi.json")).json()) as { components: { schemas: Record<string, Schema> } };
  schemas = doc.components.schemas;
});
afterAll(async () => {
  await handle?.close();
});

const resolve = (s: Schema): Schema => (s.$ref ? resolve(schemas[s.$ref.split("/").pop()!]!) : s);

function allowsNull(raw: Schema): boolean {
  const s = resolve(raw);
  if (s.nullable || s.type === "null" || (Array.isArray(s.type) && s.type.includes("null")) || s.const === null || s.enum?.includes(null)) return true;
  if (s.anyOf?.some(allowsNull) || s.oneOf?.some(allowsNull)) return true;
  return s.allOf !== undefined && s.allOf.length > 0 && s.allOf.every(allowsNull);
}

it("every field the spec types as a string, number or boolean is required and never null in the served document", () => {
  const found: string[] = [];
  for (const [component, fields] of Object.entries(SPEC_FIELDS)) {
    for (const field of fields) {
      let s = resolve(schemas[component]!);
      const path = field.split(".");
      for (const [i, name] of path.entries()) {
        const parent = s;
        const child = parent.properties?.[name];
        if (!child || !parent.required?.includes(name)) {
          found.push(`${component}.${field}: not required`);
          break;
        }
        if (allowsNull(child)) found.push(`${component}.${field}: may be null`);
        s = resolve(child);
        if (i === path.length - 1) continue;
      }
    }
  }
  expect(found).toEqual([]);
});

it("the check sees a nullable field (it can fail)", () => {
  expect(allowsNull({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe(true);
  expect(allowsNull({ type: ["string", "null"] })).toBe(true);
  expect(allowsNull({ type: "string" })).toBe(false);
  // AssetMetadata carries valueUsd, ours, which may be null: the check is not blind to it.
  expect(allowsNull(resolve(schemas.AssetMetadata!).properties!.valueUsd!)).toBe(true);
});
