/**
 * The rendered API reference, built by `pnpm docs` (this package's build): one self-contained
 * Redoc page per revision, and an index page linking them. The server serves the folder at /docs.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export type DocsPage = "index" | "rev-a" | "rev-b" | "rev-c" | "ext";

/** The pages, in the order of the index. */
export const DOCS_PAGES: readonly DocsPage[] = ["index", "rev-a", "rev-b", "rev-c", "ext"];

/** The URL path the pages link each other under. */
export const DOCS_MOUNT = "/docs";

/**
 * Absolute folder of the built pages: `index.html`, `rev-a.html`, `rev-b.html`, `rev-c.html`.
 * Serve it with `app.use("/docs", express.static(docsDirectory(), { extensions: ["html"] }))`, so that
 * `/docs` answers index.html and `/docs/rev-a` answers rev-a.html.
 */
export function docsDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist");
}

/** Absolute path of one built page. */
export function docsFile(page: DocsPage): string {
  return path.join(docsDirectory(), `${page}.html`);
}
