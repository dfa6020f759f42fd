import { ConfigError } from "./errors.js";
import type { Logger } from "./logger.js";

/**
 * Runs a process entry point: a bad configuration prints one line and exits 1; SIGTERM/SIGINT
 * call `stop` (which finishes in-flight work) and exit 0.
 */
export async function runMain(name: string, start: () => Promise<{ logger: Logger; stop: () => Promise<void> }>): Promise<void> {
  let running: Awaited<ReturnType<typeof start>>;
  try {
    running = await start();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${name}: configuration error: ${err.message}\n`);
    } else {
      process.stderr.write(`${name}: failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    }
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, "shutting down");
    running
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        running.logger.error({ err }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** Runs a one-shot command: a bad configuration or a failure prints one line and exits 1. */
export async function runOnce(name: string, task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (err) {
    const kind = err instanceof ConfigError ? "configuration error" : "failed";
    process.stderr.write(`${name}: ${kind}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
