/**
 * Benchmark 2, bot overhead: the app as users run it (`npm start`'s plain JavaScript, built from
 * the current src/ by bench/build-app.ts) against the fake GitHub and instant fake models,
 * reviewing a 50-file PR. Reads the app process's CPU time (utime + stime) and peak RSS (VmHWM)
 * from /proc, round by round, minus the idle process's CPU over the same wall time. The models
 * answer at once, so what remains is the bot's own work: webhook, snapshot, 20 reviewers' HTTP
 * and tool calls, finalize, verify, consensus, render, SQLite and the GitHub writes.
 * Per-round CPU is the median over the warm rounds (the machine is shared; a median shrugs off a
 * neighbour's burst); the first, cold round is reported apart.
 * Target: < 150 MB peak RSS (and a sane round: one consensus, a review, no request GitHub's
 * description refuses). Exits 1 when it is missed. CPU per round is reported, not judged: its
 * target (300 ms where parse-diff takes 215 ms) was retired, and the figure is kept to be watched.
 * Every app process runs with the node flags of `npm start` (package.json's start script, read by
 * bench/npm-start-node-args.ts) unless said otherwise below.
 * Run: `npx tsx bench/bot-overhead.ts`. Options (environment):
 * - BENCH_REFERENCE_NODE_ARGS="--optimize-for-size": a second app process with these node flags
 *   instead of `npm start`'s ("none": plain `node`, no flags) runs the same rounds, interleaved
 *   with the first, and is reported beside it (not judged);
 * - BENCH_ENTRY=tsx: run src/main.ts through tsx instead (as the e2e tests do);
 * - BENCH_APP_ENTRY=<dist/main.js>: run a given build;
 * - BENCH_NODE_ARGS: node flags for the judged app after `npm start`'s (e.g. `--cpu-prof
 *   --cpu-prof-dir=/tmp/prof`);
 * - BENCH_FILES, BENCH_ROUNDS: the PR's size and the warm rounds (50 and 7);
 * - BENCH_PROFILE=0: no profiled process. By default a third process of the same build runs
 *   under `--cpu-prof`, interleaved, and its five functions with the most self time over the
 *   warm rounds are printed (its own CPU, inflated by the profiler, is not judged);
 * - BENCH_LEVERS=0: no lever process. By default a second process runs with the full-diff
 *   prompt (the economy issue's baseline, GADFLY_BENCH_PROMPT_STYLE=full-diff), so what the
 *   lighter prompt saves in CPU, memory and request bytes is measured beside the judged app;
 * - BENCH_CLIENT_FLOOR=0: no floors. By default the judged app's last warm round is replayed
 *   afterwards in parts, each from a process of its own with `npm start`'s flags: its model
 *   requests, as recorded, through the official `ollama` and `openai` clients
 *   (bench/model-client-floor.ts); its GitHub requests through the app's own Octokit class,
 *   authenticated as the installation, and the extraction of its tarball
 *   (bench/github-floors.ts). Each is what that part costs with nothing else of the app around
 *   it, a floor under its CPU per round; the three together against parse-diff say how much of
 *   the app's own CPU is spent outside them (reported, not judged).
 * CPU figures are also given as ratios to parse-diff's CPU time on the big-PR diff, measured in
 * this process between rounds (bench/parse-diff-reference.ts), since machines differ ~2.5×.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  MODELS,
  type Stack,
  scriptAll,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "../test/e2e/harness.js";
import {
  deliver,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
} from "../test/fakes/fake-github/index.js";
import type { RecordedRequest } from "../test/fakes/fake-github/request-log.js";
import type { FakeModelRequest } from "../test/fakes/model-script.js";
import { buildApp } from "./build-app.js";
import {
  type HotFunction,
  hottestFunctions,
  monotonicMicros,
  readCpuProfile,
  type Window,
} from "./cpu-profile-summary.js";
import { type GitHubFloorsOutput, githubFloors } from "./github-floors.js";
import { type FloorOutput, modelClientFloor } from "./model-client-floor.js";
import { npmStartNodeArgs } from "./npm-start-node-args.js";
import { pacedReviewer } from "./paced-reviewer.js";
import { parseDiffReference, REFERENCE_PARSE_DIFF_MS } from "./parse-diff-reference.js";
import { printReport } from "./print-report.js";
import { type ProcessStats, readProcessStats } from "./process-stats.js";
import { type BenchApp, startBenchApp } from "./start-bench-app.js";
import { syntheticPullRequest } from "./synthetic-pull-request.js";

const FILE_COUNT = Number(process.env.BENCH_FILES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const IDLE_MS = 4_000;
const QUIET_MS = 2_000;
const MAX_RSS_MB = 150;

const flags = (value: string | undefined) =>
  (value ?? "").split(" ").filter((argument) => argument !== "");
/** What users run: `npm start`'s node flags, given to every process unless said otherwise. */
const START_NODE_ARGS = npmStartNodeArgs();
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
};

interface RoundMeasure {
  wallMs: number;
  cpuMs: number;
  userMs: number;
  systemMs: number;
  githubRequests: number;
  modelCalls: number;
  modelBytes: number;
}

/** One app process under measurement, with its own fakes and PR. */
interface Subject {
  label: string;
  stack: Stack;
  app: BenchApp;
  pullRequest: PullRequestSnapshot;
  idleCpuPerMs: number;
  started: ProcessStats;
  cold: RoundMeasure | undefined;
  warm: RoundMeasure[];
  /** The warm rounds, on the monotonic clock: where a profile's samples count. */
  windows: Window[];
  /** Where `--cpu-prof` writes, for the profiled process. */
  profileDirectory: string | undefined;
  /** Judged against the targets (the other processes are there to compare or to profile). */
  judged: boolean;
}

/** The processes of one bench run besides the judged app, interleaved with it round by round. */
interface SubjectPlan {
  label: string;
  nodeArgs: string[];
  env: Record<string, string>;
  profileDirectory?: string;
}

async function startSubject(
  label: string,
  entry: string | undefined,
  nodeArgs: string[],
  env: Record<string, string> = {},
  profileDirectory?: string,
) {
  const stack = await startStack();
  scriptAll(
    stack,
    pacedReviewer({
      seed: 2,
      models: MODELS.map((model) => model.id),
      fileCount: FILE_COUNT,
      turnMs: [0, 0],
      reviewTurns: [2, 3],
    }),
  );
  const app = await startBenchApp(stack, {
    ...(entry === undefined ? {} : { entry }),
    nodeArgs,
    env,
  });
  const pr = syntheticPullRequest(FILE_COUNT);
  stack.github.addRepo({ owner: "octo-org", name: "api", files: pr.baseFiles });
  // Rounds after the first are asked for by this maintainer's comment: the app checks the
  // commenter may write to the repository before it starts one, as GitHub would answer.
  stack.github.addCollaborator("maintainer", "write", { owner: "octo-org", repo: "api" });
  const pullRequest = stack.github.addPullRequest({ title: "Query helpers", files: pr.files });
  const subject: Subject = {
    label,
    stack,
    app,
    pullRequest,
    idleCpuPerMs: 0,
    started: await readProcessStats(app.pid),
    cold: undefined,
    warm: [],
    windows: [],
    profileDirectory,
    judged: false,
  };
  return subject;
}

/** Idle: what the process burns doing nothing (timers, GC), subtracted from every round. */
async function measureIdle(subject: Subject): Promise<void> {
  subject.started = await readProcessStats(subject.app.pid);
  const startedAt = performance.now();
  await sleep(IDLE_MS);
  const end = await readProcessStats(subject.app.pid);
  subject.idleCpuPerMs = (end.cpuMs - subject.started.cpuMs) / (performance.now() - startedAt);
}

/** Triggers round `round` (1: the PR opens; later: `@gadfly review`) and waits for its check. */
async function measureRound(subject: Subject, round: number): Promise<RoundMeasure> {
  const { github, ollama, openai } = subject.stack;
  const { app, pullRequest } = subject;
  const modelRequests = () => [...ollama.requests, ...openai.requests];
  const modelBytes = () =>
    modelRequests().reduce((sum, request) => sum + JSON.stringify(request.body).length, 0);
  const before = await readProcessStats(app.pid);
  const requestsBefore = github.requests().length;
  const callsBefore = modelRequests().length;
  const bytesBefore = modelBytes();
  const startedAt = performance.now();
  const windowStart = monotonicMicros();
  if (round === 1) {
    await deliver(app.webhookUrl, pullRequestEvent("opened", pullRequest), WEBHOOK_SECRET);
  } else {
    const current = github.pullRequest(pullRequest);
    const comment = github.addComment(current, { body: "@gadfly review", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: current, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
  }
  await waitFor(
    () =>
      github.checkRuns(pullRequest.headSha).filter((check) => check.status === "completed")
        .length >= round,
    120_000,
  ).catch((error: unknown) => {
    throw new Error(
      `round ${round} did not complete: ${String(error)}\n${app.output().slice(-4000)}`,
    );
  });
  // The round ends after its check completes (the board's last edit, the store): wait until
  // GitHub hears nothing more, so the next trigger starts a round instead of joining this one.
  let seen = github.requests().length;
  for (;;) {
    await sleep(QUIET_MS);
    const now = github.requests().length;
    if (now === seen) break;
    seen = now;
  }
  const wallMs = performance.now() - startedAt;
  if (round > 1) subject.windows.push([windowStart, monotonicMicros()]);
  const after = await readProcessStats(app.pid);
  return {
    wallMs,
    cpuMs: after.cpuMs - before.cpuMs - subject.idleCpuPerMs * wallMs,
    userMs: after.userMs - before.userMs,
    systemMs: after.systemMs - before.systemMs,
    githubRequests: github.requests().length - requestsBefore,
    modelCalls: modelRequests().length - callsBefore,
    modelBytes: modelBytes() - bytesBefore,
  };
}

const mode =
  process.env.BENCH_APP_ENTRY !== undefined
    ? "given build"
    : process.env.BENCH_ENTRY === "tsx"
      ? "tsx"
      : "built";
// Built even in tsx mode: the reference process, if any, runs the plain JavaScript.
const built = process.env.BENCH_APP_ENTRY === undefined ? await buildApp() : undefined;
const builtEntry = process.env.BENCH_APP_ENTRY ?? built?.entry;
const entry = mode === "tsx" ? undefined : builtEntry;
const referenceWanted = flags(process.env.BENCH_REFERENCE_NODE_ARGS).length > 0;
const referenceFlags =
  process.env.BENCH_REFERENCE_NODE_ARGS?.trim() === "none"
    ? []
    : flags(process.env.BENCH_REFERENCE_NODE_ARGS);
const judgedFlags = [...START_NODE_ARGS, ...flags(process.env.BENCH_NODE_ARGS)];
const subjects: Subject[] = [await startSubject("app", entry, judgedFlags)];
(subjects[0] as Subject).judged = true;
if (referenceWanted) {
  subjects.push(
    await startSubject(
      `reference (${referenceFlags.length > 0 ? referenceFlags.join(" ") : "no node flags"})`,
      builtEntry,
      referenceFlags,
    ),
  );
}
for (const plan of await companionPlans()) {
  subjects.push(
    await startSubject(plan.label, builtEntry, plan.nodeArgs, plan.env, plan.profileDirectory),
  );
}
const reference = parseDiffReference();
const parseDiffTimes: number[] = [];
const clientFloorWanted = process.env.BENCH_CLIENT_FLOOR !== "0" && builtEntry !== undefined;
/** The judged app's requests of its last warm round, per fake server: what the floors replay. */
let lastRound:
  | { ollama: FakeModelRequest[]; openai: FakeModelRequest[]; github: RecordedRequest[] }
  | undefined;

/** The lever and profiled processes the environment asks for (both unless told not to). */
async function companionPlans(): Promise<SubjectPlan[]> {
  const plans: SubjectPlan[] = [];
  if (process.env.BENCH_LEVERS !== "0") {
    plans.push({
      label: "lever: full-diff prompt",
      nodeArgs: START_NODE_ARGS,
      env: { GADFLY_BENCH_PROMPT_STYLE: "full-diff" },
    });
  }
  if (process.env.BENCH_PROFILE !== "0") {
    const profileDirectory = await mkdtemp(join(tmpdir(), "gadfly-bench-profile-"));
    plans.push({
      label: "profiled (--cpu-prof)",
      nodeArgs: [...START_NODE_ARGS, "--cpu-prof", `--cpu-prof-dir=${profileDirectory}`],
      env: {},
      profileDirectory,
    });
  }
  return plans;
}

/** Stops a profiled process (its profile is written on exit) and reads its hottest functions. */
async function profileOf(subject: Subject): Promise<HotFunction[] | undefined> {
  if (subject.profileDirectory === undefined) return undefined;
  await subject.app.stop();
  const profile = await readCpuProfile(subject.profileDirectory);
  await rm(subject.profileDirectory, { recursive: true, force: true });
  return hottestFunctions(profile, subject.windows, 5);
}

try {
  await sleep(1_000);
  await Promise.all(subjects.map(measureIdle));
  // Rounds alternate between the subjects, so a busy moment of the machine hits both alike.
  for (let round = 1; round <= ROUNDS + 1; round++) {
    for (const subject of subjects) {
      const { ollama, openai, github } = subject.stack;
      const before = {
        ollama: ollama.requests.length,
        openai: openai.requests.length,
        github: github.requests().length,
      };
      const measure = await measureRound(subject, round);
      if (subject.judged && round === ROUNDS + 1) {
        lastRound = {
          ollama: ollama.requests.slice(before.ollama),
          openai: openai.requests.slice(before.openai),
          github: github.requests().slice(before.github),
        };
      }
      if (round === 1) subject.cold = measure;
      else subject.warm.push(measure);
    }
    // The machine's speed now, between rounds: what the CPU target is scaled by.
    parseDiffTimes.push(reference.time().cpuMs);
  }
  const ends = await Promise.all(subjects.map((subject) => readProcessStats(subject.app.pid)));
  const profiles = await Promise.all(subjects.map(profileOf));
  // After the rounds and the stats: the replay loads the judged app's fakes, not the app.
  const floor: FloorOutput | undefined =
    clientFloorWanted && lastRound !== undefined && builtEntry !== undefined
      ? await modelClientFloor({
          stack: (subjects[0] as Subject).stack,
          round: lastRound,
          appEntry: builtEntry,
          nodeArgs: START_NODE_ARGS,
        })
      : undefined;
  const githubFloor: GitHubFloorsOutput | undefined =
    clientFloorWanted && lastRound !== undefined && builtEntry !== undefined
      ? await githubFloors({
          stack: (subjects[0] as Subject).stack,
          round: lastRound.github,
          appEntry: builtEntry,
          nodeArgs: START_NODE_ARGS,
        })
      : undefined;
  const parseDiffMs = median(parseDiffTimes);

  const rows: Array<[string, string]> = [
    [
      "workload",
      `${FILE_COUNT}-file PR, ${MODELS.length} models × 5 lenses, instant fake models, ${ROUNDS} warm rounds after a cold one`,
    ],
    [
      "app process",
      `${mode === "tsx" ? "src/main.ts through tsx" : `${mode} dist/main.js`}, node ${judgedFlags.join(" ") || "without flags"}`,
    ],
  ];
  const results = subjects.map((subject, index) => {
    const end = ends[index] as ProcessStats;
    const { warm } = subject;
    const of = (pick: (measure: RoundMeasure) => number) => median(warm.map(pick));
    const cpuPerRoundMs = of((measure) => measure.cpuMs);
    const { github } = subject.stack;
    const sane =
      github
        .comments(subject.pullRequest)
        .filter((comment) => comment.body.startsWith("<!-- gadfly-consensus -->")).length === 1 &&
      github.reviews(subject.pullRequest).length >= 1 &&
      github.validationErrors.length === 0;
    const pass = sane && end.peakRssMb < MAX_RSS_MB;
    const cold = subject.cold;
    const label = (text: string) => (index === 0 ? text : `${subject.label}: ${text}`);
    rows.push(
      [label("RSS after start, MB"), subject.started.rssMb.toFixed(0)],
      [label("idle CPU, ms per s"), (subject.idleCpuPerMs * 1000).toFixed(1)],
      [
        label("cold round: wall / CPU, ms"),
        cold === undefined ? "?" : `${cold.wallMs.toFixed(0)} / ${cold.cpuMs.toFixed(0)}`,
      ],
      [
        label("warm round: wall incl. 2 s of quiet, ms (mostly Probot's write throttle)"),
        of((measure) => measure.wallMs).toFixed(0),
      ],
      [
        label("warm round: CPU, median (min–max), ms"),
        `${cpuPerRoundMs.toFixed(0)} (${Math.min(...warm.map((measure) => measure.cpuMs)).toFixed(0)}–${Math.max(...warm.map((measure) => measure.cpuMs)).toFixed(0)})${subject.judged ? " (not judged)" : ""}`,
      ],
      [
        label("warm round: CPU ÷ parse-diff"),
        `${(cpuPerRoundMs / parseDiffMs).toFixed(2)}${subject.judged ? " (not judged)" : ""}`,
      ],
      [
        label("warm round: user / system CPU, ms"),
        `${of((measure) => measure.userMs).toFixed(0)} / ${of((measure) => measure.systemMs).toFixed(0)}`,
      ],
      [
        label("warm round: model calls / request bytes"),
        `${of((measure) => measure.modelCalls)} / ${(of((measure) => measure.modelBytes) / 1e6).toFixed(2)} MB`,
      ],
      [label("warm round: GitHub requests"), String(of((measure) => measure.githubRequests))],
      [label("RSS after the rounds, MB"), end.rssMb.toFixed(0)],
      [
        label("peak RSS (VmHWM), MB"),
        `${end.peakRssMb.toFixed(0)}${index === 0 ? ` (target < ${MAX_RSS_MB})` : ""}`,
      ],
      [label("published as expected"), sane ? "yes" : "NO"],
      ...(profiles[index] ?? []).map((hot, rank): [string, string] => [
        label(`profile, warm rounds: #${rank + 1} by self time`),
        `${hot.name}  ${hot.selfMs} ms (${hot.percent}%)`,
      ]),
    );
    return {
      label: subject.label,
      startRssMb: Number(subject.started.rssMb.toFixed(1)),
      idleCpuMsPerSecond: Number((subject.idleCpuPerMs * 1000).toFixed(2)),
      coldRoundMs: Math.round(cold?.wallMs ?? Number.NaN),
      coldRoundCpuMs: Math.round(cold?.cpuMs ?? Number.NaN),
      warmRoundMs: Math.round(of((measure) => measure.wallMs)),
      cpuPerRoundMs: Math.round(cpuPerRoundMs),
      cpuPerRoundAllMs: warm.map((measure) => Math.round(measure.cpuMs)),
      modelCallsPerRound: of((measure) => measure.modelCalls),
      modelBytesPerRound: of((measure) => measure.modelBytes),
      githubRequestsPerRound: of((measure) => measure.githubRequests),
      rssMb: Number(end.rssMb.toFixed(1)),
      peakRssMb: Number(end.peakRssMb.toFixed(1)),
      cpuPerRoundVsParseDiff: Number((cpuPerRoundMs / parseDiffMs).toFixed(2)),
      ...(profiles[index] === undefined ? {} : { profileTopSelf: profiles[index] }),
      pass: subject.judged ? pass : null,
    };
  });
  const main = results[0];
  const pass = main?.pass === true;
  if (floor !== undefined && main !== undefined) {
    const what = `model clients alone (one round's ${floor.calls} calls replayed through the official clients)`;
    rows.push(
      [
        `${what}: CPU, median ms`,
        `${floor.medianCpuMs.toFixed(0)} (${Math.min(...floor.cpuMs).toFixed(0)}–${Math.max(...floor.cpuMs).toFixed(0)}; ${floor.perCallMeanMs.toFixed(2)} ms a call)`,
      ],
      [
        "model clients alone ÷ the app's CPU per round",
        `${((100 * floor.medianCpuMs) / main.cpuPerRoundMs).toFixed(0)} %`,
      ],
      ["model clients alone ÷ parse-diff", (floor.medianCpuMs / parseDiffMs).toFixed(2)],
    );
  }
  const floorsMs =
    floor === undefined || githubFloor === undefined
      ? undefined
      : floor.medianCpuMs + githubFloor.medianCpuMs + githubFloor.extraction.medianCpuMs;
  if (githubFloor !== undefined) {
    const { extraction } = githubFloor;
    const range = (values: readonly number[]) =>
      `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
    rows.push(
      [
        `GitHub requests alone (one round's ${githubFloor.requests} requests replayed through the app's Octokit${githubFloor.errorAnswers.length === 0 ? "" : `, ${githubFloor.errorAnswers.length} answered with an error as in the round`}): CPU, median ms`,
        `${githubFloor.medianCpuMs.toFixed(0)} (${range(githubFloor.cpuMs)}; ${githubFloor.perRequestMeanMs.toFixed(2)} ms a request)`,
      ],
      [
        "GitHub requests alone: the most CPU by route, ms a round",
        githubFloor.byRoute
          .slice(0, 3)
          .map((route) => `${route.route} ×${route.count} ${route.meanMs.toFixed(1)}`)
          .join("; "),
      ],
      [
        `snapshot extraction alone (the round's tarball, ${extraction.files} files, ${(extraction.bytes / 1024).toFixed(0)} KiB): CPU, median ms`,
        `${extraction.medianCpuMs.toFixed(0)} (${range(extraction.cpuMs)})`,
      ],
    );
  }
  if (floorsMs !== undefined && main !== undefined) {
    rows.push(
      [
        "floors together (model clients + GitHub + extraction): CPU ms, share of the app's",
        `${floorsMs.toFixed(0)}, ${((100 * floorsMs) / main.cpuPerRoundMs).toFixed(0)} %`,
      ],
      [
        "floors together (model clients + GitHub + extraction) ÷ parse-diff",
        `${(floorsMs / parseDiffMs).toFixed(2)} (the whole app: ${(main.cpuPerRoundMs / parseDiffMs).toFixed(2)}; not judged)`,
      ],
    );
  }
  rows.push(
    [
      "parse-diff on the big-PR diff, median CPU ms",
      `${parseDiffMs.toFixed(0)} (reference ${REFERENCE_PARSE_DIFF_MS})`,
    ],
    ["result", pass ? "PASS" : "FAIL"],
  );
  printReport(rows, {
    bench: "bot-overhead",
    files: FILE_COUNT,
    rounds: ROUNDS,
    app: mode,
    ...main,
    nodeArgs: judgedFlags,
    reference: referenceWanted ? (results[1] ?? null) : null,
    others: results.slice(1),
    modelClientFloorCpuMs: floor === undefined ? null : Number(floor.medianCpuMs.toFixed(1)),
    modelClientFloorCpuAllMs: floor?.cpuMs.map((cpuMs) => Number(cpuMs.toFixed(1))) ?? null,
    modelClientFloorCalls: floor?.calls ?? null,
    modelClientFloorPerCallMs: floor === undefined ? null : Number(floor.perCallMeanMs.toFixed(3)),
    githubFloorCpuMs: githubFloor === undefined ? null : Number(githubFloor.medianCpuMs.toFixed(1)),
    githubFloorCpuAllMs: githubFloor?.cpuMs.map((cpuMs) => Number(cpuMs.toFixed(1))) ?? null,
    githubFloorRequests: githubFloor?.requests ?? null,
    githubFloorPerRequestMs:
      githubFloor === undefined ? null : Number(githubFloor.perRequestMeanMs.toFixed(3)),
    githubFloorByRoute:
      githubFloor?.byRoute.map((route) => ({
        ...route,
        meanMs: Number(route.meanMs.toFixed(2)),
      })) ?? null,
    extractionFloorCpuMs:
      githubFloor === undefined ? null : Number(githubFloor.extraction.medianCpuMs.toFixed(1)),
    extractionFloorCpuAllMs:
      githubFloor?.extraction.cpuMs.map((cpuMs) => Number(cpuMs.toFixed(1))) ?? null,
    floorsCpuMs: floorsMs === undefined ? null : Number(floorsMs.toFixed(1)),
    floorsVsParseDiff: floorsMs === undefined ? null : Number((floorsMs / parseDiffMs).toFixed(2)),
    parseDiffMs: Number(parseDiffMs.toFixed(1)),
    referenceParseDiffMs: REFERENCE_PARSE_DIFF_MS,
    cpuJudged: false,
    maxRssMb: MAX_RSS_MB,
    pass,
  });
  if (!pass) process.exitCode = 1;
} finally {
  for (const subject of subjects) {
    await subject.app.stop();
    await subject.stack.close();
  }
  await built?.remove();
}
