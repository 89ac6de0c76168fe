// Writes docs/revisions.md (pnpm spec:diff:docs).
import fs from "node:fs";
import path from "node:path";
import { renderRevisionsDocument, REVISIONS_DOCUMENT } from "../src/revisions.js";

fs.mkdirSync(path.dirname(REVISIONS_DOCUMENT), { recursive: true });
fs.writeFileSync(REVISIONS_DOCUMENT, await renderRevisionsDocument());
console.log(`wrote ${path.relative(process.env.INIT_CWD ?? process.cwd(), REVISIONS_DOCUMENT)}`);
