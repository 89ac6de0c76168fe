import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtTemplateIsCurrent } from "./built-template.js";

describe("builtTemplateIsCurrent", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });
  /** A template made at `madeAt` and migration sources last changed at `changedAt` (seconds). */
  const layout = (madeAt: number | undefined, changedAt: number[]) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "template-check-"));
    roots.push(root);
    const template = path.join(root, "template");
    const migrations = path.join(root, "migrations");
    fs.mkdirSync(template);
    fs.mkdirSync(migrations);
    if (madeAt !== undefined) {
      fs.writeFileSync(path.join(template, "PG_VERSION"), "17\n");
      fs.utimesSync(path.join(template, "PG_VERSION"), madeAt, madeAt);
    }
    changedAt.forEach((at, i) => {
      const file = path.join(migrations, `000${i}_m.ts`);
      fs.writeFileSync(file, "");
      fs.utimesSync(file, at, at);
    });
    return { template, migrations };
  };

  it("takes a template made after every migration source", () => {
    const { template, migrations } = layout(2000, [1000, 1500, 2000]);
    expect(builtTemplateIsCurrent(template, migrations)).toBe(true);
  });
  it("refuses a template older than one migration source", () => {
    const { template, migrations } = layout(2000, [1000, 2500]);
    expect(builtTemplateIsCurrent(template, migrations)).toBe(false);
  });
  it("refuses a folder that holds no initialised data dir", () => {
    const { template, migrations } = layout(undefined, [1000]);
    expect(builtTemplateIsCurrent(template, migrations)).toBe(false);
  });
});
