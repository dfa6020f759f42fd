/** `npm start`: the same as `tokenpool start` (see cli/start.ts). */
import { startAll } from "./cli/start.js";
import { terminalLines } from "./cli/start-lines.js";
import { loadConfig } from "./shared/config.js";
import { createLogger } from "./shared/logger.js";
import { runMain } from "./shared/process.js";

// `node main.ts status` used to start the whole service and ignore the word: the commands are the CLI's.
const extra = process.argv.slice(2);
if (extra.length > 0) {
  process.stderr.write(`main.ts (npm start) takes no arguments, got ${JSON.stringify(extra.join(" "))}; commands are run with \`npx tokenpool ${extra[0]}\` (see \`npx tokenpool --help\`)\n`);
  process.exit(2);
}

await runMain("tokenpool", async () => {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, "tokenpool", undefined, config.logFormat);
  return { logger, stop: await startAll(config, logger, terminalLines()) };
});
