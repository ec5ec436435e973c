import { readdir, readFile, readlink } from "node:fs/promises";
import { sep } from "node:path";

/**
 * SIGKILLs every process (but us) whose working directory is `directory` or below it, found
 * through /proc, and returns their pids. A run's directory is fresh (mkdtemp), so whatever
 * works in it is the agent's: a tool it left in a session of its own (`setsid`) escapes the
 * process group killed when the agent exits. Best effort: a process that changed directory
 * away, or that we may not inspect, is not found (at the `bwrap` level the PID namespace
 * ends with the agent, so nothing is left there).
 */
export async function killProcessesWithin(
  directory: string,
  // Also every process whose environment holds this `NAME=value` entry: a run in a shared
  // copy works outside its own directory.
  marked: { environment?: string } = {},
): Promise<number[]> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  const killed: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => "");
    const within = cwd === directory || cwd.startsWith(`${directory}${sep}`);
    if (!within && !(await hasEntry(entry, marked.environment))) continue;
    try {
      process.kill(Number(entry), "SIGKILL");
      killed.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}

async function hasEntry(pid: string, entry: string | undefined): Promise<boolean> {
  if (entry === undefined) return false;
  const environ = await readFile(`/proc/${pid}/environ`).catch(() => null);
  return (environ?.toString("utf8").split("\0") ?? []).includes(entry);
}
