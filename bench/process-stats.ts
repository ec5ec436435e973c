import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";

export interface ProcessStats {
  /** User + system CPU time the process has used so far. */
  cpuMs: number;
  userMs: number;
  systemMs: number;
  /** Resident set size now (VmRSS). */
  rssMb: number;
  /** Peak resident set size over the process's life (VmHWM). */
  peakRssMb: number;
}

let ticksPerSecond: number | undefined;

/** Reads another process's CPU time and memory from /proc (Linux), without its cooperation. */
export async function readProcessStats(pid: number): Promise<ProcessStats> {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  const [stat, status] = await Promise.all([
    readFile(`/proc/${pid}/stat`, "utf8"),
    readFile(`/proc/${pid}/status`, "utf8"),
  ]);
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis,
  // where field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const userMs = (Number(fields[11]) * 1000) / ticksPerSecond;
  const systemMs = (Number(fields[12]) * 1000) / ticksPerSecond;
  const kilobytes = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return {
    cpuMs: userMs + systemMs,
    userMs,
    systemMs,
    rssMb: kilobytes("VmRSS") / 1024,
    peakRssMb: kilobytes("VmHWM") / 1024,
  };
}
