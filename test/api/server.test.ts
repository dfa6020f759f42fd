import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../api/server.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { resolveJwtSecret } from "../../shared/secret.js";

const run = promisify(execFile);

describe("the API server on a fresh DATA_DIR", () => {
  let dir: string;
  let server: ApiServer;
  let base: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "tokenpool-server-"));
    server = await startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dir, LOG_LEVEL: "silent" }), createLogger("silent"));
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves the empty store over real HTTP: 404 TOKEN_NOT_FOUND and zero pool stats", async () => {
    const oracle = await fetch(`${base}/oracle/value/1984`);
    expect(oracle.status).toBe(404);
    expect(await oracle.json()).toMatchObject({ success: false, error: { code: "TOKEN_NOT_FOUND" } });
    expect(oracle.headers.get("ratelimit-remaining")).toBe("99"); // counted by the socket's IP
    const stats = await fetch(`${base}/pool/stats`);
    expect(await stats.json()).toMatchObject({ totalPools: 0, totalValueLocked: "0", volume24h: "0", fees24h: "0" });
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  it("generates a JWT secret once, keeps it in DATA_DIR (0600), and reuses it", async () => {
    const file = path.join(dir, "jwt-secret");
    const kept = (await readFile(file, "utf8")).trim();
    expect(kept.length).toBeGreaterThanOrEqual(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await resolveJwtSecret(undefined, dir)).toBe(kept);
    expect(await resolveJwtSecret("configured-secret-configured-secret", dir)).toBe("configured-secret-configured-secret");
  });
});

describe("entry point", () => {
  it("a bad variable is one line naming it, and exit code 1", async () => {
    const tsx = path.resolve("node_modules/.bin/tsx");
    const err = await run(tsx, ["main.ts"], { env: { ...process.env, PORT: "http" } }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr.trim().split("\n")).toHaveLength(1);
    expect(err.stderr).toContain("PORT must be an integer");
  });
});
