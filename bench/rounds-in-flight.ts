/**
 * Memory with rounds in flight: one app process (the built JavaScript with `npm start`'s node flags)
 * receives 20 pull requests of 50 files at once, against the fake GitHub and paced fake models
 * (each turn 0.3–1.2 s, 2–3 review turns per reviewer), so the 20 rounds overlap from snapshot
 * to publishing. Samples the app's RSS from /proc every 100 ms and reads its peak (VmHWM) at the
 * end; counts how many rounds were in flight at once (started, check not yet completed).
 * Target: peak RSS < 400 MB with 20 rounds in flight. Exits 1 when missed or a round fails.
 * Run: `npx tsx bench/rounds-in-flight.ts` (BENCH_PULL_REQUESTS, BENCH_FILES to vary).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { MODELS, scriptAll, startStack, WEBHOOK_SECRET, waitFor } from "../test/e2e/harness.js";
import { deliver, pullRequestEvent } from "../test/fakes/fake-github/index.js";
import { buildApp } from "./build-app.js";
import { npmStartNodeArgs } from "./npm-start-node-args.js";
import { pacedReviewer } from "./paced-reviewer.js";
import { printReport } from "./print-report.js";
import { readProcessStats } from "./process-stats.js";
import { startBenchApp } from "./start-bench-app.js";
import { syntheticPullRequest } from "./synthetic-pull-request.js";

const PULL_REQUESTS = Number(process.env.BENCH_PULL_REQUESTS ?? 20);
const FILE_COUNT = Number(process.env.BENCH_FILES ?? 50);
const MAX_RSS_MB = 400;
const SAMPLE_MS = 100;

const stack = await startStack({
  // The most model calls at once the config allows: the rounds share them, as in production.
  review: "  concurrency: 64\n  maxTurns: 6\n  timeoutSeconds: 120",
});
scriptAll(
  stack,
  pacedReviewer({
    seed: 5,
    models: MODELS.map((model) => model.id),
    fileCount: FILE_COUNT,
    turnMs: [300, 1_200],
    reviewTurns: [2, 3],
  }),
);
const built = await buildApp();
const app = await startBenchApp(stack, {
  entry: built.entry,
  // GitHub's write budget (0: off) would only stretch the publishing tail; memory is measured.
  env: { GADFLY_GITHUB_WRITES_PER_MINUTE: "0" },
});

try {
  const { github } = stack;
  const pr = syntheticPullRequest(FILE_COUNT);
  github.addRepo({ owner: "octo-org", name: "api", files: pr.baseFiles });
  const pullRequests = Array.from({ length: PULL_REQUESTS }, (_, index) =>
    github.addPullRequest({ title: `Query helpers ${index + 1}`, files: pr.files }),
  );
  const started = await readProcessStats(app.pid);
  const inFlight = () =>
    pullRequests.filter((pullRequest) => {
      const checks = github.checkRuns(pullRequest.headSha);
      return checks.length > 0 && checks.every((check) => check.status !== "completed");
    }).length;
  const completed = () =>
    pullRequests.filter((pullRequest) =>
      github.checkRuns(pullRequest.headSha).some((check) => check.status === "completed"),
    ).length;

  let sampling = true;
  let maxInFlight = 0;
  let peakSampledRssMb = 0;
  const sampler = (async () => {
    while (sampling) {
      maxInFlight = Math.max(maxInFlight, inFlight());
      // The app gone (a crash) ends the sampling; the wait below then reports its output.
      const stats = await readProcessStats(app.pid).catch(() => undefined);
      if (stats === undefined) return;
      peakSampledRssMb = Math.max(peakSampledRssMb, stats.rssMb);
      await sleep(SAMPLE_MS);
    }
  })();
  const startedAt = performance.now();
  await Promise.all(
    pullRequests.map((pullRequest) =>
      deliver(app.webhookUrl, pullRequestEvent("opened", pullRequest), WEBHOOK_SECRET),
    ),
  );
  await waitFor(() => {
    if (app.process.exitCode !== null || app.process.signalCode !== null) {
      throw new Error(`the app exited (${app.process.exitCode ?? app.process.signalCode})`);
    }
    return completed() === PULL_REQUESTS;
  }, 600_000).catch((error: unknown) => {
    throw new Error(
      `${completed()} of ${PULL_REQUESTS} rounds completed: ${String(error)}\n${app.output().slice(-4000)}`,
    );
  });
  const wallMs = performance.now() - startedAt;
  sampling = false;
  await sampler;
  const end = await readProcessStats(app.pid);
  const published = pullRequests.filter(
    (pullRequest) =>
      github
        .comments(pullRequest)
        .filter((comment) => comment.body.startsWith("<!-- gadfly-consensus -->")).length === 1,
  ).length;
  const sane = published === PULL_REQUESTS && github.validationErrors.length === 0;
  const overlapped = maxInFlight >= PULL_REQUESTS;
  const pass = sane && overlapped && end.peakRssMb < MAX_RSS_MB;
  printReport(
    [
      [
        "workload",
        `${PULL_REQUESTS} PRs × ${FILE_COUNT} files opened at once, ${MODELS.length} models × 5 lenses, turns 0.3–1.2 s`,
      ],
      [
        "app process",
        `built dist/main.js, node ${npmStartNodeArgs().join(" ") || "without flags"}`,
      ],
      ["RSS after start, MB", started.rssMb.toFixed(0)],
      ["rounds in flight at once, most", `${maxInFlight} (of ${PULL_REQUESTS})`],
      ["all rounds done after, s", (wallMs / 1000).toFixed(1)],
      ["CPU over the rounds, s", ((end.cpuMs - started.cpuMs) / 1000).toFixed(1)],
      ["RSS, highest sample, MB", peakSampledRssMb.toFixed(0)],
      ["peak RSS (VmHWM), MB", `${end.peakRssMb.toFixed(0)} (target < ${MAX_RSS_MB})`],
      ["consensus comments", `${published} of ${PULL_REQUESTS}`],
      ["result", pass ? "PASS" : "FAIL"],
    ],
    {
      bench: "rounds-in-flight",
      nodeArgs: npmStartNodeArgs(),
      pullRequests: PULL_REQUESTS,
      files: FILE_COUNT,
      maxInFlight,
      wallMs: Math.round(wallMs),
      cpuMs: Math.round(end.cpuMs - started.cpuMs),
      startRssMb: Number(started.rssMb.toFixed(1)),
      peakSampledRssMb: Number(peakSampledRssMb.toFixed(1)),
      peakRssMb: Number(end.peakRssMb.toFixed(1)),
      maxRssMb: MAX_RSS_MB,
      published,
      pass,
    },
  );
  if (!pass) process.exitCode = 1;
} finally {
  await app.stop();
  await stack.close();
  await built.remove();
}
