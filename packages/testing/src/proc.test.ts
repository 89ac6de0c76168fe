import { spawn } from "node:child_process";
import fs from "node:fs";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { ownCpuMs, processTreeCpuMs, procStats } from "./proc.js";

describe.runIf(process.platform === "linux")("processTreeCpuMs", () => {
  it("counts the CPU of a process's live descendants", async () => {
    // A shell whose child spins for 300 ms of CPU, then waits to be stopped.
    const shell = spawn("sh", [
      "-c",
      `${process.execPath} -e 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 300_000);' & wait; exec sleep 30`,
    ]);
    try {
      let cpu = processTreeCpuMs(shell.pid!);
      while (cpu < 300) {
        await new Promise((r) => setTimeout(r, 50));
        cpu = processTreeCpuMs(shell.pid!);
      }
      expect(cpu).toBeGreaterThanOrEqual(300);
      expect(processTreeCpuMs(process.pid)).toBeGreaterThanOrEqual(cpu);
    } finally {
      shell.kill("SIGKILL");
      await once(shell, "exit");
    }
  });
});

describe.runIf(process.platform === "linux")("procStats", () => {
  it("names each process and counts its own CPU", () => {
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user < 50_000);
    const self = procStats().find((p) => p.pid === process.pid);
    // The kernel's command name, as /proc/<pid>/comm shows it too.
    expect(self?.name).toBe(fs.readFileSync(`/proc/${process.pid}/comm`, "utf8").trim());
    expect(self?.ppid).toBe(process.ppid);
    const used = process.cpuUsage();
    // /proc counts in 10 ms ticks.
    expect(ownCpuMs(self!)).toBeGreaterThanOrEqual(50);
    expect(ownCpuMs(self!)).toBeLessThanOrEqual((used.user + used.system) / 1000 + 20);
  });
});
