/**
 * chopsticks draws a "⠋ Fetching" spinner on a terminal for every storage read, as long as the
 * chain runs: `npm start` on a terminal was a screen of it between its own lines. It decides at
 * import (stdout a TTY, neither CI nor TEST set), once a process, so each case runs in a child
 * whose stdout claims to be a terminal and which counts what the spinner writes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const CHOPSTICKS = new URL("../../dist/indexer/devnet/chopsticks.js", import.meta.url).href;

/** The spinner's writes while a devnet starts and builds a block, with `progress` as given. */
async function spinnerWrites(progress: boolean | undefined): Promise<number> {
  const script = `
    Object.defineProperty(process.stdout, "isTTY", { value: true });
    process.stdout.cursorTo = () => true;
    process.stdout.clearLine = () => true;
    let spinner = 0;
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk, ...rest) => (String(chunk).includes("Fetching") ? (spinner += 1, true) : write(chunk, ...rest));
    const { startDevnet } = await import(${JSON.stringify(CHOPSTICKS)});
    const devnet = await startDevnet({ port: 0, progress: ${JSON.stringify(progress)} });
    await devnet.close();
    process.stderr.write("spinner=" + spinner + "\\n");
  `;
  const env = { ...process.env };
  delete env.CI;
  delete env.TEST;
  delete env.LOG_LEVEL;
  // A file, not -e: chopsticks' executor worker inherits the process's flags, and --input-type fails it.
  const dir = await mkdtemp(path.join(tmpdir(), "tokenpool-spinner-"));
  const file = path.join(dir, "devnet.mjs");
  await writeFile(file, script);
  const { stderr } = await promisify(execFile)(process.execPath, [file], { env, timeout: 110_000 }).finally(() => rm(dir, { recursive: true, force: true }));
  const count = /spinner=(\d+)/.exec(stderr);
  if (!count) throw new Error(`the child said no count: ${stderr}`);
  return Number(count[1]);
}

it("a devnet draws no progress spinner on a terminal unless asked to (LOG_LEVEL=debug)", async () => {
  const [quiet, asked] = await Promise.all([spinnerWrites(undefined), spinnerWrites(true)]);
  expect(asked, "the child detects the spinner when it is drawn").toBeGreaterThan(0);
  expect(quiet).toBe(0);
}, 120_000);
