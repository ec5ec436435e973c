/**
 * Clustering throughput: 1k, 10k and 50k synthetic findings at ~20 findings per file, the
 * density of a large review (bench/synthetic-findings.ts), and 10k whose subjects vary so that
 * few texts repeat (reported, not judged). Each clustering run alternates with a timing of
 * parse-diff on the big-PR bench's diff, so the machine's speed at that moment (it is shared)
 * scales the target: 10k findings < 500 ms where parse-diff takes 215 ms, judged in CPU time
 * (CPU ÷ parse-diff's CPU < 2.33; wall is reported too). Near-linear growth: (50k CPU / 10k
 * CPU) / 5 is printed as `linearity` (1.0 is linear). Medians of the runs; the garbage of one
 * run is collected before the next is timed.
 * Prints a table and one JSON line; exits 1 when 10k misses its scaled target.
 * Run: `npx tsx bench/clustering.ts`.
 */
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { clusterFindings } from "../src/consensus/cluster-findings.js";
import type { Finding } from "../src/consensus/finding.js";
import { median, parseDiffReference, REFERENCE_PARSE_DIFF_MS } from "./parse-diff-reference.js";
import { printReport } from "./print-report.js";
import { FINDINGS_PER_FILE, MODELS, syntheticFindings } from "./synthetic-findings.js";

const TARGET_10K_MS = 500;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const reference = parseDiffReference();
const parseDiffCpuTimes: number[] = [];

interface Timing {
  /** Medians over the runs: wall and CPU of clustering, and of parse-diff timed between them. */
  ms: number;
  cpuMs: number;
  parseDiffMs: number;
  parseDiffCpuMs: number;
  clusters: number;
}

function timeClustering(findings: readonly Finding[], runs: number): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  const theirWall: number[] = [];
  const theirCpu: number[] = [];
  let clusters = 0;
  for (let run = 0; run < runs; run += 1) {
    collectGarbage();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    clusters = clusterFindings(findings, { modelOrder: MODELS }).length;
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    collectGarbage();
    const theirs = reference.time();
    theirWall.push(theirs.wallMs);
    theirCpu.push(theirs.cpuMs);
  }
  parseDiffCpuTimes.push(...theirCpu);
  return {
    ms: median(wall),
    cpuMs: median(cpu),
    parseDiffMs: median(theirWall),
    parseDiffCpuMs: median(theirCpu),
    clusters,
  };
}

const ratio = (mine: number, theirs: number) => Number((mine / theirs).toFixed(2));
timeClustering(syntheticFindings(1_000, 7), 2); // warm the JIT
const sizes: Array<[number, number]> = [
  [1_000, 7],
  [10_000, 7],
  [50_000, 3],
];
const results = sizes.map(([size, runs]) => {
  const timing = timeClustering(syntheticFindings(size, size), runs);
  return {
    findings: size,
    files: Math.round(size / FINDINGS_PER_FILE),
    clusters: timing.clusters,
    ms: Math.round(timing.ms),
    cpuMs: Math.round(timing.cpuMs),
    parseDiffMs: Math.round(timing.parseDiffMs),
    parseDiffCpuMs: Math.round(timing.parseDiffCpuMs),
    /** CPU ÷ parse-diff's CPU: what is judged. */
    vsParseDiff: ratio(timing.cpuMs, timing.parseDiffCpuMs),
    wallVsParseDiff: ratio(timing.ms, timing.parseDiffMs),
  };
});
const varied = timeClustering(syntheticFindings(10_000, 11, FINDINGS_PER_FILE, 5_000), 5);

const growth = results.slice(1).map((result, index) => {
  const previous = results[index];
  const sizeRatio = previous === undefined ? 1 : result.findings / previous.findings;
  const timeRatio = previous === undefined ? 1 : result.cpuMs / Math.max(1, previous.cpuMs);
  return {
    from: previous?.findings,
    to: result.findings,
    sizeRatio,
    timeRatio: Number(timeRatio.toFixed(2)),
  };
});
const ofSize = (size: number) => results.find((result) => result.findings === size);
const tenThousand = ofSize(10_000);
const fiftyThousand = ofSize(50_000);
// Per finding, 50k against 10k, in CPU time (wall on a shared machine swings with neighbours).
const linearity =
  tenThousand === undefined || fiftyThousand === undefined
    ? Number.NaN
    : Number((fiftyThousand.cpuMs / tenThousand.cpuMs / 5).toFixed(2));
const parseDiffCpuMs = median(parseDiffCpuTimes);
const targetRatio = TARGET_10K_MS / REFERENCE_PARSE_DIFF_MS;
const budgetMs = Math.round(
  (TARGET_10K_MS * (tenThousand?.parseDiffCpuMs ?? Number.NaN)) / REFERENCE_PARSE_DIFF_MS,
);
const withinBudget = tenThousand !== undefined && tenThousand.vsParseDiff < targetRatio;

console.log(
  "findings  files  clusters  wall ms  CPU ms  parse-diff CPU ms  CPU ÷ parse-diff  growth (CPU ratio / size ratio)",
);
for (const [index, result] of results.entries()) {
  const step = index === 0 ? undefined : growth[index - 1];
  const steps = step === undefined ? "" : `${step.timeRatio}x / ${step.sizeRatio}x`;
  console.log(
    `${String(result.findings).padStart(8)}  ${String(result.files).padStart(5)}  ${String(result.clusters).padStart(8)}  ${String(result.ms).padStart(7)}  ${String(result.cpuMs).padStart(6)}  ${String(result.parseDiffCpuMs).padStart(17)}  ${result.vsParseDiff.toFixed(2).padStart(16)}  ${steps}`,
  );
}
printReport(
  [
    [
      "parse-diff on the big-PR diff, median CPU ms",
      `${parseDiffCpuMs.toFixed(0)} (reference ${REFERENCE_PARSE_DIFF_MS})`,
    ],
    [
      "10k findings: CPU ÷ parse-diff's CPU",
      `${tenThousand?.vsParseDiff ?? "?"} (target < ${TARGET_10K_MS}/${REFERENCE_PARSE_DIFF_MS} = ${targetRatio.toFixed(2)}, i.e. < ${budgetMs} ms CPU here)`,
    ],
    ["10k findings: wall ÷ parse-diff's wall", `${tenThousand?.wallVsParseDiff ?? "?"}`],
    ["linearity: (50k CPU / 10k CPU) / 5", `${linearity} (1.0 is linear)`],
    [
      "10k, varied subjects (few texts repeat): CPU ms, ÷ parse-diff",
      `${Math.round(varied.cpuMs)}, ${ratio(varied.cpuMs, varied.parseDiffCpuMs)} (not judged)`,
    ],
    ["result", withinBudget ? "PASS" : "FAIL"],
  ],
  {
    bench: "clustering",
    results,
    growth,
    linearity,
    variedText: {
      findings: 10_000,
      clusters: varied.clusters,
      ms: Math.round(varied.ms),
      cpuMs: Math.round(varied.cpuMs),
      vsParseDiff: ratio(varied.cpuMs, varied.parseDiffCpuMs),
    },
    parseDiffMs: Math.round(parseDiffCpuMs),
    referenceParseDiffMs: REFERENCE_PARSE_DIFF_MS,
    targetMs: TARGET_10K_MS,
    targetRatio: Number(targetRatio.toFixed(2)),
    budgetMs,
    withinBudget,
  },
);
if (!withinBudget) {
  console.error(
    `clustering 10k findings took ${tenThousand?.vsParseDiff}× parse-diff's CPU, over ${targetRatio.toFixed(2)}×`,
  );
  process.exitCode = 1;
}
