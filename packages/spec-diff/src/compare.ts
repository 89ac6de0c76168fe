import { diffDocuments, type DiffOptions } from "./diff.js";
import { loadSpec } from "./load.js";
import type { Report } from "./types.js";

export interface CompareOptions extends Omit<DiffOptions, "from" | "to"> {
  /** Where relative paths start; default: the directory pnpm was started in (INIT_CWD), else the process's. */
  cwd?: string;
}

/** Loads two inputs (revision names, files or `<git-ref>:<path>`) and compares them. */
export async function compareSpecs(from: string, to: string, options: CompareOptions = {}): Promise<Report> {
  const cwd = options.cwd ?? process.env.INIT_CWD ?? process.cwd();
  const [before, after] = await Promise.all([loadSpec(from, cwd), loadSpec(to, cwd)]);
  return diffDocuments(before.document, after.document, { ...options, from: before.label, to: after.label });
}
