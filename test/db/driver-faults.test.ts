/**
 * Faults inside the Postgres driver (postgres.js 3.4.9, patched in patches/) that no caller can
 * catch: each would end the process (Node exits on an unhandled rejection), so each runs in a
 * child process that must exit 0 with its query's error in hand.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { dbTargets } from "../support/db.js";

const pg = dbTargets.find((t) => t.name === "postgres")!;

/** Runs `body` (a module body, with `createDb` imported) in a child; resolves to its exit code and output. */
function child(body: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const script = `import { createDb } from "./db/index.ts";\n${body}`;
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    p.stdout.on("data", (d: Buffer) => (output += d.toString()));
    p.stderr.on("data", (d: Buffer) => (output += d.toString()));
    p.on("exit", (code) => resolve({ code, output }));
  });
}

describe.skipIf(pg.skip)(`postgres driver faults${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  it("the array-types query a new connection runs first fails (here: cancelled by a 1 ms statement_timeout): the caller's query fails, the process lives", async () => {
    // postgres.js runs that query itself and dropped its promise (porsager/postgres#1192, #1205,
    // #1223): when it failed — its connection cut by a PostgreSQL restart, as in the fault
    // campaign — the rejection was unhandled and the indexer exited.
    const store = await pg.open();
    const { code, output } = await child(
      `const handle = await createDb({ databaseUrl: process.env.URL, statementTimeoutMs: 1 });
      for (let i = 0; i < 5; i++) await handle.db.execute("select pg_sleep(0.01)").then(() => console.log("answered"), (err) => console.log("failed:", err.cause?.code ?? err.code ?? err.message));
      await new Promise((r) => setTimeout(r, 300));
      await handle.close();
      console.log("alive");`,
      { URL: store.url! },
    ).finally(() => store.drop());
    expect(output).toContain("alive");
    expect(output).not.toMatch(/unhandled|triggerUncaughtException/i);
    expect(code).toBe(0);
  }, 60_000);
});
