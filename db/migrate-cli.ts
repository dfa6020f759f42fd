import { loadConfig } from "../shared/config.js";
import { createDb } from "./client.js";

const config = loadConfig();
const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await handle.migrate();
await handle.close();
process.stdout.write(`migrations applied (${handle.kind})\n`);
