/**
 * Benchmark 5, GitHub budget: the app (`npm start`'s JavaScript, built by bench/build-app.ts) with
 * the status board's coalescing at its default (2 s, GADFLY_BOARD_INTERVAL_MS unset) and Probot's
 * own Octokit settings, against the fake GitHub, with fake models paced so a 4-model round lasts
 * about 60 s (4–5 review turns of 8–11 s plus a verify turn, per reviewer; real time, not scaled).
 * Two stacks run side by side, each with its own app process:
 * - one round of one PR: requests by kind (method + route template); content-creating requests
 *   (POST/PATCH/PUT/DELETE outside /app, what GitHub's secondary limit counts) ≤ 40;
 * - ten rounds of ten PRs of one installation, started at once (the app's reviewer concurrency
 *   raised to 200 so the ten really run together): never more than 80 content-creating requests
 *   in any sliding 60 s window (the fake's peakContentCreatingPerMinute()).
 * Exits 1 when a target is missed. Run: `npx tsx bench/github-budget.ts`.
 * BENCH_BUDGET_SCALE=0.25 shortens the model turns for a quick look; the targets are only
 * meaningful at 1.
 */
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
  type PullRequestSnapshot,
  pullRequestEvent,
  type RecordedRequest,
} from "../test/fakes/fake-github/index.js";
import { type BuiltApp, buildApp } from "./build-app.js";
import { pacedReviewer } from "./paced-reviewer.js";
import { printReport } from "./print-report.js";
import { routeTemplate } from "./route-template.js";
import { startBenchApp } from "./start-bench-app.js";
import { syntheticPullRequest } from "./synthetic-pull-request.js";

const SCALE = Number(process.env.BENCH_BUDGET_SCALE ?? 1);
const FILE_COUNT = 10;
const CONCURRENT_ROUNDS = 10;
const MAX_PER_ROUND = 40;
const MAX_PER_MINUTE = 80;
const QUIET_MS = 6_000;
/** The app config's ceiling on reviewers in flight. */
const MAX_CONCURRENCY = 64;
const CONTENT_CREATING = new Set(["POST", "PATCH", "PUT", "DELETE"]);

const isContentCreating = (request: RecordedRequest) =>
  CONTENT_CREATING.has(request.method) && !request.path.startsWith("/app/");

interface PhaseResult {
  stack: Stack;
  pulls: PullRequestSnapshot[];
  /** Requests from the first delivery on. */
  requests: RecordedRequest[];
  roundSeconds: number[];
  /** Per round: from its last model answer to its check run's completion (publishing), s. */
  publishSeconds: number[];
  peakPerMinute: number;
  output: string;
}

interface Pacing {
  turnMs: readonly [number, number];
  reviewTurns: readonly [number, number];
}

/** About 60 s per reviewer: every reviewer of a round in flight at once, so the round lasts ~60 s. */
const ONE_ROUND: Pacing = { turnMs: [8_000, 11_000], reviewTurns: [4, 5] };
/**
 * Ten rounds are 200 reviewers, more than the 64 the app lets run at once: each reviewer gets
 * about 20 s, so the ten rounds' model work spans about 60 s of wall time under the limiter.
 */
const TEN_ROUNDS: Pacing = { turnMs: [3_000, 4_400], reviewTurns: [4, 5] };

async function runPhase(built: BuiltApp, pullCount: number, pacing: Pacing): Promise<PhaseResult> {
  const stack = await startStack({
    review: `  concurrency: ${Math.min(MAX_CONCURRENCY, pullCount * 20)}\n  maxTurns: 12\n  timeoutSeconds: 600`,
  });
  const reviewer = pacedReviewer({
    seed: 5,
    models: MODELS.map((model) => model.id),
    fileCount: FILE_COUNT,
    turnMs: [pacing.turnMs[0] * SCALE, pacing.turnMs[1] * SCALE],
    reviewTurns: pacing.reviewTurns,
  });
  // When each PR's models last answer (the prompt carries the PR's title, "Query helpers <n>").
  const lastAnswerAt = new Map<number, number>();
  scriptAll(stack, (request) => {
    const reply = reviewer(request);
    const text = request.messages.map((message) => message.content ?? "").join("\n");
    const pull = Number(/Query helpers (\d+)/.exec(text)?.[1]);
    const answersAt = performance.now() + ("delayMs" in reply ? (reply.delayMs ?? 0) : 0);
    lastAnswerAt.set(pull, Math.max(lastAnswerAt.get(pull) ?? 0, answersAt));
    return reply;
  });
  const app = await startBenchApp(stack, { entry: built.entry });
  try {
    const { github } = stack;
    const pr = syntheticPullRequest(FILE_COUNT);
    github.addRepo({ owner: "octo-org", name: "api", files: pr.baseFiles });
    const pulls = Array.from({ length: pullCount }, (_, index) =>
      github.addPullRequest({ title: `Query helpers ${index + 1}`, files: pr.files }),
    );
    const firstRequest = github.requests().length;
    const startedAt = performance.now();
    const finishedAt = new Map<number, number>();
    await Promise.all(
      pulls.map((pull) =>
        deliver(app.webhookUrl, pullRequestEvent("opened", pull), WEBHOOK_SECRET),
      ),
    );
    await waitFor(
      () => {
        for (const pull of pulls) {
          if (
            !finishedAt.has(pull.number) &&
            github.checkRuns(pull.headSha).some((check) => check.status === "completed")
          ) {
            finishedAt.set(pull.number, performance.now());
          }
        }
        return finishedAt.size === pulls.length;
      },
      Number(process.env.BENCH_BUDGET_TIMEOUT_MS ?? 300_000),
    ).catch((error: unknown) => {
      throw new Error(
        `${finishedAt.size}/${pulls.length} rounds finished: ${String(error)}\n${app.output().slice(-4000)}`,
      );
    });
    // The final board edit follows the check's completion: wait for GitHub to go quiet.
    let seen = github.requests().length;
    for (;;) {
      await sleep(QUIET_MS);
      const now = github.requests().length;
      if (now === seen) break;
      seen = now;
    }
    return {
      stack,
      pulls,
      requests: github.requests().slice(firstRequest),
      roundSeconds: pulls.map(
        (pull) => ((finishedAt.get(pull.number) ?? Number.NaN) - startedAt) / 1000,
      ),
      publishSeconds: pulls.map(
        (pull, index) =>
          ((finishedAt.get(pull.number) ?? Number.NaN) -
            (lastAnswerAt.get(index + 1) ?? Number.NaN)) /
          1000,
      ),
      peakPerMinute: github.peakContentCreatingPerMinute(),
      output: app.output(),
    };
  } finally {
    await app.stop();
  }
}

/** The pull request a content-creating request belongs to (by number, comment or check run). */
function pullOfRequest(phase: PhaseResult): (request: RecordedRequest) => number | undefined {
  const owners = new Map<string, number>();
  for (const pull of phase.pulls) {
    for (const comment of phase.stack.github.comments(pull))
      owners.set(`comment/${comment.id}`, pull.number);
    for (const check of phase.stack.github.checkRuns(pull.headSha))
      owners.set(`check/${check.id}`, pull.number);
  }
  return (request) => {
    const byNumber = /\/(?:issues|pulls)\/(\d+)(?:\/|$)/.exec(request.path)?.[1];
    if (byNumber !== undefined) return Number(byNumber);
    const comment = /\/issues\/comments\/(\d+)$/.exec(request.path)?.[1];
    if (comment !== undefined) return owners.get(`comment/${comment}`);
    const check = /\/check-runs\/(\d+)$/.exec(request.path)?.[1];
    if (check !== undefined) return owners.get(`check/${check}`);
    if (request.method === "POST" && request.path.endsWith("/check-runs")) {
      const sha = (request.body as { head_sha?: unknown } | undefined)?.head_sha;
      return phase.pulls.find((pull) => pull.headSha === sha)?.number;
    }
    return undefined;
  };
}

/** Milliseconds between consecutive content-creating requests: min and median. */
function writeGaps(requests: readonly RecordedRequest[]): { min: number; median: number } {
  const times = requests.filter(isContentCreating).map((request) => new Date(request.at).getTime());
  const gaps = times.slice(1).map((time, index) => time - (times[index] ?? time));
  const sorted = [...gaps].sort((left, right) => left - right);
  return {
    min: sorted[0] ?? Number.NaN,
    median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
  };
}

const span = (values: readonly number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

function countByKind(requests: readonly RecordedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) {
    const kind = routeTemplate(request.method, request.path);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return new Map([...counts].sort(([left], [right]) => left.localeCompare(right)));
}

const built = await buildApp();
try {
  const [single, many] = await Promise.all([
    runPhase(built, 1, ONE_ROUND),
    runPhase(built, CONCURRENT_ROUNDS, TEN_ROUNDS),
  ]);
  const singleCreating = single.requests.filter(isContentCreating).length;
  const perPull = pullOfRequest(many);
  const manyPerRound = many.pulls.map(
    (pull) =>
      many.requests.filter(
        (request) => isContentCreating(request) && perPull(request) === pull.number,
      ).length,
  );
  const unattributed = many.requests.filter(
    (request) => isContentCreating(request) && perPull(request) === undefined,
  ).length;
  // A repository without .github/gadfly.yml answers 404 for it: expected, not a rejection
  // (convention files are read only when the base's tree lists them).
  const expectedMissing = [".github/gadfly.yml"].map((path) => `/contents/${path}`);
  const rejected = [...single.requests, ...many.requests].filter(
    (request) =>
      request.status >= 400 &&
      !(request.status === 404 && expectedMissing.some((path) => request.path.endsWith(path))),
  );
  const validationErrors =
    single.stack.github.validationErrors.length + many.stack.github.validationErrors.length;
  const sane =
    single.roundSeconds.every(Number.isFinite) &&
    many.roundSeconds.every(Number.isFinite) &&
    validationErrors === 0 &&
    rejected.length === 0;
  const perRoundOk = singleCreating <= MAX_PER_ROUND;
  const perMinuteOk = many.peakPerMinute <= MAX_PER_MINUTE;
  const pass = SCALE === 1 && sane && perRoundOk && perMinuteOk;
  const kinds = countByKind(single.requests);
  const gaps = writeGaps(many.requests);
  const manyKinds = countByKind(many.requests);

  printReport(
    [
      [
        "workload",
        `${MODELS.length} models × 5 lenses, ${FILE_COUNT}-file PR, board interval 2 s (default), model time scale ${SCALE}`,
      ],
      [
        "one round: length / publishing after the last model answer, s",
        `${span(single.roundSeconds)} / ${span(single.publishSeconds, 1)}`,
      ],
      ...[...kinds].map(([kind, count]): [string, string] => [
        `one round: ${kind}`,
        `${count}  (ten rounds: ${manyKinds.get(kind) ?? 0})`,
      ]),
      ["one round: requests in all", String(single.requests.length)],
      [
        "one round: content-creating",
        `${singleCreating} (target ≤ ${MAX_PER_ROUND})${perRoundOk ? "" : "  ← FAIL"}`,
      ],
      [
        "ten rounds: length / publishing after the last model answer, s",
        `${span(many.roundSeconds)} / ${span(many.publishSeconds, 1)}`,
      ],
      [
        "ten rounds: gap between content-creating requests, min / median ms",
        `${gaps.min} / ${gaps.median}`,
      ],
      [
        "ten rounds: content-creating per round (min–max)",
        `${Math.min(...manyPerRound)}–${Math.max(...manyPerRound)}${unattributed > 0 ? ` (+${unattributed} unattributed)` : ""}`,
      ],
      [
        "ten rounds: content-creating in all",
        String(many.requests.filter(isContentCreating).length),
      ],
      [
        "ten rounds: peak in any 60 s",
        `${many.peakPerMinute} (target ≤ ${MAX_PER_MINUTE})${perMinuteOk ? "" : "  ← FAIL"}`,
      ],
      [
        "ten rounds: per calendar minute",
        many.stack.github
          .contentCreatingPerMinute()
          .map((minute) => minute.count)
          .join(", "),
      ],
      [
        "answered ≥ 400 / invalid bodies",
        `${rejected.length} / ${validationErrors}${rejected.length === 0 ? "" : ` (${[...new Set(rejected.map((request) => `${routeTemplate(request.method, request.path)} ${request.status}`))].join("; ")})`}`,
      ],
      ["result", pass ? "PASS" : SCALE === 1 ? "FAIL" : "not judged (scaled)"],
    ],
    {
      bench: "github-budget",
      scale: SCALE,
      boardIntervalMs: 2000,
      single: {
        roundSeconds: single.roundSeconds.map((seconds) => Number(seconds.toFixed(1))),
        publishSeconds: single.publishSeconds.map((seconds) => Number(seconds.toFixed(1))),
        requests: single.requests.length,
        contentCreating: singleCreating,
        byKind: Object.fromEntries(kinds),
        peakPerMinute: single.peakPerMinute,
      },
      concurrent: {
        rounds: CONCURRENT_ROUNDS,
        roundSeconds: many.roundSeconds.map((seconds) => Number(seconds.toFixed(1))),
        publishSeconds: many.publishSeconds.map((seconds) => Number(seconds.toFixed(1))),
        writeGapMs: gaps,
        contentCreatingPerRound: manyPerRound,
        byKind: Object.fromEntries(manyKinds),
        peakPerMinute: many.peakPerMinute,
        perCalendarMinute: many.stack.github.contentCreatingPerMinute(),
      },
      rejected: rejected.length,
      validationErrors,
      maxPerRound: MAX_PER_ROUND,
      maxPerMinute: MAX_PER_MINUTE,
      pass,
    },
  );
  if (!sane) {
    console.error(
      `the rounds did not complete cleanly:\n${single.output.slice(-3000)}\n${many.output.slice(-3000)}`,
    );
  }
  if (!pass) process.exitCode = 1;
  await Promise.all([single.stack.close(), many.stack.close()]);
} finally {
  await built.remove();
}
