/**
 * Big-PR benchmark for src/diff: a synthetic PR of 3,000 files and 150,000 changed lines, timed
 * through parse, changed-line index and packing, with the parser raced against the parse-diff
 * package on the same text in the same process. Run: `npx tsx bench/big-diff.ts`.
 * Targets: our parse ≤ 1.0× parse-diff's time, peak RSS of the step < 400 MB (read before
 * parse-diff runs; the peak with the race is reported too). Exits 1 when a target is missed.
 */
import { performance } from "node:perf_hooks";
import parseDiff from "parse-diff";
import { ChangedLineIndex } from "../src/diff/changed-line-index.js";
import { packDiff } from "../src/diff/pack-diff.js";
import { parseUnifiedDiff } from "../src/diff/parse-unified-diff.js";
import { FILE_COUNT, syntheticDiff } from "./synthetic-big-diff.js";

const PACK_BUDGET = 400_000;
const RUNS = 7;
const MAX_RATIO = 1.0;
const MAX_RSS_MB = 400;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(action: () => unknown): number {
  const start = performance.now();
  action();
  return performance.now() - start;
}

const megabytes = (kilobytes: number): number => kilobytes / 1024;
const diff = syntheticDiff();
const inputPeakRssMb = megabytes(process.resourceUsage().maxRSS);

// Phase 1, the step itself: parse + index + pack, repeated. Its peak RSS is read before parse-diff
// ever runs, so the comparison below cannot inflate (or hide) it.
const parseTimes: number[] = [];
const indexTimes: number[] = [];
const packTimes: number[] = [];
let files = parseUnifiedDiff(diff.text);
let packed = packDiff(files, PACK_BUDGET);
for (let run = -2; run < RUNS; run++) {
  const parseTime = time(() => {
    files = parseUnifiedDiff(diff.text);
  });
  const indexTime = time(() => ChangedLineIndex.fromFiles(files));
  const packTime = time(() => {
    packed = packDiff(files, PACK_BUDGET);
  });
  if (run < 0) continue; // warm-up
  parseTimes.push(parseTime);
  indexTimes.push(indexTime);
  packTimes.push(packTime);
}
const stepPeakRssMb = megabytes(process.resourceUsage().maxRSS);
const parsedChanges = files.reduce((sum, file) => sum + file.additions + file.deletions, 0);
if (files.length !== FILE_COUNT || parsedChanges !== diff.changedLines) {
  console.error(`Bench input is wrong: ${files.length} files, ${parsedChanges} changed lines`);
  process.exit(1);
}

// Phase 2, the race: both parsers on the same text, alternating so that neither gets a quieter
// moment of the (shared) machine; two warm-up rounds each.
const oursTimes: number[] = [];
const theirsTimes: number[] = [];
let theirFileCount = 0;
for (let run = -2; run < RUNS; run++) {
  const oursTime = time(() => parseUnifiedDiff(diff.text));
  const theirsTime = time(() => {
    theirFileCount = parseDiff(diff.text).length;
  });
  if (run < 0) continue;
  oursTimes.push(oursTime);
  theirsTimes.push(theirsTime);
}
if (theirFileCount !== FILE_COUNT) {
  console.error(`parse-diff saw ${theirFileCount} files: the race is not on the same input`);
  process.exit(1);
}

const parseMs = median(parseTimes);
const indexMs = median(indexTimes);
const packMs = median(packTimes);
const raceOursMs = median(oursTimes);
const parseDiffMs = median(theirsTimes);
const ratio = raceOursMs / parseDiffMs;
const processPeakRssMb = megabytes(process.resourceUsage().maxRSS);
const pass = ratio <= MAX_RATIO && stepPeakRssMb < MAX_RSS_MB;

const rows: Array<[string, string]> = [
  [
    "input",
    `${FILE_COUNT} files, ${diff.changedLines} changed lines, ${(diff.text.length / 1e6).toFixed(1)} MB`,
  ],
  ["parse, median ms", parseMs.toFixed(1)],
  ["changed-line index, median ms", indexMs.toFixed(1)],
  [`pack (budget ${PACK_BUDGET} chars), median ms`, packMs.toFixed(1)],
  ["parse + index + pack, ms", (parseMs + indexMs + packMs).toFixed(1)],
  ["packed", `${packed.included.length} files included, ${packed.omitted.length} omitted`],
  ["peak RSS after building the input, MB", inputPeakRssMb.toFixed(0)],
  ["peak RSS of the step, MB", `${stepPeakRssMb.toFixed(0)} (target < ${MAX_RSS_MB})`],
  ["race: ours, median ms", raceOursMs.toFixed(1)],
  ["race: parse-diff, median ms", parseDiffMs.toFixed(1)],
  ["race: ours / parse-diff", `${ratio.toFixed(2)}× (target ≤ ${MAX_RATIO.toFixed(1)}×)`],
  ["peak RSS with the race, MB", processPeakRssMb.toFixed(0)],
  ["result", pass ? "PASS" : "FAIL"],
];
const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
console.log(
  JSON.stringify({
    bench: "big-diff",
    files: FILE_COUNT,
    changedLines: diff.changedLines,
    bytes: diff.text.length,
    runs: RUNS,
    parseMs: Number(parseMs.toFixed(2)),
    indexMs: Number(indexMs.toFixed(2)),
    packMs: Number(packMs.toFixed(2)),
    inputPeakRssMb: Number(inputPeakRssMb.toFixed(1)),
    stepPeakRssMb: Number(stepPeakRssMb.toFixed(1)),
    raceOursMs: Number(raceOursMs.toFixed(2)),
    parseDiffMs: Number(parseDiffMs.toFixed(2)),
    ratio: Number(ratio.toFixed(3)),
    processPeakRssMb: Number(processPeakRssMb.toFixed(1)),
    pass,
  }),
);
if (!pass) process.exitCode = 1;
