/** `npm start`: migrations and the API in one process (the indexer joins here once it exists). */
import { startApiServer } from "./api/server.js";
import { loadConfig } from "./shared/config.js";
import { createLogger } from "./shared/logger.js";
import { runMain } from "./shared/process.js";

await runMain("tokenpool", async () => {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const server = await startApiServer(config, logger);
  return { logger, stop: () => server.close() };
});
