/**
 * The import graph's rules (docs/architecture.md, "Layout"): no file imports itself through
 * others (no circle), and each part imports only the parts below it — shared/ nothing of ours,
 * db/ only shared/, api/ and indexer/ never each other, client/ nothing outside itself. Read from
 * the sources' own import lines (relative specifiers; type-only imports count: they tie files
 * together as much for a reader). A small script rather than madge: madge resolves through the
 * TypeScript compiler and takes seconds; this takes milliseconds and needs nothing installed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PARTS = ["shared", "db", "indexer", "api", "cli", "bench", "scripts", "client/src", "bin", "main.ts"];

function sources(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (statSync(full).isFile()) return [dir];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "migrations" ? [] : sources(rel);
    return /\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [rel] : [];
  });
}

/**
 * A relative specifier: `import … from`, `export … from` (spaced or not: `import{a}from"./a.js"`), a JSDoc
 * `@import { A } from "./a.js"`, `import("./a.js")` or import(`./a.js`), `import "./a.js"`, a `require("./a.js")`
 * (`createRequire(import.meta.url)("./a.js")` and `.resolve(…)` included), and `new URL("./a.ts", import.meta.url)`
 * (a file spawned or loaded by its path: it runs with the importer, so it counts as an import).
 */
const SPECIFIER = new RegExp(
  [
    /(?:^|[\s;@])(?:import|export)\b[^;]*?from\s*["'](\.[^"']+)["']/.source,
    /import\s*\(\s*["'`](\.[^"'`$]+)["'`]\s*\)/.source,
    /^\s*import\s*["'](\.[^"']+)["']/.source,
    /(?:\brequire|createRequire\([^)]*\))(?:\.resolve)?\s*\(\s*["'`](\.[^"'`$]+)["'`]/.source,
    /new\s+URL\(\s*["'`](\.[^"'`$]+)["'`]\s*,\s*import\.meta\.url/.source,
  ].join("|"),
  "gm",
);
/** The specifier a match of SPECIFIER holds, whichever form matched. */
const specifierOf = (m: RegExpMatchArray): string => m.slice(1).find((g) => g !== undefined)!;

/**
 * A file's relative specifiers: TypeScript's own scanner (ts.preProcessFile: every import, export
 * and import()/require() form, comments anywhere inside them, a side-effect import mid-line) and
 * SPECIFIER for what the scanner does not read (JSDoc @import, createRequire, new URL). A
 * regular expression alone was fooled by a comment holding ";" inside an import's braces.
 */
function specifiers(text: string): string[] {
  const scanned = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const matched = [...text.matchAll(SPECIFIER)].map(specifierOf);
  return [...new Set([...scanned, ...matched])].filter((spec) => spec.startsWith("."));
}

/** Every file's relative imports, resolved to files of the tree (a `.js` specifier names its `.ts` source). */
function graph(): Map<string, string[]> {
  const files = PARTS.flatMap(sources);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const out: string[] = [];
    for (const spec of specifiers(text)) {
      const target = path.normalize(path.join(path.dirname(file), spec));
      const candidates = [target, target.replace(/\.js$/, ".ts"), target.replace(/\.mjs$/, ".mts"), `${target}.ts`, path.join(target, "index.ts")];
      // An import of test/ code is kept too: no part of the project may import it (test/ is not a part).
      const hit = candidates.find((c) => known.has(c)) ?? (target.startsWith(`test${path.sep}`) ? target.replace(/\.js$/, ".ts") : undefined);
      if (hit) out.push(hit);
    }
    edges.set(file, [...new Set(out)]);
  }
  return edges;
}

/** The circles: strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!order.has(v)) visit(v);
  return found;
}

const partOf = (file: string) => PARTS.find((p) => file === p || file.startsWith(`${p}/`))!;

/** What each part may import besides itself; a part not listed may import any part below the top. */
const MAY_IMPORT: Record<string, string[]> = {
  shared: [],
  db: ["shared"],
  indexer: ["db", "shared"],
  api: ["db", "shared", "client/src"],
  "client/src": [],
};

describe("the import graph", () => {
  const edges = graph();

  it("was read: hundreds of files and their imports", () => {
    expect(edges.size).toBeGreaterThan(200);
    expect([...edges.values()].reduce((n, e) => n + e.length, 0)).toBeGreaterThan(600);
    // A known import, so a regular expression that reads nothing cannot pass the rules below.
    expect(edges.get("api/server.ts")).toContain("api/snapshot-runner.ts");
  });

  it("has no circle of files", () => {
    expect(circles(edges)).toEqual([]);
  });

  it("has each part import only the parts below it", () => {
    const wrong: string[] = [];
    for (const [file, targets] of edges) {
      const from = partOf(file);
      const allowed = MAY_IMPORT[from];
      if (!allowed) continue;
      for (const t of targets) {
        const to = partOf(t);
        if (to !== from && !allowed.includes(to)) wrong.push(`${file} → ${t}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("finds a circle and an import running up when there is one (the check itself)", () => {
    const made = new Map<string, string[]>([
      ["db/a.ts", ["db/b.ts"]],
      ["db/b.ts", ["db/a.ts", "api/x.ts"]],
      ["api/x.ts", []],
    ]);
    expect(circles(made)).toEqual([["db/a.ts", "db/b.ts"]]);
    expect(MAY_IMPORT.db).not.toContain(partOf("api/x.ts"));
    const read = (text: string) => specifiers(text).sort();
    expect(read('import{type A}from"../db/a.js";\nexport const b = () => import(`./b.js`);\nimport type { C } from "./c.js";\nimport "./d.js";\nexport * from "./e.js";')).toEqual(["../db/a.js", "./b.js", "./c.js", "./d.js", "./e.js"]);
    expect(
      read(
        '/** @import { F } from "../api/f.js" */\nconst g = createRequire(import.meta.url)("./g.cjs");\nconst h = require("./h.js");\nconst i = createRequire(import.meta.url).resolve("./i.js");\nspawn(node, [new URL("./j.ts", import.meta.url).pathname]);\nconst k = require("node:fs");\nconst l = new URL("https://example.com/", base);',
      ),
    ).toEqual(["../api/f.js", "./g.cjs", "./h.js", "./i.js", "./j.ts"]);
    // Comments inside an import (one holding ";"), a side-effect import mid-line, a commented import().
    expect(read('import {\n  type AppEnv, // the env; see api/env.ts\n} from "../api/env.js";\nimport /* note */ "./m.js";\nawait import(/* webpackIgnore */ "./n.js");\nx = 1; import "./o.js";')).toEqual(["../api/env.js", "./m.js", "./n.js", "./o.js"]);
  });
});
