/**
 * The embedded store's memory: a small buffer pool (PGLITE_SHARED_BUFFERS_MB), and a new data
 * directory created by a child process (db/client.ts initdbApart) so this process never holds
 * initdb's WASM instance.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/index.js";

async function sharedBuffers(handle: Awaited<ReturnType<typeof createDb>>): Promise<string> {
  const result = (await handle.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
  return result.rows[0]!.shared_buffers;
}

describe("the embedded store's memory", () => {
  it("creates a new data directory in a child process, then opens and migrates it here", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-initdb-"));
    try {
      const before = process.memoryUsage().external;
      const handle = await createDb({ dataDir: dir });
      await handle.migrate();
      expect((await stat(path.join(dir, "pglite", "PG_VERSION"))).isFile()).toBe(true);
      expect(await sharedBuffers(handle)).toBe("16MB");
      // Opening an existing directory costs this process ≈ 200 MB of WASM memory; creating one
      // here cost ≈ 630 MB (initdb's instance stayed alive). (First in the file: nothing else
      // has allocated WASM memory in this worker yet.)
      expect(process.memoryUsage().external - before).toBeLessThan(350 * 1024 * 1024);
      await handle.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it("runs PGlite with a 16 MB buffer pool by default, and the configured one otherwise", async () => {
    const small = await createDb({ dataDir: "memory://" });
    try {
      expect(await sharedBuffers(small)).toBe("16MB");
    } finally {
      await small.close();
    }
    const larger = await createDb({ dataDir: "memory://", pgliteSharedBuffersMb: 48 });
    try {
      expect(await sharedBuffers(larger)).toBe("48MB");
    } finally {
      await larger.close();
    }
  });

});
