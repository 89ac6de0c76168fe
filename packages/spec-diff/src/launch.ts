/**
 * Starting the `spec-diff` command (dist/bin.cjs) in as little time as a run of well under a second
 * allows. Measured on a one-field edit of a 3,000-line spec, a run spent most of its CPU time on
 * three things that these steps cut (docs/benchmarks.md, spec-diff section):
 *
 * - **V8's optimising compiler.** TurboFan compiled about fifty hot functions (the YAML parser,
 *   api-smart-diff, allof-merge) on a second thread, and the run ended before the optimised code
 *   had paid for them. Without it (Sparkplug, V8's baseline compiler, still runs; Maglev too where
 *   Node has it), the same run takes a third less CPU time, and less time on large specs as well.
 *   Set for the command only: the library API (src/index.ts) leaves the process's flags alone.
 *   Checked again after the merge got cheaper (each build with a code cache made under its own
 *   flags, 10 interleaved runs on a loaded machine): with TurboFan, CPU time 1.06 s on revision
 *   B -> C and 0.74 s on the one-field edit; without it, 0.56 s and 0.48 s.
 * - **Parsing and compiling the bundle.** The command and its dependencies are one CommonJS file
 *   (dist/spec-diff.cjs, written by scripts/bundle-bin.mjs), compiled here with V8's code cache
 *   (dist/spec-diff.cjs.cache), written at build time after a run of the command on the package's
 *   fixtures, so it holds the functions a run needs. Node 20 has no module compile cache
 *   (`module.enableCompileCache` came in Node 22); `vm.Script`'s cached data is the same mechanism.
 * - The cache is used only when it was made from this very bundle: V8 itself checks its own version
 *   and flags, but of the source only its length, so the file starts with the CRC-32 of the
 *   bundle it belongs to (zlib's, native: loading node:crypto for a SHA-256 cost more than the
 *   check is worth). Without a cache that fits, the bundle is compiled as any module is.
 * - **Node's ES module loader.** The bin is dist/bin.cjs, a CommonJS file (src/bin.ts and this
 *   module, bundled by scripts/bundle-bin.mjs): an ES module entry (dist/bin.js, kept so that
 *   `node dist/bin.js` still works) makes Node load and run its ES module loader, some twenty
 *   modules of its own, before the first line of the command.
 * - **Node's own modules** are loaded through `require`: an ES `import` of a built-in module makes
 *   its ES facade read every export, and node:fs's lazy ones (`promises`, the streams) then load
 *   some twenty more modules that a run does not use.
 */
import { createRequire } from "node:module";
import type { Script } from "node:vm";
import type * as Cli from "./cli.js";

// dist/bin.cjs, the published bin, is this module bundled as CommonJS (scripts/bundle-bin.mjs):
// there `import.meta.url` is replaced by the bundle's `__filename`, which createRequire takes too.
const require = createRequire(import.meta.url);
const fs = require("node:fs") as typeof import("node:fs");
const path = require("node:path") as typeof import("node:path");
const { setFlagsFromString } = require("node:v8") as typeof import("node:v8");
const vm = require("node:vm") as typeof import("node:vm");
const { crc32 } = require("node:zlib") as typeof import("node:zlib");

export type CommandModule = typeof Cli;

export const BUNDLE_FILE = "spec-diff.cjs";
export const CODE_CACHE_FILE = "spec-diff.cjs.cache";
const DIGEST_BYTES = 4;

/** The digest that ties a code cache to its bundle. */
function digestOf(source: Buffer): Buffer {
  const digest = Buffer.alloc(DIGEST_BYTES);
  digest.writeUInt32BE(crc32(source));
  return digest;
}

/** V8's flags for a short run: no TurboFan (read when a function gets hot, so it applies from here on). */
export function preferShortRun(): void {
  setFlagsFromString("--no-turbofan");
}

export interface LoadedCommand {
  command: CommandModule;
  /** The compiled bundle, for `writeCodeCache`. */
  script: Script;
  /** CRC-32 of the bundle. */
  digest: Buffer;
  /** Whether the code cache was given to V8 and accepted. */
  cacheUsed: boolean;
}

/** The cached data of the code cache in `file` when it belongs to the bundle with this digest. */
function readCodeCache(file: string, digest: Buffer): Buffer | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  return data.length > DIGEST_BYTES && data.subarray(0, DIGEST_BYTES).equals(digest)
    ? data.subarray(DIGEST_BYTES)
    : undefined;
}

/** Compiles and runs the command bundle in `dir` as Node runs a CommonJS module, with the code cache when it fits. */
export function loadCommand(dir: string, options: { useCache?: boolean } = {}): LoadedCommand {
  const file = path.join(dir, BUNDLE_FILE);
  const source = fs.readFileSync(file);
  const digest = digestOf(source);
  const cachedData = options.useCache === false ? undefined : readCodeCache(path.join(dir, CODE_CACHE_FILE), digest);
  // The wrapper Node puts around a CommonJS module, on the first line, so line numbers stay the file's.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source.toString("utf8")}\n});`;
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const commonJs = { exports: {} };
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  run(commonJs.exports, createRequire(file), commonJs, file, dir);
  return {
    command: commonJs.exports as CommandModule,
    script,
    digest,
    cacheUsed: cachedData !== undefined && script.cachedDataRejected === false,
  };
}

/** Writes the code cache of a loaded bundle (after it ran, so it holds the functions that ran). */
export function writeCodeCache(loaded: LoadedCommand, dir: string): void {
  fs.writeFileSync(path.join(dir, CODE_CACHE_FILE), Buffer.concat([loaded.digest, loaded.script.createCachedData()]));
}

/** The bin: runs the command of the bundle in `dir` with the process's arguments. */
export function startCommand(dir: string): void {
  preferShortRun();
  loadCommand(dir).command.run();
}
