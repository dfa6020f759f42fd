import { Writable } from "node:stream";
import { expect, it } from "vitest";
import { createLogger, prettyLogs } from "../../shared/logger.js";

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

it("logs are pretty on a terminal and JSON otherwise, unless LOG_FORMAT says which", () => {
  expect(prettyLogs("auto", true)).toBe(true);
  expect(prettyLogs("auto", false)).toBe(false);
  expect(prettyLogs("json", true)).toBe(false);
  expect(prettyLogs("pretty", false)).toBe(true);
});

it("a pretty line is one readable line, redacted like a JSON one and without colour codes in a stream", () => {
  const out = sink();
  createLogger("info", "tokenpool", out.stream, "pretty").info({ port: 3000, email: "ada@example.com" }, "api listening");
  expect(out.text()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(tokenpool\): api listening \{"port":3000,"email":"\[redacted\]"\}\n$/);
  expect(out.text()).not.toContain("\u001b[");
  const json = sink();
  createLogger("info", "tokenpool", json.stream).info({ email: "ada@example.com" }, "api listening");
  expect(JSON.parse(json.text())).toMatchObject({ level: 30, name: "tokenpool", email: "[redacted]", msg: "api listening" });
});
