/**
 * The licence policy (scripts/licences.mjs): what an install of TokenPool brings may ship with an
 * Apache-2.0 project, and the GPL-3.0 exceptions it lists are never loaded by the indexer's chain code.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import nodeModule from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script of the project, without types
import { EXCEPTIONS, offending } from "../scripts/licences.mjs";

const run = promisify(execFile);

describe("licences", () => {
  it("the project, its client and its OpenAPI document are Apache-2.0, with the licence's text beside them", async () => {
    const text = await readFile("LICENSE", "utf8");
    expect(text).toContain("Apache License\n                        Version 2.0, January 2004");
    expect(await readFile("client/LICENSE", "utf8")).toBe(text);
    for (const file of ["package.json", "client/package.json"]) expect(JSON.parse(await readFile(file, "utf8")).license, file).toBe("Apache-2.0");
  });

  it("every package an install brings passes the policy (npm run licences exits 0)", async () => {
    const { stdout } = await run(process.execPath, ["scripts/licences.mjs"]);
    expect(stdout).toMatch(/^licences: the \d+ packages an install brings are under /);
  });

  it("a new GPL dependency, one with no licence and one that is not SPDX fail; dev packages, exceptions and an OR with a permissive choice pass", () => {
    const lock = {
      packages: {
        "": { license: "Apache-2.0" },
        client: { license: "Apache-2.0" },
        "node_modules/@tokenpool/client": { link: true },
        "node_modules/gpl-lib": { version: "1.0.0", license: "GPL-3.0-only" },
        "node_modules/a/node_modules/agpl-lib": { version: "2.0.0", license: "AGPL-3.0-or-later" },
        "node_modules/nothing-said": { version: "0.1.0" },
        "node_modules/see-file": { version: "3.0.0", license: "SEE LICENSE IN LICENSE.md" },
        "node_modules/gpl-and-mit": { version: "1.0.0", license: "(MIT AND GPL-2.0-only)" },
        "node_modules/dev-gpl": { version: "1.0.0", license: "GPL-3.0-only", dev: true },
        "node_modules/smoldot": { version: "2.0.26", license: "GPL-3.0-or-later WITH Classpath-exception-2.0", optional: true },
        "node_modules/either": { version: "1.0.0", license: "(MIT OR GPL-3.0-only)" },
        "node_modules/plain": { version: "1.0.0", license: "BSD-3-Clause" },
      },
    };
    const names = (offending(lock) as [string, string, string, string][]).map(([name, , licence]) => `${name} ${licence}`);
    expect(names.sort()).toEqual(["agpl-lib AGPL-3.0-or-later", "gpl-and-mit (MIT AND GPL-2.0-only)", "gpl-lib GPL-3.0-only", "nothing-said (none given)", "see-file SEE LICENSE IN LICENSE.md"]);
  });

  // The preload uses module.registerHooks (Node 22.15 and later; the suite runs on Node 24).
  const hooks = "registerHooks" in nodeModule ? undefined : `Node ${process.version} has no module.registerHooks`;
  it.skipIf(hooks !== undefined)(`the indexer's chain code loads none of the GPL-3.0 exceptions (@substrate/connect, smoldot)${hooks ? ` (skipped: ${hooks})` : ""}`, async () => {
    const preload = path.resolve("test/support/loaded-modules.mjs");
    // What `tokenpool indexer` and `worker` import to reach a node: @polkadot/api, our connection and our reader.
    const { stderr } = await run(process.execPath, ["--import", preload, "--input-type=module", "-e", 'await import("@polkadot/api"); await import("./dist/indexer/chain/connect.js"); await import("./dist/indexer/chain/reader.js");']);
    const loaded = JSON.parse(stderr.split("\n").find((l) => l.startsWith("loaded-modules "))!.slice("loaded-modules ".length)) as string[];
    expect(loaded.some((url) => url.includes("/@polkadot/rpc-provider/"))).toBe(true);
    const gpl = Object.keys(EXCEPTIONS as Record<string, string>).filter((name) => name !== "jsonify");
    expect(loaded.filter((url) => gpl.some((name) => url.includes(`/node_modules/${name}/`)))).toEqual([]);
  }, 120_000); // @polkadot/api is 3–7 s to import here, much more beside the suite's chains
});
