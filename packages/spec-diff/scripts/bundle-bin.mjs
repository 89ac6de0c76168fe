// Bundles the command (src/bin.ts and everything it imports, dependencies included) into the one
// file dist/bin.js, after tsc has compiled the library: starting the command then reads one
// module instead of about a hundred (its own, commander, js-yaml, api-smart-diff, allof-merge).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [path.join(pkg, "src", "bin.ts")],
  outfile: path.join(pkg, "dist", "bin.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Dependencies written as CommonJS call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  logLevel: "warning",
});
