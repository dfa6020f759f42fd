import { expect, it } from "vitest";
import { localUrl, terminalLines } from "../../cli/start-lines.js";

it("npm start says its phases on a terminal, and nothing into a pipe", () => {
  const written: string[] = [];
  const write = (s: string) => written.push(s) > 0;
  terminalLines({ isTTY: true, write })("serving at http://localhost:3000/");
  terminalLines({ isTTY: false, write })("serving at http://localhost:3000/");
  expect(written).toEqual(["tokenpool: serving at http://localhost:3000/\n"]);
});

it("the URL it says is one a person can open", () => {
  expect(localUrl("0.0.0.0", 3000)).toBe("http://localhost:3000/");
  expect(localUrl("::", 8080)).toBe("http://localhost:8080/");
  expect(localUrl("127.0.0.1", 3000)).toBe("http://127.0.0.1:3000/");
  expect(localUrl("::1", 3000)).toBe("http://[::1]:3000/");
});
