// Stable colours: a run keeps its colour across pages, reloads and selections (hash of its id).
const PALETTE = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
  "#4e79a7",
  "#f28e2b",
];

export function colorFor(id: string): string {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  return PALETTE[(hash >>> 0) % PALETTE.length]!;
}

/**
 * The n-th colour past the palette: hues a golden angle apart, in three lightness bands (readable on
 * light and dark backgrounds), so any number of runs gets colours no two alike.
 */
export function extraColor(n: number): string {
  const hue = Math.round((n * 137.508 + 20) % 360);
  const lightness = [48, 62, 38][n % 3]!;
  return `hsl(${hue} 70% ${lightness}%)`;
}

/**
 * Colours for a set of runs shown together: each run starts at its own hashed colour and moves to
 * the next free one when another run of the set (earlier in id order) holds it; once the palette
 * is used up, the others get generated colours. No two runs of a set look alike, and a run keeps
 * its colour whenever it can.
 */
export function colorsFor(ids: readonly string[]): Map<string, string> {
  const used = new Set<number>();
  const out = new Map<string, string>();
  let extra = 0;
  for (const id of [...new Set(ids)].sort()) {
    if (used.size >= PALETTE.length) {
      out.set(id, extraColor(extra++));
      continue;
    }
    let index = PALETTE.indexOf(colorFor(id));
    while (used.has(index)) index = (index + 1) % PALETTE.length;
    used.add(index);
    out.set(id, PALETTE[index]!);
  }
  return out;
}
