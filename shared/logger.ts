import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.js";

export type { Logger };

/** JSON logs on stdout; credentials never reach them (see the redact paths). */
export function createLogger(level: LogLevel, name = "tokenpool"): Logger {
  return pino({
    name,
    level,
    redact: { paths: ["password", "*.password", "token", "*.token", "authorization", "*.authorization"], censor: "[redacted]" },
  });
}
