// After tsc: bundles the command (src/cli.ts and everything it imports, dependencies included) into
// the one CommonJS file dist/spec-diff.cjs, which dist/bin.cjs starts (src/launch.ts): starting the
// command then reads one module instead of about a hundred (its own, commander, js-yaml,
// api-smart-diff, allof-merge). Then runs the command on the package's fixtures, in every format,
// and writes V8's code cache of the bundle (dist/spec-diff.cjs.cache) with the functions it compiled.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(pkg, "dist");
const { BUNDLE_FILE, CODE_CACHE_FILE, loadCommand, preferShortRun, writeCodeCache } = await import(
  pathToFileURL(path.join(dist, "launch.js")).href
);

// commander requires node:child_process when it loads, for subcommands that are programs of their
// own, which spec-diff has none of. Loading it (with the network modules it pulls in) costs start-up
// time, so commander gets it through a stand-in that requires it on first use.
const lazyChildProcessForCommander = {
  name: "lazy-child-process-for-commander",
  setup(plugin) {
    plugin.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer)
        ? { path: "child_process", namespace: "lazy-child-process" }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: "lazy-child-process" }, () => ({
      contents:
        'let loaded;\nmodule.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });\n',
      loader: "js",
    }));
  },
};

// allof-merge (src/normalise.ts) runs an exit hook at every node it walks, which first builds the
// node's JSON pointer (each segment through encodeURIComponent and two replaces) and then looks it
// up in a map of allOf items to drop, a map that is empty unless an allOf item failed to merge.
// Building those pointers was about a fifth of the merge's time on revision B -> C. The bundle
// gets the hook with an early return on an empty map: the same result, without the pointers.
const ALLOF_MERGE_EXIT_HOOK = "h=()=>{const{node:e}=c,t=$(l);if(r.has(t))";
const allOfMergeExitHook = {
  name: "allof-merge-exit-hook",
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]allof-merge[\\/]dist[\\/]index\.mjs$/ }, (args) => {
      const source = fs.readFileSync(args.path, "utf8");
      if (source.split(ALLOF_MERGE_EXIT_HOOK).length !== 2)
        throw new Error(`${args.path}: allof-merge's exit hook changed; update scripts/bundle-bin.mjs`);
      return {
        contents: source.replace(
          ALLOF_MERGE_EXIT_HOOK,
          "h=()=>{if(r.size===0)return;const{node:e}=c,t=$(l);if(r.has(t))",
        ),
        loader: "js",
      };
    });
  },
};

// A cache of an earlier bundle is never used (its digest differs), but is not left behind either.
fs.rmSync(path.join(dist, CODE_CACHE_FILE), { force: true });
await build({
  entryPoints: [path.join(pkg, "src", "cli.ts")],
  outfile: path.join(dist, BUNDLE_FILE),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  // A dynamic import() of a built-in module (src/git.ts) becomes a require() when it is reached: the
  // bundle runs as a vm.Script (src/launch.ts), which has no loader for import().
  supported: { "dynamic-import": false },
  plugins: [lazyChildProcessForCommander, allOfMergeExitHook],
});

// The bin itself as CommonJS (src/bin.ts with src/launch.ts): an ES module entry would have Node
// load its ES module loader first, some twenty modules of its own. dist/bin.js (the same source as
// an ES module) stays, for those who run `node dist/bin.js`.
await build({
  entryPoints: [path.join(pkg, "src", "bin.ts")],
  outfile: path.join(dist, "bin.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  define: { "import.meta.url": "__filename", "import.meta.dirname": "__dirname" },
});

// The same V8 flags as the bin: V8 accepts a code cache only under the flags it was made with.
preferShortRun();
const loaded = loadCommand(dist, { useCache: false });
const fixtures = path.join(pkg, "src", "fixtures");
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-cache-")), "report");
try {
  for (const fixture of ["type-change", "fields", "operations", "external-refs"]) {
    for (const format of ["markdown", "json", "text", "github"]) {
      const argv = [path.join(fixtures, fixture, "before.yaml"), path.join(fixtures, fixture, "after.yaml")];
      // No environment: a GitHub step summary must not get these reports.
      const code = await loaded.command.main([...argv, "--format", format, "--output", out], {});
      if (code !== 0) throw new Error(`spec-diff ${argv.join(" ")} --format ${format} exited with ${code}`);
    }
  }
} finally {
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
}
writeCodeCache(loaded, dist);
