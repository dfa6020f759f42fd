/**
 * The dashboard's script: api/dashboard/src/main.ts with its imports — its modules and
 * lightweight-charts — as one ES module, by esbuild. Bundled rather than served as modules: the
 * chart library is an npm package, which a browser cannot import by name without an import map
 * (an inline script, which the page's policy refuses) or copies of its files at paths of their
 * own; one file is also one request, one ETag and one route, and the sources stay TypeScript.
 *
 * Called by scripts/build.mjs (into dist/api/dashboard/app.js, what the build and the image
 * serve) and by api/dashboard.ts when it runs from the sources (tsx, vitest), where no bundle lies
 * beside it. esbuild is a development dependency: a build never calls this.
 */
import { fileURLToPath } from "node:url";

export const DASHBOARD_ENTRY = "api/dashboard/src/main.ts";

/** The bundle's bytes; `root` is the project's folder (the sources' one, not dist/). */
export async function bundleDashboard(root: URL): Promise<Uint8Array> {
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: fileURLToPath(root),
    entryPoints: [DASHBOARD_ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["production"],
    minify: true,
    legalComments: "eof",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.contents;
}
