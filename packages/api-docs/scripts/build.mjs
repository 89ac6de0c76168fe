// Builds the API reference into dist/: rev-{a,b,c}.html and ext.html (tracker's extensions) with `redocly build-docs --inlineBundle`
// (Redoc's script embedded: the pages need no network, neither to build nor to view), and
// index.html linking them. Run: pnpm docs (from the root) or pnpm --filter @tracker/api-docs build.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
const redocly = path.join(root, "node_modules", ".bin", "redocly");
const require = createRequire(import.meta.url);
const mount = process.env.TRACKER_DOCS_MOUNT ?? "/docs";

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
const pages = [];
for (const revision of ["a", "b", "c", "ext"]) {
  const name = revision === "ext" ? "ext" : `rev-${revision}`;
  const spec = require.resolve(`@tracker/spec/${name}.yaml`);
  const info = parse(fs.readFileSync(spec, "utf8")).info ?? {};
  const title = info.title ?? `tracker API, revision ${revision.toUpperCase()}`;
  execFileSync(
    redocly,
    ["build-docs", spec, "--inlineBundle", "--title", title, "-o", path.join(dist, `${name}.html`)],
    {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const summary =
    String(info.description ?? "")
      .split("\n")
      .find((line) => line.trim() !== "") ?? "";
  pages.push({ name, title, summary });
}

const escapeHtml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const index = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tracker API reference</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #222; }
  li { margin: 0.8rem 0; }
  a { font-weight: 600; }
  code { background: #f3f3f3; padding: 0 0.2rem; }
</style>
</head>
<body>
<h1>tracker API reference</h1>
<p>One server answers all three revisions of the API, and tracker's own operations beyond them (the extensions). Pick the revision your client speaks:</p>
<ul>
${pages.map((p) => `<li><a href="${mount}/${p.name}">${escapeHtml(p.title)}</a><br>${escapeHtml(p.summary)}</li>`).join("\n")}
</ul>
<p>The changes between the revisions, each classified breaking, non-breaking or annotation, are in
<code>docs/revisions.md</code> of the repository; compare any two specs with <code>pnpm spec:diff &lt;from&gt; &lt;to&gt;</code>.</p>
</body>
</html>
`;
fs.writeFileSync(path.join(dist, "index.html"), index);
console.log(`built ${path.relative(process.env.INIT_CWD ?? process.cwd(), dist)}/{index,rev-a,rev-b,rev-c,ext}.html`);
