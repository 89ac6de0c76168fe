// Generates src/generated/rev-{a,b,c}.ts from spec/rev-*.yaml, and src/generated/ext.ts from
// spec/ext.yaml (tracker's own operations), with openapi-typescript.
// Run by `pnpm build` (turbo re-runs it whenever @tracker/spec changes); the output is not committed.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, "..", "src", "generated");
fs.mkdirSync(outDir, { recursive: true });

for (const name of ["rev-a", "rev-b", "rev-c", "ext", "auth"]) {
  const spec = require.resolve(`@tracker/spec/${name}.yaml`);
  const ast = await openapiTS(pathToFileURL(spec), {
    exportType: false,
    alphabetize: false,
    defaultNonNullable: false,
  });
  const header = `// Generated from spec/${name}.yaml by openapi-typescript. Do not edit: run \`pnpm --filter @tracker/types generate\`.\n`;
  fs.writeFileSync(path.join(outDir, `${name}.ts`), header + astToString(ast));
  console.log(`generated src/generated/${name}.ts`);
}
