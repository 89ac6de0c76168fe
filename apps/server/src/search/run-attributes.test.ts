import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { RUN_ATTRIBUTES } from "./filter-parser.js";

const require = createRequire(import.meta.url);

/** The RunSearchAttribute enum of the bundled ext.yaml, which the web UI's filter completion offers. */
function specRunAttributes(): string[] {
  const document = JSON.parse(fs.readFileSync(require.resolve("@tracker/spec/dist/ext.json"), "utf8")) as {
    components: { schemas: { RunSearchAttribute: { enum: string[] } } };
  };
  return document.components.schemas.RunSearchAttribute.enum;
}

describe("run attributes of filters", () => {
  it("are the spec's RunSearchAttribute enum, every one of them", () => {
    expect([...RUN_ATTRIBUTES].sort()).toEqual([...specRunAttributes()].sort());
  });
});
