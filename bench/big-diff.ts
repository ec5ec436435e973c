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

const FILE_COUNT = 3_000;
const CHANGED_LINES = 150_000;
const PACK_BUDGET = 400_000;
const RUNS = 7;
const MAX_RATIO = 1.0;
const MAX_RSS_MB = 400;

/** mulberry32: a small seeded generator, so every run measures the same diff. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WORDS = [
  "const",
  "return",
  "await",
  "if",
  "value",
  "request",
  "response",
  "handler",
  "options",
  "result",
  "error",
  "config",
  "=",
  "===",
  "(",
  ")",
  "{",
  "}",
  "items.map",
  "user.id",
  "null",
];

interface SyntheticDiff {
  text: string;
  changedLines: number;
}

/** Builds the PR's diff in git's format: mostly modified files, some added, deleted, renamed, binary. */
function syntheticDiff(random: () => number): SyntheticDiff {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const codeLine = (): string => {
    // Built with join, not +=: a rope of small pieces per line would make the input itself the
    // biggest thing in memory.
    const words = ["  ".repeat(Math.floor(random() * 4))];
    const count = 3 + Math.floor(random() * 9);
    for (let index = 0; index < count; index++) words.push(pick(WORDS));
    words.push(`x${Math.floor(random() * 1000)};`);
    return words.join(" ");
  };
  const kinds = [
    "modified",
    "modified",
    "modified",
    "modified",
    "modified",
    "modified",
    "added",
    "deleted",
    "renamed",
  ];
  const directories = ["src/core", "src/api", "src/ui", "test/unit", "docs", "lib", "dist"];

  // Spread the changed lines over the text files; binary and mode-only files change none.
  const weights = Array.from({ length: FILE_COUNT }, () => 0.2 + random());
  const binary = new Set(Array.from({ length: 40 }, (_, index) => index * 73));
  const weightSum = weights.reduce(
    (sum, weight, index) => (binary.has(index) ? sum : sum + weight),
    0,
  );
  const budgets = weights.map((weight, index) =>
    binary.has(index) ? 0 : Math.max(1, Math.floor((weight / weightSum) * CHANGED_LINES)),
  );
  let shortfall = CHANGED_LINES - budgets.reduce((sum, budget) => sum + budget, 0);
  for (let index = 1; shortfall !== 0; index = (index + 1) % FILE_COUNT) {
    if (binary.has(index)) continue;
    const step = shortfall > 0 ? 1 : -1;
    if ((budgets[index] ?? 0) + step < 1) continue;
    budgets[index] = (budgets[index] ?? 0) + step;
    shortfall -= step;
  }

  const lines: string[] = [];
  let changedLines = 0;
  for (let index = 0; index < FILE_COUNT; index++) {
    const path = `${pick(directories)}/module-${index}/file-${index}.ts`;
    const budget = budgets[index] ?? 0;
    if (binary.has(index)) {
      lines.push(`diff --git a/${path}.png b/${path}.png`, "index 1111111..2222222 100644");
      lines.push(`Binary files a/${path}.png and b/${path}.png differ`);
      continue;
    }
    const kind = pick(kinds);
    if (kind === "added" || kind === "deleted") {
      const added = kind === "added";
      lines.push(`diff --git a/${path} b/${path}`);
      lines.push(`${added ? "new" : "deleted"} file mode 100644`, "index 0000000..3333333");
      lines.push(
        added ? "--- /dev/null" : `--- a/${path}`,
        added ? `+++ b/${path}` : "+++ /dev/null",
      );
      lines.push(added ? `@@ -0,0 +1,${budget} @@` : `@@ -1,${budget} +0,0 @@`);
      for (let line = 0; line < budget; line++) lines.push(`${added ? "+" : "-"}${codeLine()}`);
      changedLines += budget;
      continue;
    }
    const oldPath = kind === "renamed" ? `${path}.old` : path;
    lines.push(`diff --git a/${oldPath} b/${path}`);
    if (kind === "renamed") {
      lines.push("similarity index 88%", `rename from ${oldPath}`, `rename to ${path}`);
    }
    lines.push("index 4444444..5555555 100644", `--- a/${oldPath}`, `+++ b/${path}`);
    const hunkCount = Math.min(budget, 1 + Math.floor(random() * 6));
    let oldLine = 1;
    let newLine = 1;
    let left = budget;
    for (let hunk = 0; hunk < hunkCount; hunk++) {
      const changes =
        hunk === hunkCount - 1 ? left : Math.max(1, Math.floor(left / (hunkCount - hunk)));
      left -= changes;
      const deletions = Math.floor(changes * random() * 0.6);
      const additions = changes - deletions;
      const gap = 5 + Math.floor(random() * 60);
      oldLine += gap;
      newLine += gap;
      lines.push(
        `@@ -${oldLine},${deletions + 6} +${newLine},${additions + 6} @@ function f${hunk}() {`,
      );
      for (let context = 0; context < 3; context++) lines.push(` ${codeLine()}`);
      for (let line = 0; line < deletions; line++) lines.push(`-${codeLine()}`);
      for (let line = 0; line < additions; line++) lines.push(`+${codeLine()}`);
      for (let context = 0; context < 3; context++) lines.push(` ${codeLine()}`);
      oldLine += deletions + 6;
      newLine += additions + 6;
    }
    changedLines += budget;
  }
  lines.push("");
  return { text: lines.join("\n"), changedLines };
}

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
const diff = syntheticDiff(seededRandom(20_260_806));
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
