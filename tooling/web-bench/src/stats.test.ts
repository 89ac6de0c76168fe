import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { initialJs, median, percentile, replaceSection } from "./stats.js";

describe("web bench helpers", () => {
  it("computes nearest-rank percentiles", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 95)).toBe(95);
    expect(percentile(xs, 100)).toBe(100);
    expect(median([3, 1, 2])).toBe(2);
    expect(percentile([], 50)).toBeNaN();
  });
  it("sums the entry and preloaded scripts of index.html", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "web-bench-"));
    fs.mkdirSync(path.join(dir, "assets"));
    fs.writeFileSync(path.join(dir, "assets", "a.js"), "x".repeat(1000));
    fs.writeFileSync(path.join(dir, "assets", "b.js"), "y");
    fs.writeFileSync(
      path.join(dir, "index.html"),
      '<script type="module" src="/assets/a.js"></script><link rel="modulepreload" href="/assets/b.js">',
    );
    const size = initialJs(dir);
    expect(size.files).toEqual(["/assets/a.js", "/assets/b.js"]);
    expect(size.raw).toBe(1001);
    expect(size.gzip).toBeLessThan(100);
    fs.rmSync(dir, { recursive: true });
  });
  it("replaces its own section of a Markdown file and keeps the rest", () => {
    const once = replaceSection("# Benchmarks\n\nserver figures\n", "## Web UI\nv1");
    expect(once).toContain("server figures");
    const twice = replaceSection(once, "## Web UI\nv2");
    expect(twice).toContain("v2");
    expect(twice).not.toContain("v1");
    expect(twice.match(/web-ui:start/g)).toHaveLength(1);
  });
});
