import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildProgram } from "./main.js";

/**
 * docs/deploy.md lists every setting in one table: this keeps the table true to the code. Every
 * flag of `tracker server` and every environment variable the server's configuration reads must
 * appear in a row of it.
 */

const docPath = fileURLToPath(new URL("../../../../docs/deploy.md", import.meta.url));
const sources = ["../config/config.ts", "../db/connect.ts", "./users.ts"].map((f) =>
  fs.readFileSync(fileURLToPath(new URL(f, import.meta.url)), "utf8"),
);

/** The table rows of the "Every setting" section. */
function settingRows(): string {
  const doc = fs.readFileSync(docPath, "utf8");
  const section = doc.slice(doc.indexOf("## Every setting"));
  return section
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .join("\n");
}

describe("docs/deploy.md", () => {
  it("names every flag of `tracker server` in its settings table", () => {
    const server = buildProgram().commands.find((c) => c.name() === "server")!;
    const flags = server.options.map((o) => o.long!).filter(Boolean);
    expect(flags.length).toBeGreaterThan(20);
    const rows = settingRows();
    expect(flags.filter((flag) => !rows.includes(`\`${flag}`))).toEqual([]);
  });

  it("names every environment variable the server reads in its settings table", () => {
    const names = new Set(sources.flatMap((src) => [...src.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!)));
    expect(names.size).toBeGreaterThan(20);
    const rows = settingRows();
    expect([...names].filter((name) => !rows.includes(name))).toEqual([]);
  });
});
