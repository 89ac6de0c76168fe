// Golden files: every folder of src/fixtures holds a crafted pair before.yaml / after.yaml for one
// class of change, and expected.md, the report. UPDATE_GOLDEN=1 rewrites the expected files.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareSpecs } from "./compare.js";
import { renderMarkdown } from "./markdown.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const cases = fs.readdirSync(fixtures).filter((name) => fs.existsSync(path.join(fixtures, name, "before.yaml")));

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
      ]),
    );
  });

  for (const name of cases) {
    it(name, async () => {
      const dir = path.join(fixtures, name);
      const report = await compareSpecs("before.yaml", "after.yaml", { cwd: dir });
      const markdown = renderMarkdown(report);
      const expectedFile = path.join(dir, "expected.md");
      if (process.env.UPDATE_GOLDEN === "1") fs.writeFileSync(expectedFile, markdown);
      expect(markdown).toBe(fs.readFileSync(expectedFile, "utf8"));
    });
  }
});
