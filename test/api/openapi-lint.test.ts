/**
 * The API document the app serves, linted by Redocly CLI with the project's ruleset (redocly.yaml:
 * Redocly's recommended rules as errors, plus declared tags and 4xx answers): no error and no
 * warning. A document that breaks a rule (an operation without its id, an answer without its
 * example) fails the same lint.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DbHandle } from "../../db/index.js";
import { buildApp } from "../support/app.js";
import { memoryStore } from "../support/db.js";

const run = promisify(execFile);
const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const root = path.resolve(import.meta.dirname, "../..");

interface Problem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

/** Redocly's findings on `doc`, with the project's redocly.yaml. */
async function lint(dir: string, doc: unknown): Promise<Problem[]> {
  const file = path.join(dir, `openapi-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(doc));
  // Offline and quiet: no telemetry, no update check.
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const out = await run(process.execPath, [cli, "lint", file, "--config", path.join(root, "redocly.yaml"), "--format", "json"], { env, cwd: root, maxBuffer: 16 << 20 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  const report = JSON.parse(out.stdout.slice(out.stdout.indexOf("{"))) as { problems: Problem[] };
  return report.problems;
}

let handle: DbHandle;
let dir: string;
let doc: { paths: Record<string, Record<string, { operationId?: string }>> };
beforeAll(async () => {
  handle = await memoryStore();
  doc = (await (await buildApp(handle.db).request("/openapi.json")).json()) as typeof doc;
  dir = await mkdtemp(path.join(tmpdir(), "tokenpool-lint-"));
});
afterAll(async () => {
  await handle?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("the served /openapi.json passes Redocly's lint with no error and no warning", async () => {
  const problems = await lint(dir, doc);
  expect(problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
}, 60_000);

it("an operation without an id, or a success answer without an example, is an error of the same lint (the lint can fail)", async () => {
  const broken = structuredClone(doc) as typeof doc & { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { example?: unknown }> }> }>> };
  delete broken.paths["/pool/stats"]!.get!.operationId;
  delete broken.paths["/pools"]!.get!.responses["200"]!.content["application/json"]!.example;
  const problems = await lint(dir, broken);
  expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId} ${p.location[0]?.pointer}`).sort()).toEqual([
    "operation-operationId #/paths/~1pool~1stats/get/operationId",
    "rule/success-answer-example #/paths/~1pools/get/responses/200/content/application~1json",
  ]);
}, 60_000);
