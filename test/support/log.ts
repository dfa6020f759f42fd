/** A logger whose lines the test can read: every line written, as text and parsed. */
import { Writable } from "node:stream";
import type { LogLevel } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";

export function captureLog(level: LogLevel = "debug") {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return {
    lines,
    text: () => lines.join(""),
    records: () => lines.flatMap((l) => l.split("\n").filter(Boolean)).map((l) => JSON.parse(l) as Record<string, any>),
    logger: createLogger(level, "api", stream),
  };
}
