import { setTimeout as sleep } from "node:timers/promises";
import {
  MODELS,
  type Stack,
  scriptAll,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "../test/e2e/harness.js";
import { readAppStore } from "../test/e2e/read-app-store.js";
import {
  deliver,
  type PullRequestSnapshot,
  pullRequestEvent,
} from "../test/fakes/fake-github/index.js";
import { economyReviewer } from "./economy-reviewer.js";
import { JumpClock } from "./jump-clock.js";
import { startBenchApp } from "./start-bench-app.js";
import { startInProcessApp } from "./start-in-process-app.js";
import { CHANGED_LINES, syntheticPath, syntheticPullRequest } from "./synthetic-pull-request.js";

export type EconomyArm = "full" | "economy";

/** What the fake providers billed for one round, summed over both fakes. */
export interface RoundBill {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  modelCalls: number;
  requestBytes: number;
  /** Input tokens the app stored for the round (lens reports, challenges, re-checks). */
  storedInputTokens: number;
  /** Of those, the cross-examination's challenges and the re-checks': what review sessions do not cost. */
  storedChallengeInputTokens: number;
}

export interface ArmFigures {
  arm: EconomyArm;
  round1: RoundBill;
  round2: RoundBill;
  /** `full` or `incremental`, as the app's board said for round 2. */
  round2Scope: string;
  /** Rounds started by the burst of pushes (workers that took a round). */
  pushBurstRounds: number;
  /** Check runs the burst left, one per round that began reviewing. */
  pushBurstChecks: number;
}

export interface EconomyOptions {
  fileCount: number;
  /** The app process's entry (built `dist/main.js`); absent: `src/main.ts` through tsx. */
  entry?: string;
  /** Pushes in the burst, and the time between two (five, 12 s: 48 s from first to last). */
  pushes?: number;
  pushIntervalMs?: number;
}

/** The quiet period of the burst: the default `review.debounceSeconds`. */
export const DEFAULT_DEBOUNCE_SECONDS = 30;
const REPO = { owner: "octo-org", name: "api" };
const ROUND_TIMEOUT_MS = 180_000;

/**
 * One arm of the economy benchmark. Tokens: the app process (as `npm start` runs it) against
 * the fake GitHub and fake models reviews the synthetic PR (round 1), then a push that changes
 * one file (round 2); every figure is what the fakes' responses reported as `usage`, read back
 * from the fakes, and checked against what the app stored. A push's quiet period is 0 here (it
 * costs no tokens, and waiting it out would only cost wall time). Burst: five pushes to another
 * PR 12 s apart, with the default quiet period in the economy arm and none in the old one; the
 * app runs in this process on a clock the benchmark jumps ahead (see startInProcessApp).
 */
export async function measureEconomyArm(
  arm: EconomyArm,
  options: EconomyOptions,
): Promise<ArmFigures> {
  const tokens = await measureTokens(arm, options);
  const burst = await measureBurst(arm, options);
  return { arm, ...tokens, ...burst };
}

function scriptReviewers(stack: Stack, fileCount: number): void {
  scriptAll(
    stack,
    economyReviewer({
      seed: 2,
      models: MODELS.map((model) => model.id),
      fileCount,
      turnMs: [0, 0],
      reviewTurns: [2, 3],
    }),
  );
}

async function measureTokens(arm: EconomyArm, options: EconomyOptions) {
  const stack = await startStack({ review: "  debounceSeconds: 0" });
  try {
    scriptReviewers(stack, options.fileCount);
    const app = await startBenchApp(stack, {
      ...(options.entry === undefined ? {} : { entry: options.entry }),
      // "compact" is the default: said, so a GADFLY_BENCH_PROMPT_STYLE of the caller's is not inherited.
      env: { GADFLY_BENCH_PROMPT_STYLE: arm === "full" ? "full-diff" : "compact" },
    });
    try {
      const { github } = stack;
      const synthetic = syntheticPullRequest(options.fileCount);
      github.addRepo({ ...REPO, files: synthetic.baseFiles });
      let pr = github.addPullRequest({ title: "Query helpers", files: synthetic.files });
      const mark1 = billMark(stack);
      await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
      await roundEnded(stack, pr.headSha, app.output);
      const round1 = bill(stack, mark1, pr.headSha);

      // The author fixes the finding every model reported on the first file: one file changes.
      const before = pr.headSha;
      const fixed = String(synthetic.files[0]?.head ?? "")
        .split("\n")
        .map((text, index) =>
          index + 1 >= CHANGED_LINES[0] && index + 1 < CHANGED_LINES[0] + 5
            ? `export const query${index + 1} = (name) => db.query("SELECT * FROM t0 WHERE n = $1", [name]);`
            : text,
        )
        .join("\n");
      pr = github.pushCommit(pr, [{ path: syntheticPath(0), content: fixed }]);
      const mark2 = billMark(stack);
      await deliver(
        app.webhookUrl,
        pullRequestEvent("synchronize", pr, { before }),
        WEBHOOK_SECRET,
      );
      await roundEnded(stack, pr.headSha, app.output);
      const round2 = bill(stack, mark2, pr.headSha);
      const board = github
        .comments(pr)
        .find((comment) => comment.body.startsWith("<!-- gadfly-status-board -->"));
      const round2Scope = /\bincremental\b/i.test(board?.body ?? "") ? "incremental" : "full";
      return { round1, round2, round2Scope };
    } finally {
      await app.stop();
    }
  } finally {
    await stack.close();
  }
}

async function measureBurst(arm: EconomyArm, options: EconomyOptions) {
  const pushes = options.pushes ?? 5;
  const intervalMs = options.pushIntervalMs ?? 12_000;
  const debounceSeconds = arm === "economy" ? DEFAULT_DEBOUNCE_SECONDS : 0;
  // The quiet period is named even at its default: the e2e stack would otherwise set 0.
  const stack = await startStack({ review: `  debounceSeconds: ${debounceSeconds}` });
  const clock = new JumpClock();
  try {
    scriptReviewers(stack, options.fileCount);
    const app = await startInProcessApp(
      stack,
      clock,
      arm === "full" ? { promptStyle: "full-diff", everyRoundFull: true } : {},
    );
    try {
      const { github } = stack;
      const synthetic = syntheticPullRequest(options.fileCount);
      github.addRepo({ ...REPO, files: synthetic.baseFiles });
      let pr: PullRequestSnapshot = github.addPullRequest({
        title: "Query helpers",
        files: synthetic.files,
      });
      const heads = [pr.headSha];
      // The first push opens the PR; the others follow `intervalMs` apart on the app's clock.
      for (let push = 1; push <= pushes; push++) {
        if (push > 1) {
          clock.jump(intervalMs);
          const before = pr.headSha;
          pr = github.pushCommit(pr, [
            { path: syntheticPath(push % options.fileCount), content: `// push ${push}\n` },
          ]);
          heads.push(pr.headSha);
          await accepted(
            deliver(
              app.webhookUrl,
              pullRequestEvent("synchronize", pr, { before }),
              WEBHOOK_SECRET,
            ),
          );
        } else {
          await accepted(deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET));
        }
        // A moment of real time: a round without a quiet period is taken at once, as it would be.
        await sleep(300);
      }
      // The quiet period after the last push, then the round (or the last one) to its end.
      clock.jump(debounceSeconds * 1000);
      const last = pr.headSha;
      await waitFor(
        () => github.checkRuns(last).some((check) => check.status === "completed"),
        ROUND_TIMEOUT_MS,
      );
      await app.settled();
      return {
        pushBurstRounds: app.roundsStarted(),
        pushBurstChecks: heads.reduce((sum, head) => sum + github.checkRuns(head).length, 0),
      };
    } finally {
      await app.stop();
    }
  } finally {
    await stack.close();
  }
}

async function accepted(response: Promise<{ status: number }>): Promise<void> {
  const { status } = await response;
  if (status >= 300) throw new Error(`the app refused a push's delivery: ${status}`);
}

interface BillMark {
  openai: number;
  ollama: number;
}

function billMark(stack: Stack): BillMark {
  return { openai: stack.openai.billed.length, ollama: stack.ollama.billed.length };
}

function bill(stack: Stack, mark: BillMark, headSha: string): RoundBill {
  const lines = [
    ...stack.openai.billed.slice(mark.openai),
    ...stack.ollama.billed.slice(mark.ollama),
  ];
  const sum = (pick: (line: (typeof lines)[number]) => number) =>
    lines.reduce((total, line) => total + pick(line), 0);
  const stored = readAppStore<{ tokens: number | null; challenges: number | null }>(
    stack.dataDir,
    `SELECT (SELECT COALESCE(SUM(input_tokens), 0) FROM lens_runs WHERE round_id = r.id)
          + (SELECT COALESCE(SUM(input_tokens), 0) FROM round_challenges WHERE round_id = r.id)
          AS tokens,
            (SELECT COALESCE(SUM(input_tokens), 0) FROM round_challenges WHERE round_id = r.id)
          AS challenges
     FROM rounds r WHERE r.head_sha = ? AND r.state = 'completed'`,
    headSha,
  );
  return {
    inputTokens: sum((line) => line.inputTokens),
    cachedInputTokens: sum((line) => line.cachedInputTokens),
    outputTokens: sum((line) => line.outputTokens),
    modelCalls: lines.length,
    requestBytes: sum((line) => line.requestBytes),
    storedInputTokens: Number(stored[0]?.tokens ?? Number.NaN),
    storedChallengeInputTokens: Number(stored[0]?.challenges ?? Number.NaN),
  };
}

/** Waits until the app's store says the round of `headSha` ended, and insists it completed. */
async function roundEnded(stack: Stack, headSha: string, output: () => string): Promise<void> {
  const state = () =>
    readAppStore<{ state: string }>(
      stack.dataDir,
      "SELECT state FROM rounds WHERE head_sha = ? ORDER BY round_number DESC LIMIT 1",
      headSha,
    )[0]?.state;
  await waitFor(
    () => ["completed", "failed", "cancelled"].includes(state() ?? ""),
    ROUND_TIMEOUT_MS,
  ).catch((error: unknown) => {
    throw new Error(
      `the round of ${headSha.slice(0, 7)} did not end: ${String(error)}\n${output().slice(-4000)}`,
    );
  });
  if (state() !== "completed") {
    throw new Error(
      `the round of ${headSha.slice(0, 7)} ended ${state()}\n${output().slice(-4000)}`,
    );
  }
}
