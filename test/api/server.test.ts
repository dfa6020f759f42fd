import { randomBytes } from "node:crypto";
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTEN_BACKLOG, startApiServer, type ApiServer } from "../../api/server.js";
import { keptTickShape } from "../../api/tick-shape.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { resolveJwtSecret } from "../../shared/secret.js";
import { schema } from "../../db/index.js";
import postgres from "postgres";
import { dbTargets, services, type DbTarget } from "../support/db.js";
import { seedMarket as seedFixtures, USDT } from "../support/fixtures.js";

/** The API's JWT secret in this file (random: a hand-made one would not pass the rule, shared/secret-strength.ts). */
const JWT_SECRET = randomBytes(32).toString("base64url");

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

  it("listens with an accept queue of 4,096 (Node's default 511 overflowed under a flood through nginx: its connects timed out)", async () => {
    // `ss` shows a listening socket's backlog as its Send-Q; the kernel caps it at somaxconn.
    const somaxconn = Number(await readFile("/proc/sys/net/core/somaxconn", "utf8"));
    const { stdout } = await run("ss", ["-ltnH", `sport = :${server.port}`]);
    expect(Number(stdout.trim().split(/\s+/)[2])).toBe(Math.min(LISTEN_BACKLOG, somaxconn));
    expect(Math.min(LISTEN_BACKLOG, somaxconn)).toBeGreaterThan(511);
  });

  it("keeps a process.nextTick entry alive, so an idle spell cannot slow later answers (api/tick-shape.ts)", () => {
    expect(Object.keys(keptTickShape() ?? {})).toEqual(["callback", "args"]);
  });

  it("generates a JWT secret once, keeps it in DATA_DIR (0600), and reuses it", async () => {
    const file = path.join(dir, "jwt-secret");
    const kept = (await readFile(file, "utf8")).trim();
    expect(kept.length).toBeGreaterThanOrEqual(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await resolveJwtSecret(undefined, dir)).toBe(kept);
    expect(await resolveJwtSecret(JWT_SECRET, dir)).toBe(JWT_SECRET);
  });

  it("refuses a JWT secret file that is empty, short or open to other users, naming the file; concurrent first starts agree", async () => {
    const scratch = await mkdtemp(path.join(tmpdir(), "tokenpool-secret-"));
    try {
      const file = path.join(scratch, "jwt-secret");
      for (const content of ["", "\n", "abc\n", "x".repeat(31)]) {
        await writeFile(file, content, { mode: 0o600 });
        await expect(resolveJwtSecret(undefined, scratch)).rejects.toThrow(new RegExp(`${file} is guessable: \\d+ characters, and a secret needs at least 39`));
      }
      await writeFile(file, JWT_SECRET);
      await chmod(file, 0o644);
      await expect(resolveJwtSecret(undefined, scratch)).rejects.toThrow(/readable or writable by other users.*chmod 600/);
      await rm(file);
      // Ten first starts at once: one secret, the same for all, and no temporary file left.
      const secrets = await Promise.all(Array.from({ length: 10 }, () => resolveJwtSecret(undefined, scratch)));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
      expect(await readdir(scratch)).toEqual(["jwt-secret"]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe("entry point", () => {
  it("a bad variable is one line naming it, and exit code 1", async () => {
    // What `npm start` runs (package.json), after its build (the suite's global setup made it).
    const err = await run(process.execPath, ["dist/main.js"], { env: { ...process.env, PORT: "http" } }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr.trim().split("\n")).toHaveLength(1);
    expect(err.stderr).toContain("PORT must be an integer");
  });

  it("takes no arguments: `node main.ts status` names the CLI command instead of starting the service", async () => {
    const err = await run(process.execPath, ["dist/main.js", "status"], { env: { ...process.env, PORT: "1" } }).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr.trim()).toBe('main.ts (npm start) takes no arguments, got "status"; commands are run with `npx tokenpool status` (see `npx tokenpool --help`)');
  });
});

const postgresTarget = dbTargets.find((t) => t.name === "postgres")!;

describe.skipIf(postgresTarget.skip)(`a read replica (DATABASE_READ_URL)${postgresTarget.skip ? ` (skipped: ${postgresTarget.skip})` : ""}`, () => {
  let primary: Awaited<ReturnType<DbTarget["open"]>>;
  let replica: Awaited<ReturnType<DbTarget["open"]>>;
  let server: ApiServer;
  let base: string;
  beforeAll(async () => {
    // Two separate databases stand in for a primary and its replica, so the test can tell
    // which one answered: only the "replica" holds market rows.
    [primary, replica] = await Promise.all([postgresTarget.open(), postgresTarget.open()]);
    await seedFixtures(replica.db);
    const env = { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATABASE_URL: primary.url!, DATABASE_READ_URL: replica.url!, JWT_SECRET };
    server = await startApiServer(loadConfig(env), createLogger("silent"));
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
    await primary?.drop();
    await replica?.drop();
  });

  it("serves market reads from the replica and keeps accounts on the primary", async () => {
    const creds = { email: "replica@example.com", password: "correct horse battery" };
    const json = { "content-type": "application/json" };
    expect((await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify(creds) })).status).toBe(200);
    const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify(creds) });
    expect(login.status).toBe(200);
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    expect(await primary.db.select().from(schema.users)).toHaveLength(1);
    expect(await replica.db.select().from(schema.users)).toHaveLength(0);

    const oracle = await fetch(`${base}/oracle/value/${USDT}`);
    expect(oracle.status).toBe(200);
    expect(await oracle.json()).toMatchObject({ tokenId: USDT, symbol: "USDt" });
    const holders = await fetch(`${base}/assets/holders/${USDT}`, { headers: { authorization: `Bearer ${token}` } });
    expect(holders.status).toBe(200);
    expect(((await holders.json()) as { holders: unknown[] }).holders.length).toBeGreaterThan(0);
    expect(await primary.db.select().from(schema.tokens)).toHaveLength(0);
  });

  it("a replica that does not answer, or lacks the primary's schema, fails the start saying so (it was found per request: 503s and 500s)", async () => {
    const start = (readUrl: string) => startApiServer(loadConfig({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATABASE_URL: primary.url!, DATABASE_READ_URL: readUrl, JWT_SECRET }), createLogger("silent"));
    const admin = postgres(services.databaseUrl!, { max: 1, onnotice: () => {} });
    const name = `tokenpool_test_empty_${process.pid}_${Date.now()}`;
    await admin.unsafe(`create database "${name}"`);
    try {
      const empty = new URL(primary.url!);
      empty.pathname = `/${name}`;
      await expect(start(empty.toString())).rejects.toThrow(/DATABASE_READ_URL has 0 of the primary's \d+ migrations: it must be a streaming replica/);
      const closed = new URL(primary.url!);
      closed.port = "1";
      await expect(start(closed.toString())).rejects.toThrow(/DATABASE_READ_URL does not answer/);
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  }, 40_000);

  it("DATABASE_READ_URL without DATABASE_URL is a configuration error naming both", () => {
    expect(() => loadConfig({ DATABASE_READ_URL: "postgres://127.0.0.1/replica" })).toThrow(/DATABASE_READ_URL needs DATABASE_URL/);
  });
});
