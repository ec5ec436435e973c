import { performance } from "node:perf_hooks";
import parseDiff from "parse-diff";
import { syntheticDiff } from "./synthetic-big-diff.js";

/**
 * parse-diff's median time on the big-PR bench's diff on the machine these targets were set on.
 * Machines differ ~2.5× in speed (and a shared one from minute to minute), so an absolute
 * target is scaled by parse-diff's time measured beside it: `target × measured / reference`.
 * CPU time is the steadier yardstick on a shared machine: a process waiting for a core
 * accrues wall time but not CPU time, so CPU is compared with CPU (wall is reported too).
 */
export const REFERENCE_PARSE_DIFF_MS = 215;

/** A yardstick for the machine's speed right now: one timing of parse-diff on the big diff. */
export interface ParseDiffReference {
  /** Times parse-diff once on the big-PR bench's diff: wall and this process's CPU, ms. */
  time(): { wallMs: number; cpuMs: number };
  /** `targetMs` on this machine: scaled by the median of `times` over the reference. */
  scaled(targetMs: number, times: readonly number[]): number;
}

/** Builds the big-PR bench's diff once (~10 MB) and times parse-diff on it when asked. */
export function parseDiffReference(): ParseDiffReference {
  const { text } = syntheticDiff();
  // Two warm-up runs, as the big-PR bench does, so the first timing is not the JIT's.
  parseDiff(text);
  parseDiff(text);
  return {
    time() {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      parseDiff(text);
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpuBefore);
      return { wallMs, cpuMs: (used.user + used.system) / 1000 };
    },
    scaled(targetMs, times) {
      return (targetMs * median(times)) / REFERENCE_PARSE_DIFF_MS;
    },
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}
