import { Writable } from "node:stream";
import { Hono } from "hono";
import { expect, it } from "vitest";
import type { AppEnv } from "../../api/env.js";
import { requestLevel, requestLog, SLOW_REQUEST_MS } from "../../api/middleware/request-log.js";
import { createLogger } from "../../shared/logger.js";
import type { LogLevel } from "../../shared/config.js";

it("a request's line is at debug, at warn for a 5xx and at info when slow", () => {
  expect(requestLevel(200, 3)).toBe("debug");
  expect(requestLevel(404, 3)).toBe("debug");
  expect(requestLevel(429, 3)).toBe("debug");
  expect(requestLevel(200, SLOW_REQUEST_MS)).toBe("info");
  expect(requestLevel(503, 3)).toBe("warn");
  expect(requestLevel(500, SLOW_REQUEST_MS * 5)).toBe("warn");
});

/** The "request" lines an app with requestLog writes at `level` for GET /ok, then GET /down. */
async function requestLines(level: LogLevel): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = new Hono<AppEnv>();
  app.use(requestLog(createLogger(level, "api", stream)));
  app.get("/ok", (c) => c.json({ ok: true }));
  app.get("/down", (c) => c.json({ success: false }, 503));
  await app.request("/ok");
  await app.request("/down");
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === "request");
}

it("at the default level (info) only the 5xx is written; at debug every request is", async () => {
  expect(await requestLines("info")).toEqual([expect.objectContaining({ level: 40, method: "GET", path: "/down", status: 503 })]);
  expect((await requestLines("debug")).map((r) => [r.level, r.path])).toEqual([[20, "/ok"], [40, "/down"]]);
});
