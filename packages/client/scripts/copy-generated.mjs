// Copies the types generated from spec/rev-*.yaml (src/generated/rev-{a,b,c}.ts of @tracker/types) into
// src/generated/, so that the published package carries its own copy and depends on no private
// workspace package. Run by `build` and `typecheck`; the copies are not committed.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, "..", "src", "generated");
fs.mkdirSync(outDir, { recursive: true });

for (const revision of ["rev-a", "rev-b", "rev-c", "ext", "auth"]) {
  let source;
  try {
    source = require.resolve(`@tracker/types/${revision}`);
  } catch {
    source = undefined;
  }
  if (!source || !fs.existsSync(source)) {
    console.error(
      `copy-generated: @tracker/types has no generated ${revision}.ts; run \`pnpm --filter @tracker/types build\` (or \`pnpm build\` from the root) first`,
    );
    process.exit(1);
  }
  const text = fs.readFileSync(source, "utf8");
  const target = path.join(outDir, `${revision}.ts`);
  const header = `// Copied from @tracker/types by scripts/copy-generated.mjs. Do not edit.\n`;
  const next = header + text;
  if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== next) fs.writeFileSync(target, next);
}
console.log("copied src/generated/{rev-a,rev-b,rev-c,ext,auth}.ts from @tracker/types");
