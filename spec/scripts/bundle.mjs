// Bundles each revision (with its $ref'd components) into one standalone document:
// dist/rev-{a,b,c}.json and .yaml, and dist/ext.json/.yaml for tracker's extensions. Used by the contract tests, the spec diff and the docs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..");
const redocly = path.join(root, "node_modules", ".bin", "redocly");
fs.mkdirSync(path.join(root, "dist"), { recursive: true });
for (const name of ["rev-a", "rev-b", "rev-c", "ext", "auth"]) {
  for (const ext of ["json", "yaml"]) {
    execFileSync(redocly, ["bundle", `${name}.yaml`, "-o", `dist/${name}.${ext}`], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: "off" },
      stdio: ["ignore", "ignore", "pipe"],
    });
  }
}
console.log("bundled dist/{rev-a,rev-b,rev-c,ext,auth}.{json,yaml}");
