/**
 * bench/ingest-load.ts, the write load of the reads under ingest: paused ("pause" on its stdin) it
 * commits no block, so an idle run between two busy ones is idle; resumed ("resume") it commits again. The
 * suite alternates idle and busy runs on one child this way (bench/under-ingest.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestBlock } from "../../db/index.js";
import { generate } from "../../bench/synthetic.js";
import { dbTargets } from "../support/db.js";
import { ingestControl } from "../../bench/under-ingest.js";

const pg = dbTargets.find((t) => t.name === "postgres")!;

describe.skipIf(pg.skip)(`the ingest load, paused and resumed${pg.skip ? ` (${pg.skip})` : ""}`, () => {
  let store: Awaited<ReturnType<typeof pg.open>>;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    store = await pg.open();
    await generate(store.db, { bigHolders: 300, otherHolders: 100, pools: 4, swaps: 100, prices: 100 });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
    await store?.drop();
  });

  it("commits no block while paused, commits again once resumed, and reports the blocks it committed on SIGTERM", async () => {
    child = spawn(process.execPath, ["--import", "tsx", "bench/ingest-load.ts"], { env: { ...process.env, DATABASE_URL: store.url!, BLOCK_MS: "50" }, stdio: ["pipe", "pipe", "inherit"] });
    const lines: string[] = [];
    const waiters: Array<[string, () => void]> = [];
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      for (const [word, resolve] of waiters.splice(0)) (line.startsWith(word) ? resolve : () => waiters.push([word, resolve]))();
    });
    const next = (word: string) => (lines.some((l) => l.startsWith(word)) ? Promise.resolve() : new Promise<void>((r) => waiters.push([word, r])));
    const head = async () => (await latestBlock(store.db))!.number;

    await next("ready");
    child.stdin!.write("pause\n");
    await next("paused");
    const pausedAt = await head();
    // Ten block times without a block.
    await new Promise((r) => setTimeout(r, 500));
    expect(await head()).toBe(pausedAt);

    child.stdin!.write("resume\n");
    await next("resumed");
    expect(await head()).toBeGreaterThan(pausedAt);

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
    const summary = JSON.parse(lines.find((l) => l.startsWith("{"))!) as { blocks: number; first: number };
    expect(summary.first + summary.blocks - 1).toBe(await head());
  });
});

describe("the bench's control of the ingest child", () => {
  it("fails a step, rather than measuring without an ingest, once the child has exited", async () => {
    // A child that says "ready" and exits, as an ingest that crashed after its first block.
    const child = spawn(process.execPath, ["-e", 'console.log("ready")'], { stdio: ["pipe", "pipe", "inherit"] });
    const control = ingestControl(child);
    await once(child, "exit");
    await expect(control.set("idle")).rejects.toThrow(/ingest-load exited \(0\)/);
    expect(() => control.alive()).toThrow(/ingest-load exited/);
    expect(control.summary()).toBe("");
  });
});
