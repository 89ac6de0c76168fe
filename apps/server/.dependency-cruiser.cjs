/**
 * The server's layering, checked by `pnpm lint` (depcruise): imports go one way,
 *
 *   http → core → search → store → db
 *
 * and every folder may import the bottom layer: domain/ (record types, system-tag names),
 * errors.ts, config/, logging/ and runtime/. No import circle anywhere, type-only imports included.
 * layering.test.ts shows that an upward import or a circle fails the check.
 */

/** `^src/(a|b)/`: a path pattern for the given folders of src/. */
const folders = (...names) => `^src/(${names.join("|")})/`;
/** src/server.ts, src/index.ts and src/cli.ts wire every layer together: the top. */
const TOP = ["http", "cli", "compat"];

/** One rule per layer: what it must not import (everything above it). */
const layers = [
  { name: "core", above: [...TOP] },
  { name: "search", above: [...TOP, "core"] },
  { name: "store", above: [...TOP, "core", "search"] },
  { name: "db", above: [...TOP, "core", "search", "store"] },
  { name: "domain", above: [...TOP, "core", "search", "store", "db", "config", "logging", "runtime"] },
  { name: "config", above: [...TOP, "core", "search", "store", "db"] },
  { name: "logging", above: [...TOP, "core", "search", "store", "db", "config"] },
  { name: "runtime", above: [...TOP, "core", "search", "store", "db", "config"] },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: the layers must form a one-way chain (see .dependency-cruiser.cjs).",
      from: {},
      to: { circular: true },
    },
    ...layers.map(({ name, above }) => ({
      name: `no-upward-from-${name}`,
      severity: "error",
      comment: `src/${name}/ sits below ${above.join(", ")}: it must not import them (see .dependency-cruiser.cjs).`,
      from: { path: folders(name) },
      to: { path: [folders(...above), "^src/(server|index|cli)\\.ts$"] },
    })),
    {
      name: "no-upward-from-errors",
      severity: "error",
      comment: "src/errors.ts is below every layer.",
      from: { path: "^src/errors\\.ts$" },
      to: { path: "^src/", pathNot: "^src/errors\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
