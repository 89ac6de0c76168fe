import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { OPERATIONS_BY_REVISION } from "./operations-table.js";

const run = promisify(execFile);
const specDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const redocly = path.join(specDir, "node_modules", ".bin", "redocly");
const env = { ...process.env, REDOCLY_TELEMETRY: "off" };
const METHODS = ["get", "post", "put", "patch", "delete"];

async function lint(cwd: string, files: string[]) {
  try {
    const { stdout, stderr } = await run(redocly, ["lint", "--format=stylish", ...files], { cwd, env });
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

describe("spec lint (redocly, config spec/redocly.yaml)", () => {
  it("passes with zero errors on rev-a, rev-b, rev-c, ext and auth", async () => {
    const result = await lint(specDir, ["rev-a.yaml", "rev-b.yaml", "rev-c.yaml", "ext.yaml", "auth.yaml"]);
    expect(result.output).not.toMatch(/error/i);
    expect(result.ok).toBe(true);
  });

  it("fails on a deliberately broken copy", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-spec-broken-"));
    fs.cpSync(path.join(specDir, "components"), path.join(dir, "components"), { recursive: true });
    fs.copyFileSync(path.join(specDir, "redocly.yaml"), path.join(dir, "redocly.yaml"));
    const doc = parse(fs.readFileSync(path.join(specDir, "rev-c.yaml"), "utf8"));
    // Break it: an operation without responses and a reference to a missing schema.
    const first = Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>)[0];
    const operation = first[Object.keys(first).find((m) => METHODS.includes(m))!];
    delete operation.responses;
    operation.description = undefined;
    doc.components.schemas.Broken = { $ref: "#/components/schemas/DoesNotExist" };
    fs.writeFileSync(path.join(dir, "rev-c.yaml"), JSON.stringify(doc));
    const result = await lint(dir, ["rev-c.yaml"]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/error/i);
  });
});

describe.each(["a", "b", "c"] as const)("rev-%s.yaml operations", (revision) => {
  const doc = parse(fs.readFileSync(path.join(specDir, `rev-${revision}.yaml`), "utf8"));
  const listed: string[] = [];
  for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) if (METHODS.includes(method)) listed.push(`${method.toUpperCase()} ${p}`);
  }

  it("lists exactly the operations of the interface document", () => {
    const expected = OPERATIONS_BY_REVISION[revision].map(([m, p]) => `${m.toUpperCase()} ${p}`);
    expect([...listed].sort()).toEqual([...expected].sort());
  });

  it("gives every operation an operationId, a description and error responses", () => {
    for (const item of Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        expect(op.operationId, JSON.stringify(op).slice(0, 80)).toBeTypeOf("string");
        expect(op.description, String(op.operationId)).toBeTypeOf("string");
        const responses = op.responses as Record<string, unknown>;
        for (const status of ["200", "401", "500", "503"])
          expect(responses[status], `${op.operationId} ${status}`).toBeDefined();
        // An operation that takes input documents how bad input is refused.
        if (op.parameters || op.requestBody) expect(responses["400"], `${op.operationId} 400`).toBeDefined();
      }
    }
  });
});

describe("ext.yaml (tracker's own operations)", () => {
  const doc = parse(fs.readFileSync(path.join(specDir, "ext.yaml"), "utf8"));
  const operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
    ([p, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, path: p, op })),
  );

  it("adds operations only: none of them is an operation of revisions A-C (absolute paths, /api included)", () => {
    const revisionOps = new Set(
      Object.values(OPERATIONS_BY_REVISION).flatMap((ops) => ops.map(([m, p]) => `${m.toUpperCase()} /api${p}`)),
    );
    expect(operations.length).toBeGreaterThan(0);
    for (const { key, path: p } of operations) {
      expect(p.startsWith("/"), key).toBe(true);
      expect(revisionOps.has(key), key).toBe(false);
    }
  });

  it("gives every operation an operationId, a description and its error responses", () => {
    const ids = new Set<string>();
    for (const { key, op } of operations) {
      expect(op.operationId, key).toBeTypeOf("string");
      expect(ids.has(op.operationId as string), `${key}: duplicate operationId`).toBe(false);
      ids.add(op.operationId as string);
      expect(op.description, key).toBeTypeOf("string");
      const responses = op.responses as Record<string, unknown>;
      expect(responses["500"], `${key} 500`).toBeDefined();
      // Operations open without a token (health probes) say so with `security: [{}]`.
      const open =
        Array.isArray(op.security) && op.security.length === 1 && Object.keys(op.security[0] as object).length === 0;
      if (!open) expect(responses["401"], `${key} 401`).toBeDefined();
      if (op.parameters || op.requestBody) expect(responses["400"], `${key} 400`).toBeDefined();
    }
  });
});
