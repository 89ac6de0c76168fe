import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult, type IConfiguration } from "dependency-cruiser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The layering check of `pnpm lint` (.dependency-cruiser.cjs) fails on an upward import and on an
 * import circle: it is run here on a small tree with the server's folders, written to a temporary
 * folder, with one allowed import and one of each violation.
 */

const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as IConfiguration;

const FILES: Record<string, string> = {
  "src/domain/records.ts": "export interface Thing { name: string }\n",
  "src/store/things.ts": 'import type { Thing } from "../domain/records.js";\nexport const things: Thing[] = [];\n',
  "src/core/things.ts": 'import { things } from "../store/things.js";\nexport const count = () => things.length;\n',
  "src/http/things.ts":
    'import { count } from "../core/things.js";\nexport const handler = () => ({ count: count() });\n',
  // Upward: the store reaches into the core.
  "src/store/upward.ts": 'import { count } from "../core/things.js";\nexport const n = count();\n',
  // A circle inside one layer.
  "src/search/ping.ts": 'import { pong } from "./pong.js";\nexport const ping = () => pong();\n',
  "src/search/pong.ts": 'import { ping } from "./ping.js";\nexport const pong = () => ping();\n',
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "layering-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const { tsConfig: _ignored, ...options } = config.options ?? {};
  const output = await cruise(["src"], {
    ...options,
    validate: true,
    baseDir: root,
    ruleSet: { forbidden: config.forbidden },
  });
  result = output.output as ICruiseResult;
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("layering check (.dependency-cruiser.cjs)", () => {
  it("reports the upward import and the circle, and nothing else", () => {
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    // A circle is reported once, from whichever of its files the cruise met first.
    expect(violations.filter((v) => v.startsWith("no-circular"))).toEqual([
      expect.stringMatching(/^no-circular: src\/search\/(ping|pong)\.ts -> src\/search\/(ping|pong)\.ts$/),
    ]);
    expect(violations.filter((v) => !v.startsWith("no-circular"))).toEqual([
      "no-upward-from-store: src/store/upward.ts -> src/core/things.ts",
    ]);
    expect(result.summary.error).toBe(2);
  });
});
