/**
 * Which reads run in one snapshot (api/app.ts, readsInSnapshot): every GET of indexed data, except
 * the holder list asked as CSV, which holds its own transaction for its download. A JSON route
 * asked with `Accept: text/csv` answers JSON, so it must not skip the snapshot (review: it did,
 * and with it the answer's one-block guarantee and its deadline's signal).
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createApp, readsInSnapshot } from "../../api/app.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { schema, type Database } from "../../db/index.js";
import { createLogger } from "../../shared/logger.js";
import { dbTargets } from "../support/db.js";

it("every GET of indexed data reads in a snapshot, but the holder list asked as CSV", () => {
  const csv = "text/csv";
  expect(readsInSnapshot("GET", "/assets/holders/1984", csv)).toBe(false);
  expect(readsInSnapshot("GET", "/assets/holders/1984", undefined)).toBe(true);
  expect(readsInSnapshot("GET", "/assets/holders/1984", "application/json, text/csv")).toBe(true);
  for (const path of ["/pool/stats/0/1984", "/assets/metadata/1984", "/accounts/x", "/assets/holders/1984/x", "/oracle/value/0", "/pools", "/assets/1984/transfers"]) expect(readsInSnapshot("GET", path, csv), path).toBe(true);
  expect(readsInSnapshot("POST", "/pool/stats/0/1984", undefined)).toBe(false);
  expect(readsInSnapshot("GET", "/health", undefined)).toBe(false);
});

const pg = dbTargets.find((t) => t.name === "postgres")!;

describe.skipIf(pg.skip)(`snapshots on the wire${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  it("a JSON route asked with Accept: text/csv reads in a snapshot, begun in one statement", async () => {
    const store = await pg.open();
    const sent: string[] = [];
    const client = postgres(store.url!, { max: 2, onnotice: () => {}, debug: (_c, query) => void sent.push(query.trim()) });
    try {
      const readDb = drizzle({ client, schema, casing: "snake_case" }) as unknown as Database;
      const app = createApp({ db: store.db, readDb, ping: async () => {}, jwtSecret: "s".repeat(32), rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 }, trustProxy: 0, logger: createLogger("silent") });
      const begun = () => sent.filter((q) => q === "begin isolation level repeatable read read only").length;
      const res = await app.request("/pool/stats/0/1984?at=5", { headers: { accept: "text/csv" } });
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.status).toBeLessThan(500);
      expect(begun()).toBe(1);
      const plain = await app.request("/pool/stats/0/1984");
      expect(plain.status).toBeLessThan(500);
      expect(begun()).toBe(2);
    } finally {
      await client.end();
      await store.drop();
    }
  });
});
