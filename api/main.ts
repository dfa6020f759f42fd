import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { runMain } from "../shared/process.js";
import { startApiServer } from "./server.js";

await runMain("tokenpool-api", async () => {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, "api");
  const server = await startApiServer(config, logger);
  return { logger, stop: () => server.close() };
});
