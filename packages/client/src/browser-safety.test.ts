// The main entry and the subpath entries must run in browsers: no Node-only imports anywhere in the
// module graph they load from dist/ (checked on the build output, which is what users get).
import fs from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(packageDir, "dist");
const builtins = new Set(builtinModules.flatMap((name) => [name, name.split("/")[0]]));
const IMPORT_PATTERNS = [
  /\bimport\s+(?:[^'"();]*?\s+from\s+)?["']([^"']+)["']/g,
  /\bexport\s+[^'"();]*?\s+from\s+["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
];

function specifiers(source: string): string[] {
  return IMPORT_PATTERNS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

/** Every module reachable from `entry` through relative imports, and the bare specifiers they use. */
function moduleGraph(entry: string): { files: string[]; bare: Set<string> } {
  const files: string[] = [];
  const bare = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.includes(file)) continue;
    files.push(file);
    for (const specifier of specifiers(fs.readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) queue.push(path.resolve(path.dirname(file), specifier));
      else bare.add(specifier);
    }
  }
  return { files, bare };
}

const isNodeOnly = (specifier: string) =>
  specifier.startsWith("node:") || builtins.has(specifier) || builtins.has(specifier.split("/")[0]);

describe("browser safety of the build", () => {
  it("has a build to check", () => {
    expect(
      fs.existsSync(path.join(dist, "index.js")),
      "dist/index.js is missing: run `pnpm --filter @tracker-ml/client build`",
    ).toBe(true);
  });

  for (const entry of ["index.js", "rev-a.js", "rev-b.js", "rev-c.js"]) {
    it(`dist/${entry} and its imports use no Node module, and only openapi-fetch from outside`, () => {
      const { files, bare } = moduleGraph(path.join(dist, entry));
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) {
        const nodeOnly = specifiers(fs.readFileSync(file, "utf8")).filter(isNodeOnly);
        expect(nodeOnly, path.relative(packageDir, file)).toEqual([]);
      }
      expect([...bare].every((specifier) => specifier === "openapi-fetch")).toBe(true);
    });
  }

  it("the one runtime dependency, openapi-fetch, imports no Node module either", () => {
    const require = createRequire(path.join(dist, "index.js"));
    const cjsEntry = require.resolve("openapi-fetch");
    const esmEntry = path.join(path.dirname(cjsEntry), "index.mjs");
    const { files, bare } = moduleGraph(fs.existsSync(esmEntry) ? esmEntry : cjsEntry);
    expect([...bare].filter(isNodeOnly)).toEqual([]);
    expect(files.length).toBeGreaterThan(0);
  });

  it("the main entry does not touch Node globals", () => {
    const { files } = moduleGraph(path.join(dist, "index.js"));
    for (const file of files) {
      const source = fs.readFileSync(file, "utf8");
      expect(source, path.relative(packageDir, file)).not.toMatch(/\b(process|Buffer|__dirname|__filename)\b/);
    }
  });
});
