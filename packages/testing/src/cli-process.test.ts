import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { processTreeCpuMs } from "./cli-process.js";

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
