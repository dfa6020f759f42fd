/**
 * What `npm publish` would send (`npm pack --dry-run`, no build: about a second): the files, the
 * entry points and types, the licence, and a README that reads right inside the package, where
 * nothing beside it (../README.md) exists.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const dir = new URL("..", import.meta.url);
const read = (path: string, from: URL = dir) => readFileSync(new URL(path, from), "utf8");

interface Manifest {
  name: string;
  license?: string;
  main?: string;
  types?: string;
  exports?: Record<string, string | Record<string, string>>;
  files?: string[];
  scripts?: Record<string, string>;
  publishConfig?: { access?: string };
  repository?: { type: string; url: string; directory?: string };
}

it("npm pack ships dist, src, README and LICENSE only, every entry point built from a shipped source, under Apache-2.0", () => {
  const [pack] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, encoding: "utf8", timeout: 60_000 })) as [{ name: string; files: { path: string }[] }];
  const files = pack.files.map((f) => f.path);
  const pkg = JSON.parse(read("package.json")) as Manifest;
  expect(pack.name).toBe("@tokenpool/client");

  expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json", "src/index.ts", "src/schema.ts", "src/operations.ts"]));
  expect(files.filter((f) => !/^(dist|src)\//.test(f) && !["LICENSE", "README.md", "package.json"].includes(f))).toEqual([]);
  expect(files.filter((f) => /\.test\.|(^|\/)test\/|tsconfig|\.tgz$/.test(f))).toEqual([]);

  // dist/ is made at pack time (prepack, as npm publish runs it): each entry point is the build
  // of a source in the package (tsc: rootDir src → outDir dist, with declarations).
  expect(pkg.scripts?.prepack).toMatch(/npm run build/);
  expect(pkg.files).toContain("dist");
  const tsconfig = read("tsconfig.json");
  for (const [key, value] of Object.entries({ rootDir: '"src"', outDir: '"dist"', declaration: "true" })) expect(tsconfig).toMatch(new RegExp(`"${key}":\\s*${value}`));
  const entries = [pkg.main, pkg.types, ...Object.values(pkg.exports ?? {}).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e)))].filter((e): e is string => !!e && e !== "./package.json");
  expect(entries.length).toBeGreaterThanOrEqual(4);
  expect((pkg.exports?.["."] as Record<string, string>).types).toBe(pkg.types);
  for (const entry of entries) {
    const source = entry.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$|\.js$/, ".ts");
    expect(source, `${entry} is not built from src/`).not.toBe(entry);
    expect(files, `${entry} comes from ${source}, which is not in the package`).toContain(source);
  }

  expect(pkg.license).toBe("Apache-2.0");
  expect(read("LICENSE")).toMatch(/Apache License\s+Version 2\.0/);
  // A scoped package is private on its first publish unless it says otherwise.
  expect(pkg.publishConfig?.access).toBe("public");
  if (pkg.repository) expect(pkg.repository).toMatchObject({ type: "git", directory: "client" });
});

it("the package's README links only to absolute addresses and tells to install it by name", () => {
  const readme = read("README.md");
  const links = [...readme.matchAll(/\]\(([^)\s]+)[^)]*\)|\b(?:href|src)="([^"]+)"/g)].map((m) => m[1] ?? m[2]!);
  expect(links.length).toBeGreaterThan(0);
  expect(links.filter((l) => !/^(https:\/\/|#)/.test(l))).toEqual([]);
  expect(readme).toContain("npm install @tokenpool/client");
});
