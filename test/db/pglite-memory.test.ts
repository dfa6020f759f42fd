/**
 * The embedded store's memory: a small buffer pool (PGLITE_SHARED_BUFFERS_MB), and a new data
 * directory created by a child process (db/client.ts initdbApart) so this process never holds
 * initdb's WASM instance.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/index.js";

const run = promisify(execFile);

async function sharedBuffers(handle: Awaited<ReturnType<typeof createDb>>): Promise<string> {
  const result = (await handle.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
  return result.rows[0]!.shared_buffers;
}

describe("the embedded store's memory", () => {
  it("creates a new data directory in a child process, then opens and migrates it here", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-initdb-"));
    try {
      // Measured in a process of its own (the build's module, as `tokenpool` runs it): this
      // worker's memory holds what earlier files left, and its collection could hide a rise.
      const script = `const { createDb } = await import(${JSON.stringify(pathToFileURL(path.resolve("dist/db/index.js")).href)});
        const before = process.memoryUsage().external;
        const handle = await createDb({ dataDir: process.argv[1] });
        await handle.migrate();
        const { rows } = await handle.db.$client.query("show shared_buffers");
        console.log(JSON.stringify({ grew: process.memoryUsage().external - before, sharedBuffers: rows[0].shared_buffers }));
        await handle.close();`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script, dir]);
      const measured = JSON.parse(stdout) as { grew: number; sharedBuffers: string };
      expect((await stat(path.join(dir, "pglite", "PG_VERSION"))).isFile()).toBe(true);
      expect(measured.sharedBuffers).toBe("16MB");
      // Opening an existing directory costs the process ≈ 200 MB of WASM memory; creating one
      // in it cost ≈ 630 MB (initdb's instance stayed alive).
      expect(measured.grew).toBeLessThan(350 * 1024 * 1024);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000); // 12–22 s in the full suite on 2 cores: too near the 30 s default
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
