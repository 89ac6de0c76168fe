import v8 from "node:v8";

/**
 * How far a server process lets V8 grow its heap after each full garbage collection, in percent of
 * what survived it. Left to itself V8 picks a factor between 1.1 and 4 from how fast the program
 * allocates, and under steady request load it settles near the top: a server whose live heap is
 * ~40 MiB held 200-250 MiB resident while answering large searches (docs/benchmarks.md). A fixed
 * factor of 2 keeps that under ~180 MiB at the same request rates (measured with `pnpm bench`);
 * below ~60% the collector runs often enough to cost throughput.
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 100;

/** The largest value accepted: a factor of 4, V8's own upper bound. */
export const MAX_HEAP_GROWTH_PERCENT = 300;

/** True when node was started with its own `--heap-growing-percent` (flag or NODE_OPTIONS): that choice stands. */
export function heapGrowthChosenByNode(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? "",
): boolean {
  const given = (arg: string) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg);
  return execArgv.some(given) || nodeOptions.split(/\s+/).some(given);
}

/**
 * Applies the heap growth policy to this process (V8 reads the setting at every full collection, so
 * it takes effect at run time). `0` leaves V8's own policy; a `--heap-growing-percent` given to node
 * itself wins. Returns what is in force, for the log.
 */
export function limitHeapGrowth(
  percent: number,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? "",
): string {
  if (heapGrowthChosenByNode(execArgv, nodeOptions)) return "node's --heap-growing-percent";
  if (percent === 0) return "V8's own policy";
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return `${percent}%`;
}
