import { ConfigError } from "./errors.js";
import type { Logger } from "./logger.js";

/**
 * Runs a process entry point: a bad configuration prints one line and exits 1; SIGTERM/SIGINT
 * call `stop` (which finishes in-flight work) and exit 0 (or process.exitCode, when a fatal
 * error set it before signalling), also when they arrive during `start`.
 */
export async function runMain(name: string, start: () => Promise<{ logger: Logger; stop: () => Promise<void> }>): Promise<void> {
  let running: Awaited<ReturnType<typeof start>> | undefined;
  let signal: string | undefined;
  const shutdown = () => {
    running!.logger.info({ signal }, "shutting down");
    running!
      .stop()
      .then(() => process.exit(typeof process.exitCode === "number" ? process.exitCode : 0))
      .catch((err) => {
        running!.logger.error({ err }, "shutdown failed");
        process.exit(1);
      });
  };
  // Installed before starting: a signal during start-up (migrations, a devnet) waits for it to
  // finish and then stops cleanly, instead of killing the process half-way.
  const onSignal = (received: string) => {
    if (signal) return;
    signal = received;
    if (running) shutdown();
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
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
  if (signal) shutdown();
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
