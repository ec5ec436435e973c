/**
 * The worst cases a hostile PR can provoke, timed: clustering every finding the limit lets
 * through at one line (three shapes, bench/worst-case-findings.ts), past the pair budget, and
 * parsing a model's flood of findings in one answer. Each timing alternates with one of
 * parse-diff on the big-PR bench's diff, and each target is a ratio to parse-diff's CPU time
 * (machines differ ~2.5×); the targets are the bounds the unit tests held in milliseconds where
 * parse-diff takes 215 ms. Growth (a size 4–5× larger) is judged too: linear or quadratic work
 * passes, cubic does not.
 * Prints a table and one JSON line; exits 1 when a case misses its target.
 * Run: `npx tsx bench/worst-cases.ts`.
 */
import { clusterFindings } from "../src/consensus/cluster-findings.js";
import { parseLensAnswer } from "../src/findings/parse.js";
import { median, parseDiffReference, REFERENCE_PARSE_DIFF_MS } from "./parse-diff-reference.js";
import { printReport } from "./print-report.js";
import {
  EVERY_LENS,
  findingFloodAnswer,
  ONE_LENS_EACH,
  OVER_BUDGET,
  WORST_CASE_MODELS,
  WORST_CASE_SHAPES,
} from "./worst-case-findings.js";

const RUNS = 3;
const reference = parseDiffReference();

interface Case {
  name: string;
  /** What the unit test bounded it by, in ms, where parse-diff takes REFERENCE_PARSE_DIFF_MS. */
  targetMs: number;
  work: () => void;
}

interface Timing {
  name: string;
  cpuMs: number;
  parseDiffCpuMs: number;
  vsParseDiff: number;
  targetRatio: number;
  pass: boolean;
}

function cpuMsOf(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function time(benchCase: Case): Timing {
  benchCase.work(); // warm the JIT on the same input
  const cpu: number[] = [];
  const parseDiffCpu: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    parseDiffCpu.push(reference.time().cpuMs);
    cpu.push(cpuMsOf(benchCase.work));
  }
  const cpuMs = median(cpu);
  const parseDiffCpuMs = median(parseDiffCpu);
  const vsParseDiff = cpuMs / Math.max(1, parseDiffCpuMs);
  const targetRatio = benchCase.targetMs / REFERENCE_PARSE_DIFF_MS;
  return {
    name: benchCase.name,
    cpuMs: Math.round(cpuMs),
    parseDiffCpuMs: Math.round(parseDiffCpuMs),
    vsParseDiff: Number(vsParseDiff.toFixed(2)),
    targetRatio: Number(targetRatio.toFixed(2)),
    pass: vsParseDiff < targetRatio,
  };
}

const cluster = (findings: ReturnType<typeof WORST_CASE_SHAPES.bridged>) => () => {
  clusterFindings(findings, { modelOrder: WORST_CASE_MODELS });
};
const parse = (answer: string) => () => {
  parseLensAnswer(answer);
};

const cases: Case[] = [
  ...Object.entries(WORST_CASE_SHAPES).map(([shape, make]) => ({
    name: `cluster ${shape} ×${ONE_LENS_EACH}`,
    targetMs: 1_000,
    work: cluster(make(ONE_LENS_EACH)),
  })),
  {
    name: `cluster bridged ×${EVERY_LENS}`,
    targetMs: 15_000,
    work: cluster(WORST_CASE_SHAPES.bridged(EVERY_LENS)),
  },
  {
    name: `cluster all different ×${OVER_BUDGET} (over the pair budget)`,
    targetMs: 5_000,
    work: cluster(WORST_CASE_SHAPES["all different"](OVER_BUDGET)),
  },
  { name: "parse a flood ×1000", targetMs: 5_000, work: parse(findingFloodAnswer(1_000)) },
  { name: "parse a flood ×4000", targetMs: 5_000, work: parse(findingFloodAnswer(4_000)) },
];

const timings = cases.map(time);
const cpuOf = (name: string) => timings.find((timing) => timing.name === name)?.cpuMs ?? Number.NaN;
/** Size ratio 5 (bridged) and 4 (flood): cubic would be 125× and 64×. */
const growth = [
  {
    name: `bridged ×${EVERY_LENS} ÷ ×${ONE_LENS_EACH}`,
    ratio:
      cpuOf(`cluster bridged ×${EVERY_LENS}`) /
      Math.max(25, cpuOf(`cluster bridged ×${ONE_LENS_EACH}`)),
    limit: 60,
  },
  {
    name: "flood ×4000 ÷ ×1000",
    ratio: cpuOf("parse a flood ×4000") / Math.max(20, cpuOf("parse a flood ×1000")),
    limit: 10,
  },
].map((step) => ({ ...step, ratio: Number(step.ratio.toFixed(2)), pass: step.ratio < step.limit }));

const pass = timings.every((timing) => timing.pass) && growth.every((step) => step.pass);
printReport(
  [
    ...timings.map(
      (timing) =>
        [
          timing.name,
          `${timing.cpuMs} ms CPU, ÷ parse-diff's ${timing.parseDiffCpuMs} ms = ${timing.vsParseDiff} (< ${timing.targetRatio})${timing.pass ? "" : "  MISSED"}`,
        ] as const,
    ),
    ...growth.map(
      (step) =>
        [
          `growth ${step.name}`,
          `${step.ratio}× (< ${step.limit}×)${step.pass ? "" : "  MISSED"}`,
        ] as const,
    ),
    ["result", pass ? "PASS" : "FAIL"],
  ],
  { bench: "worst-cases", timings, growth, referenceParseDiffMs: REFERENCE_PARSE_DIFF_MS, pass },
);
if (!pass) process.exitCode = 1;
