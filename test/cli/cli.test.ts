/** The `tokenpool` command as an operator meets it: a real process per call. */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = path.resolve("bin/tokenpool.mjs");
const COMMANDS = ["start", "api", "indexer", "devnet", "migrate", "status"];

async function tokenpool(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("tokenpool CLI", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "tokenpool-cli-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("has --help for the program and every command", async () => {
    const results = await Promise.all([tokenpool(["--help"]), ...COMMANDS.map((c) => tokenpool([c, "--help"]))]);
    expect(results[0]!.code).toBe(0);
    for (const c of COMMANDS) expect(results[0]!.stdout).toContain(`${c} [options]`);
    results.slice(1).forEach((r, i) => {
      expect(r.code, COMMANDS[i]).toBe(0);
      expect(r.stdout).toContain(`Usage: tokenpool ${COMMANDS[i]} [options]`);
    });
  });

  it("answers a wrong flag, a wrong command or a bad variable with one line and a non-zero exit", async () => {
    const [flag, command, env, missing] = await Promise.all([
      tokenpool(["status", "--bogus"]),
      tokenpool(["frobnicate"]),
      tokenpool(["api"], { PORT: "http" }),
      tokenpool(["indexer", "--data-dir", dir], { WS_URL: "" }),
    ]);
    for (const r of [flag, command, env, missing]) {
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(flag.stderr).toContain("unknown option '--bogus'");
    expect(command.stderr).toContain("unknown command 'frobnicate'");
    expect(env.stderr).toContain("PORT must be an integer");
    expect(missing.stderr).toContain("WS_URL must be set");
    const badFlag = await tokenpool(["migrate", "--database-url", "mysql://x"]);
    expect(badFlag.code).toBe(1);
    expect(badFlag.stderr).toContain("DATABASE_URL must use postgres:");
  });

  it("migrate, then status on an empty store", async () => {
    const migrate = await tokenpool(["migrate", "--data-dir", dir]);
    expect(migrate).toMatchObject({ code: 0, stdout: "migrations applied (pglite)\n" });
    const status = await tokenpool(["status", "--data-dir", dir, "--json"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({ store: "pglite", block: null, blockHash: null, finalized: null, lag: null, blockTime: null, updatedAt: null });
    expect((await tokenpool(["status", "--data-dir", dir])).stdout).toContain("no checkpoint yet");
  });

  it("api serves on --port and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, "api", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dir, "--log-level", "warn"], { stdio: "ignore" });
    try {
      let res: Response | undefined;
      for (let i = 0; i < 100 && !res; i++) {
        res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        if (!res) await new Promise((r) => setTimeout(r, 100));
      }
      expect(res?.status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
