import fs from "node:fs";
import os from "node:os";

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryBytes: number;
  kernel: string;
  node: string;
  loadAverage: number[];
}

export async function machineInfo(): Promise<MachineInfo> {
  let cpuModel = os.cpus()[0]?.model ?? "unknown";
  try {
    cpuModel =
      fs
        .readFileSync("/proc/cpuinfo", "utf8")
        .match(/^model name\s*:\s*(.+)$/m)?.[1]
        ?.trim() ?? cpuModel;
  } catch {
    // not Linux
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel,
    memoryBytes: os.totalmem(),
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverage: os.loadavg(),
  };
}
