import fs from "node:fs";

/** A process as /proc/<pid>/stat shows it: its name, its parent and the fields after its name. */
export interface ProcStat {
  pid: number;
  /** The command name (at most 15 characters, e.g. "postgres"). */
  name: string;
  ppid: number;
  /** `state ppid pgrp ...`: the fields after the last ")" (the name may hold spaces and parentheses). */
  fields: string[];
}

/** Every process's /proc/<pid>/stat (Linux; elsewhere none). */
export function procStats(): ProcStat[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const stats: ProcStat[] = [];
  for (const entry of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      stats.push({ pid: Number(entry), name, ppid: Number(fields[1]), fields });
    } catch {
      // exited meanwhile
    }
  }
  return stats;
}

/** The processes whose parent is `parent` (Linux: read from /proc; elsewhere none). */
export function childProcesses(parent: number): number[] {
  return procStats()
    .filter((p) => p.ppid === parent)
    .map((p) => p.pid);
}

/** CPU time (ms) a process has used itself, user and system (from its /proc stat fields). */
export const ownCpuMs = (p: ProcStat): number => (Number(p.fields[11]) + Number(p.fields[12])) * 10;

/** CPU time (ms) a process and its descendants have used, those they waited for included (Linux: /proc; else 0). */
export function processTreeCpuMs(pid: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const p of procStats()) {
    // utime, stime, cutime, cstime: the 12th-15th fields after the name, in ticks (100 a second).
    cpu.set(p.pid, [11, 12, 13, 14].reduce((sum, i) => sum + Number(p.fields[i]), 0) * 10);
    children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  }
  const tree = (p: number): number => (children.get(p) ?? []).reduce((sum, c) => sum + tree(c), cpu.get(p) ?? 0);
  return tree(pid);
}
