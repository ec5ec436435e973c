/**
 * Clustering throughput: 1k, 10k and 50k synthetic findings at ~20 findings per file, the
 * density of a large review (bench/synthetic-findings.ts), and 10k whose subjects vary so that
 * few texts repeat (reported, not judged). Each clustering run alternates with a timing of
 * parse-diff on the big-PR bench's diff, so the machine's speed at that moment (it is shared)
 * scales the target: 10k findings < 500 ms where parse-diff takes 215 ms. Near-linear growth:
 * (50k time / 10k time) / 5 is printed as `linearity` (1.0 is linear). Medians of the runs; the
 * garbage of one run is collected before the next is timed.
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
const parseDiffTimes: number[] = [];

interface Timing {
  ms: number;
  cpuMs: number;
  clusters: number;
  parseDiffMs: number;
}

function timeClustering(findings: readonly Finding[], runs: number): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  const theirs: number[] = [];
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
    theirs.push(reference.time());
  }
  parseDiffTimes.push(...theirs);
  return { ms: median(wall), cpuMs: median(cpu), clusters, parseDiffMs: median(theirs) };
}

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
    vsParseDiff: Number((timing.ms / timing.parseDiffMs).toFixed(2)),
  };
});
const varied = timeClustering(syntheticFindings(10_000, 11, FINDINGS_PER_FILE, 5_000), 5);

const growth = results.slice(1).map((result, index) => {
  const previous = results[index];
  const sizeRatio = previous === undefined ? 1 : result.findings / previous.findings;
  const timeRatio = previous === undefined ? 1 : result.ms / Math.max(1, previous.ms);
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
const linearity =
  tenThousand === undefined || fiftyThousand === undefined
    ? Number.NaN
    : Number((fiftyThousand.ms / tenThousand.ms / 5).toFixed(2));
const parseDiffMs = median(parseDiffTimes);
const budgetMs = Math.round(reference.scaled(TARGET_10K_MS, parseDiffTimes));
const withinBudget = tenThousand !== undefined && tenThousand.ms < budgetMs;

console.log("findings  files  clusters   ms (CPU)  ÷ parse-diff  growth (time ratio / size ratio)");
for (const [index, result] of results.entries()) {
  const step = index === 0 ? undefined : growth[index - 1];
  const ratio = step === undefined ? "" : `${step.timeRatio}x / ${step.sizeRatio}x`;
  console.log(
    `${String(result.findings).padStart(8)}  ${String(result.files).padStart(5)}  ${String(result.clusters).padStart(8)}  ${`${result.ms} (${result.cpuMs})`.padStart(9)}  ${result.vsParseDiff.toFixed(2).padStart(12)}  ${ratio}`,
  );
}
printReport(
  [
    [
      "parse-diff on the big-PR diff, median ms",
      `${parseDiffMs.toFixed(0)} (reference ${REFERENCE_PARSE_DIFF_MS})`,
    ],
    [
      "10k findings, median ms",
      `${tenThousand?.ms ?? "?"} (target < ${TARGET_10K_MS} × ${parseDiffMs.toFixed(0)}/${REFERENCE_PARSE_DIFF_MS} = ${budgetMs})`,
    ],
    [
      "10k ÷ parse-diff",
      `${tenThousand?.vsParseDiff ?? "?"} (target < ${(TARGET_10K_MS / REFERENCE_PARSE_DIFF_MS).toFixed(2)})`,
    ],
    ["linearity: (50k ms / 10k ms) / 5", `${linearity} (1.0 is linear)`],
    [
      "10k, varied subjects (few texts repeat), median ms",
      `${Math.round(varied.ms)} (÷ parse-diff ${(varied.ms / varied.parseDiffMs).toFixed(2)}; not judged)`,
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
      vsParseDiff: Number((varied.ms / varied.parseDiffMs).toFixed(2)),
    },
    parseDiffMs: Math.round(parseDiffMs),
    referenceParseDiffMs: REFERENCE_PARSE_DIFF_MS,
    targetMs: TARGET_10K_MS,
    budgetMs,
    withinBudget,
  },
);
if (!withinBudget) {
  console.error(`clustering 10k findings took ${tenThousand?.ms} ms, over ${budgetMs} ms`);
  process.exitCode = 1;
}
