// The published command as a stranger gets it: `pnpm pack` (which writes the real versions in
// place of catalog: ranges, as `pnpm publish` does), installed with npm in a fresh folder, run on
// two foreign OpenAPI documents: a YAML file and a JSON one served over HTTP.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const foreign = path.join(pkg, "src", "fixtures", "foreign");

describe("the packed command in a fresh project", () => {
  let dir: string;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-pack-"));
    if (!fs.existsSync(path.join(pkg, "dist", "bin.cjs"))) {
      execFileSync("pnpm", ["run", "build"], { cwd: pkg, stdio: "pipe" });
    }
    execFileSync("pnpm", ["pack", "--pack-destination", dir], { cwd: pkg, stdio: "pipe" });
    const tarball = fs.readdirSync(dir).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error("pnpm pack wrote no tarball");
    const project = path.join(dir, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "fresh", private: true }));
    execFileSync(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", path.join(dir, tarball)],
      { cwd: project, stdio: "pipe" },
    );
    fs.copyFileSync(path.join(foreign, "petstore-v1.yaml"), path.join(project, "old.yaml"));
    const body = fs.readFileSync(path.join(foreign, "petstore-v2.json"));
    server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
  }, 180_000);
  afterAll(() => {
    server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("has no workspace-only dependency", () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(dir, "project", "node_modules", "@tracker-ml", "spec-diff", "package.json"), "utf8"),
    ) as { dependencies: Record<string, string>; devDependencies?: unknown };
    for (const range of Object.values(manifest.dependencies)) expect(range).not.toMatch(/^(workspace|catalog):/);
  });

  it("diffs a file against a URL, with lines, and gates on breaking changes", async () => {
    // Asynchronous: the test process serves the URL while the command runs.
    const bin = path.join(dir, "project", "node_modules", ".bin", "spec-diff");
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(bin, ["old.yaml", url, "--format", "text", "--fail-on", "breaking"], {
        cwd: path.join(dir, "project"),
        env: { ...process.env, INIT_CWD: "", NO_COLOR: "1" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => {
        stdout += d;
      });
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.stderr).toContain("5 unacknowledged breaking changes (--fail-on breaking)");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`API changes: old.yaml → ${url}`);
    expect(result.stdout).toContain("type of `id` changed: integer (int64) → string");
    expect(result.stdout).toContain(`old.yaml:42:15 → ${url}:46:11`);
  });

  it("prints its help", () => {
    const bin = path.join(dir, "project", "node_modules", ".bin", "spec-diff");
    const help = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: spec-diff [options] <from> [to]");
  });
});
