// Golden files: every folder of src/fixtures holds a crafted pair before.yaml / after.yaml for one
// class of change, and the report in every format: expected.md, expected.json, expected.txt (the
// terminal view without colours) and expected.github.txt (GitHub Actions annotations).
// UPDATE_GOLDEN=1 rewrites them (review the diff).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareSpecs } from "./compare.js";
import { renderGithubAnnotations } from "./github.js";
import { renderMarkdown } from "./markdown.js";
import { renderText } from "./text.js";
import type { Report } from "./types.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const cases = fs.readdirSync(fixtures).filter((name) => fs.existsSync(path.join(fixtures, name, "before.yaml")));

const FORMATS: Array<[file: string, render: (report: Report) => string]> = [
  ["expected.md", (r) => renderMarkdown(r)],
  ["expected.json", (r) => `${JSON.stringify(r, null, 2)}\n`],
  ["expected.txt", (r) => renderText(r, { colour: false })],
  ["expected.github.txt", (r) => renderGithubAnnotations(r)],
];

describe("golden reports of crafted spec pairs", () => {
  it("has a case for every class of change", () => {
    expect(cases).toEqual(
      expect.arrayContaining([
        "operations",
        "fields",
        "type-change",
        "enum-change",
        "required-change",
        "deprecation",
        "path-prefix",
        "annotations",
        "external-refs",
        "acknowledged",
      ]),
    );
  });

  for (const name of cases) {
    it(name, async () => {
      const dir = path.join(fixtures, name);
      const report = await compareSpecs("before.yaml", "after.yaml", { cwd: dir });
      for (const [file, render] of FORMATS) {
        const actual = render(report);
        const expectedFile = path.join(dir, file);
        if (process.env.UPDATE_GOLDEN === "1") fs.writeFileSync(expectedFile, actual);
        expect(actual, `${name}/${file}`).toBe(fs.readFileSync(expectedFile, "utf8"));
      }
    });
  }
});
