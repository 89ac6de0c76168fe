// Run by `pnpm build` after tsc: writes the migrated PGlite template next to the compiled server.
import { buildPgliteTemplate, DEFAULT_TEMPLATE_DIR } from "./pglite-template.js";

const started = Date.now();
await buildPgliteTemplate(DEFAULT_TEMPLATE_DIR);
console.log(`PGlite template ready in ${DEFAULT_TEMPLATE_DIR} (${Date.now() - started} ms)`);
