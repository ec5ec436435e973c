import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** A V8 CPU profile as `node --cpu-prof` writes it. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  /** Microseconds on the monotonic clock, as `process.hrtime` reads it. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface HotFunction {
  /** `name (file:line)`, the file relative to the package when it is one of ours. */
  name: string;
  selfMs: number;
  /** Share of the samples in the windows, percent. */
  percent: number;
}

/** A stretch of time, in microseconds of the monotonic clock (`process.hrtime.bigint() / 1000n`). */
export type Window = readonly [start: number, end: number];

const shortUrl = (url: string): string => {
  const path = url.replace(/^file:\/\//, "");
  const inDist = path.lastIndexOf("/dist/");
  if (inDist >= 0) return path.slice(inDist + 1);
  const inModules = path.lastIndexOf("/node_modules/");
  return inModules >= 0 ? path.slice(inModules + "/node_modules/".length) : path;
};

/**
 * The functions with the most self time in the samples that fall inside `windows` (every
 * sample when none are given), by function and place: the profile's flat "bottom-up" view.
 * `(idle)` is left out: it is the process waiting, not working.
 */
export function hottestFunctions(
  profile: CpuProfile,
  windows: readonly Window[],
  count: number,
): HotFunction[] {
  const nameOf = new Map(
    profile.nodes.map((node) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const place = url === "" ? "" : ` (${shortUrl(url)}:${lineNumber + 1})`;
      return [node.id, `${functionName === "" ? "(anonymous)" : functionName}${place}`];
    }),
  );
  const selfTime = new Map<string, number>();
  let total = 0;
  let time = profile.startTime;
  for (const [index, id] of profile.samples.entries()) {
    time += profile.timeDeltas[index] ?? 0;
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const inside =
      windows.length === 0 || windows.some(([start, end]) => time >= start && time <= end);
    const name = nameOf.get(id) ?? "?";
    if (!inside || name === "(idle)") continue;
    selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
    total += delta;
  }
  return [...selfTime]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => ({
      name,
      selfMs: Math.round(micros / 100) / 10,
      percent: total === 0 ? 0 : Math.round((micros / total) * 1000) / 10,
    }));
}

/** Reads the one profile `node --cpu-prof --cpu-prof-dir=<directory>` wrote on exit. */
export async function readCpuProfile(directory: string): Promise<CpuProfile> {
  const files = (await readdir(directory)).filter((file) => file.endsWith(".cpuprofile"));
  const file = files.sort().at(-1);
  if (file === undefined) throw new Error(`no .cpuprofile in ${directory}`);
  return JSON.parse(await readFile(join(directory, file), "utf8")) as CpuProfile;
}

/** The monotonic clock in the profile's unit. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);
