/** `npm start`: the same as `tokenpool start` (see cli/start.ts). */
import { startAll } from "./cli/start.js";
import { loadConfig } from "./shared/config.js";
import { createLogger } from "./shared/logger.js";
import { runMain } from "./shared/process.js";

await runMain("tokenpool", async () => {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  return { logger, stop: await startAll(config, logger) };
});
