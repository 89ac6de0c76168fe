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
 * Colours for a set of runs shown together: each run starts at its own hashed colour and moves to
 * the next free one when another run of the set (earlier in id order) holds it, so the set never
 * shows two runs alike (up to the palette's size) and a run keeps its colour whenever it can.
 */
export function colorsFor(ids: readonly string[]): Map<string, string> {
  const used = new Set<number>();
  const out = new Map<string, string>();
  for (const id of [...new Set(ids)].sort()) {
    let index = PALETTE.indexOf(colorFor(id));
    for (let probe = 0; probe < PALETTE.length && used.has(index); probe++) index = (index + 1) % PALETTE.length;
    used.add(index);
    if (used.size >= PALETTE.length) used.clear();
    out.set(id, PALETTE[index]!);
  }
  return out;
}
