import { createRequire } from "node:module";
import { pino, type DestinationStream, type Logger } from "pino";
import type { LogFormat, LogLevel } from "./config.js";

export type { Logger };

/** A connection URL (its credentials with it): everything from the scheme to the next blank or quote. */
export const CONNECTION_URL: [RegExp, string] = [/(postgres(?:ql)?|redis):\/\/[^\s"']*/gi, "$1://[url]"];

/** Text patterns that are secrets or personal data wherever they turn up in a message. */
const SCRUB: [RegExp, string][] = [
  [/scrypt\$[^\s"',)]+/g, "[hash]"],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, "[token]"],
  [/[^\s@"'<>(),;:=[\]]+@[^\s@"'<>(),;:=[\]]+\.[A-Za-z]{2,}/g, "[email]"],
  [/\b(Bearer)\s+\S+/gi, "$1 [token]"],
  CONNECTION_URL,
];

export function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SCRUB) out = out.replace(pattern, replacement);
  return out;
}

/**
 * The one error serializer of every log line. An ORM error's message carries the SQL and its
 * parameters (a register's email and password hash, a login's email), and a Postgres error's
 * `detail` the offending values: neither is ever written. What is written — the type, the
 * driver's code, the root cause's message and the stack frames — is scrubbed of anything that
 * looks like an email, a password hash, a bearer token or a connection URL.
 */
export function safeError(err: unknown, depth = 0): Record<string, unknown> | undefined {
  if (err === undefined || err === null) return undefined;
  if (typeof err !== "object") return { message: scrub(String(err)).slice(0, 500) };
  const e = err as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown; cause?: unknown; query?: unknown; params?: unknown };
  const carriesQuery = "params" in e || "query" in e || (typeof e.message === "string" && e.message.startsWith("Failed query"));
  const message = carriesQuery ? "a database query failed (its text and parameters are not logged)" : scrub(String(e.message ?? "")).slice(0, 500);
  const frames = typeof e.stack === "string" ? e.stack.split("\n").filter((l) => /^\s+at /.test(l)).slice(0, 12).map(scrub) : undefined;
  const out: Record<string, unknown> = { type: typeof e.name === "string" ? e.name : (err as object).constructor?.name, message };
  if (typeof e.code === "string" || typeof e.code === "number") out.code = e.code;
  if (frames?.length) out.stack = frames.join("\n");
  if (e.cause !== undefined && depth < 3) out.cause = safeError(e.cause, depth + 1);
  return out;
}

/** Whether log lines are written for a person: LOG_FORMAT=pretty, or "auto" on a terminal. */
export function prettyLogs(format: LogFormat, isTTY = process.stdout.isTTY === true): boolean {
  return format === "pretty" || (format === "auto" && isTTY);
}

/**
 * Logs on stdout (or `destination`): JSON lines, or with `format` "pretty" (or "auto" on a
 * terminal) one readable line each — time, level, message, then the fields — through
 * pino-pretty, written synchronously so that the last lines before an exit are not lost.
 * Credentials and personal data never reach either: the redact paths drop such fields by name,
 * and errors go through safeError, before a line is formatted.
 */
export function createLogger(level: LogLevel, name = "tokenpool", destination?: DestinationStream, format: LogFormat = "json"): Logger {
  const options = {
    name,
    level,
    serializers: { err: safeError, error: safeError },
    redact: {
      paths: ["password", "*.password", "passwordHash", "*.passwordHash", "email", "*.email", "token", "*.token", "authorization", "*.authorization", "jwtSecret", "*.jwtSecret"],
      censor: "[redacted]",
    },
  };
  if (prettyLogs(format)) {
    // Loaded only here: ≈ 20 ms that `tokenpool --help` and every JSON-logging process do without.
    const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
    // Colours only on a terminal of our own, never into a stream someone handed us.
    const stream = pretty({ destination: destination ?? 1, sync: true, singleLine: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l", colorize: destination ? false : pretty.isColorSupported });
    return pino(options, stream);
  }
  return destination ? pino(options, destination) : pino(options);
}
