// The pages exist after the build (turbo runs `build` before `test`), link each other under
// /docs, and load nothing from the network.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { DOCS_PAGES, docsDirectory, docsFile } from "./index.js";

beforeAll(() => {
  if (!DOCS_PAGES.every((page) => fs.existsSync(docsFile(page)))) {
    execFileSync("node", [path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "scripts", "build.mjs")], {
      stdio: "pipe",
    });
  }
}, 120_000);

describe("the rendered API reference", () => {
  it("has an index, one page per revision and one for the extensions", () => {
    expect(fs.readdirSync(docsDirectory()).sort()).toEqual([
      "ext.html",
      "index.html",
      "rev-a.html",
      "rev-b.html",
      "rev-c.html",
    ]);
  });

  it("links the three revisions and the extensions from the index", () => {
    const index = fs.readFileSync(docsFile("index"), "utf8");
    for (const page of ["rev-a", "rev-b", "rev-c", "ext"]) expect(index).toContain(`href="/docs/${page}"`);
    expect(index).toContain("tracker API, revision C");
  });

  it.each(["a", "b", "c"] as const)("renders revision %s with Redoc embedded (no script from a CDN)", (revision) => {
    const html = fs.readFileSync(docsFile(`rev-${revision}`), "utf8");
    expect(html).toContain(`<title>tracker API, revision ${revision.toUpperCase()}</title>`);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain(
      revision === "c" ? "/2.0/tracker/experiments/create" : "/2.0/preview/tracker/experiments/create",
    );
  });

  it("renders the extensions (ext.yaml) with Redoc embedded", () => {
    const html = fs.readFileSync(docsFile("ext"), "utf8");
    expect(html).toContain("<title>tracker API, extensions</title>");
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain("/api/2.0/tracker/server-info");
  });
});
