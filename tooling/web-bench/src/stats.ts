// Small statistics and size helpers of the web benchmark.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** The p-th percentile (0..100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** The scripts index.html loads at start (entry + modulepreload), with raw and gzipped bytes. */
export function initialJs(distDir: string): { files: string[]; raw: number; gzip: number } {
  const html = fs.readFileSync(path.join(distDir, "index.html"), "utf8");
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let raw = 0;
  let gzip = 0;
  for (const file of new Set(files)) {
    const bytes = fs.readFileSync(path.join(distDir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: [...new Set(files)], raw, gzip };
}

/** Replaces (or appends) the section between the markers in a Markdown file. */
export function replaceSection(
  markdown: string,
  section: string,
  start = "<!-- web-ui:start -->",
  end = "<!-- web-ui:end -->",
): string {
  const block = `${start}\n${section.trim()}\n${end}`;
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from !== -1 && to > from) return markdown.slice(0, from) + block + markdown.slice(to + end.length);
  return `${markdown.trimEnd()}\n\n${block}\n`;
}
