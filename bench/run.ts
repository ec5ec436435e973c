/**
 * `npm run bench`: the five performance benchmarks of issue 9, the economy benchmark of issue
 * 15 (what a round costs in model input), the workspace copies and the worst cases a hostile PR
 * can provoke (clustering at one line, a flood of findings), one after another, each in its own
 * process (so one's memory and JIT never colour another's figures). Each prints its table and one
 * JSON line; this runner passes them through, then prints a summary table and one JSON line of
 * its own, and exits 1 when any benchmark missed a target or failed to run.
 * `npm run bench -- clustering big-diff` runs only the named ones.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { printReport } from "./print-report.js";

type Json = Record<string, unknown>;

interface Benchmark {
  name: string;
  title: string;
  /** The headline figures of its JSON line, for the summary. */
  summarize: (json: Json) => string;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const number = (value: unknown): string => (typeof value === "number" ? String(value) : "?");
const field = (json: Json, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      typeof value === "object" && value !== null ? (value as Json)[key] : undefined,
    json,
  );

const BENCHMARKS: Benchmark[] = [
  {
    name: "round-makespan",
    title: "1. round makespan",
    summarize: (json) => {
      const results = Array.isArray(json.results) ? (json.results as Json[]) : [];
      return results
        .map(
          (result) =>
            `c=${number(result.concurrency)}: ${number(result.makespanMs)} ms, ÷ bound ${number(result.vsLowerBound)}, ÷ FIFO ${number(result.vsFifo)}`,
        )
        .join("; ");
    },
  },
  {
    name: "bot-overhead",
    title: "2. bot overhead",
    summarize: (json) =>
      `CPU ${number(json.cpuPerRoundMs)} ms/round, ÷ parse-diff's CPU ${number(json.cpuPerRoundVsParseDiff)} (not judged), peak RSS ${number(json.peakRssMb)} MB (< 150)`,
  },
  {
    name: "big-diff",
    title: "3. big PR",
    summarize: (json) =>
      `parse+index+pack ${(Number(json.parseMs) + Number(json.indexMs) + Number(json.packMs)).toFixed(0)} ms, ÷ parse-diff ${number(json.ratio)} (≤ 1.0), peak RSS ${number(json.stepPeakRssMb)} MB (< 400)`,
  },
  {
    name: "clustering",
    title: "4. clustering",
    summarize: (json) => {
      const results = Array.isArray(json.results) ? (json.results as Json[]) : [];
      return `${results.map((result) => `${number(result.findings)}: ${number(result.ms)} ms`).join(", ")}; 10k CPU ÷ parse-diff's ${number(results[1]?.vsParseDiff)} (< ${number(json.targetRatio)}), linearity ${number(json.linearity)}`;
    },
  },
  {
    name: "rounds-in-flight",
    title: "4b. rounds in flight",
    summarize: (json) =>
      `${number(json.maxInFlight)} rounds in flight at once, peak RSS ${number(json.peakRssMb)} MB (< 400)`,
  },
  {
    name: "github-budget",
    title: "5. GitHub budget",
    summarize: (json) =>
      `one round ${number(field(json, "single", "contentCreating"))} content-creating (≤ 40); ten rounds peak ${number(field(json, "concurrent", "peakPerMinute"))}/min (≤ 80)`,
  },
  {
    name: "economy",
    title: "6. economy",
    summarize: (json) =>
      `input tokens: round 1 ÷ old ${number(json.round1VsFull)} (≤ 0.5), round 2 ÷ round 1 ${number(json.round2VsRound1)} (≤ 0.2); 5 pushes → ${number(json.pushBurstRounds)} round (= 1, old ${number(json.fullPushBurstRounds)})`,
  },
  {
    name: "agent-workspace-copies",
    title: "7. agent workspace copies",
    summarize: (json) =>
      `${number(json.files)} files, ${number(json.runs)} agent runs: per run ${number(json.perRunMs)} ms, shared ${number(json.sharedMs)} ms, ratio ${number(json.ratio)} (≤ ${number(json.target)})`,
  },
  {
    name: "worst-cases",
    title: "8. worst cases",
    summarize: (json) => {
      const timings = Array.isArray(json.timings) ? (json.timings as Json[]) : [];
      const worst = timings.reduce<Json | undefined>(
        (top, timing) =>
          top === undefined ||
          Number(timing.vsParseDiff) / Number(timing.targetRatio) >
            Number(top.vsParseDiff) / Number(top.targetRatio)
            ? timing
            : top,
        undefined,
      );
      return `${timings.length} cases; closest to its target: ${String(worst?.name ?? "?")} ${number(worst?.vsParseDiff)}× parse-diff (< ${number(worst?.targetRatio)})`;
    },
  },
];

interface Outcome {
  name: string;
  title: string;
  exitCode: number | null;
  seconds: number;
  json: Json | null;
}

/** Runs one benchmark's script, echoing its output, and keeps its last JSON line. */
function runBenchmark(benchmark: Benchmark): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `bench/${benchmark.name}.ts`], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      stdout += chunk.toString();
    });
    child.once("close", (exitCode) => {
      const line = stdout
        .trim()
        .split("\n")
        .reverse()
        .find((candidate) => candidate.startsWith("{"));
      let json: Json | null = null;
      try {
        json = line === undefined ? null : (JSON.parse(line) as Json);
      } catch {
        json = null;
      }
      resolve({
        name: benchmark.name,
        title: benchmark.title,
        exitCode,
        seconds: (performance.now() - started) / 1000,
        json,
      });
    });
  });
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(", ")}; known: ${BENCHMARKS.map((benchmark) => benchmark.name).join(", ")}`,
  );
  process.exit(2);
}
const selected = BENCHMARKS.filter(
  (benchmark) => wanted.length === 0 || wanted.includes(benchmark.name),
);

const outcomes: Outcome[] = [];
for (const benchmark of selected) {
  console.log(`\n=== ${benchmark.title} (bench/${benchmark.name}.ts)`);
  outcomes.push(await runBenchmark(benchmark));
}

const passed = (outcome: Outcome) => outcome.exitCode === 0 && outcome.json !== null;
console.log("\n=== summary");
printReport(
  [
    ...outcomes.map((outcome): [string, string] => {
      const benchmark = BENCHMARKS.find((candidate) => candidate.name === outcome.name);
      const figures =
        outcome.json === null || benchmark === undefined
          ? "no result line"
          : benchmark.summarize(outcome.json);
      return [
        outcome.title,
        `${passed(outcome) ? "PASS" : "FAIL"}  ${figures}  [${outcome.seconds.toFixed(0)} s]`,
      ];
    }),
    [
      "all",
      `${outcomes.every(passed) ? "PASS" : "FAIL"}  ${outcomes.filter(passed).length}/${outcomes.length} met their targets  [${outcomes.reduce((sum, outcome) => sum + outcome.seconds, 0).toFixed(0)} s]`,
    ],
  ],
  {
    bench: "all",
    results: outcomes.map((outcome) => ({
      name: outcome.name,
      pass: passed(outcome),
      exitCode: outcome.exitCode,
      seconds: Number(outcome.seconds.toFixed(1)),
      result: outcome.json,
    })),
    pass: outcomes.every(passed),
  },
);
if (!outcomes.every(passed)) process.exitCode = 1;
