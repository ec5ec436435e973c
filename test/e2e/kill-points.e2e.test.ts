import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { KILL_POINTS, type KillPoint } from "../../src/github/kill-points.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  type RunningApp,
  reviewerScript,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { readAppStore } from "./read-app-store.js";
import { type Backend, STORE_BACKENDS } from "./store-backends.js";

/** One model, one lens: the smallest round that still posts every artifact. */
const MODEL = { id: "gpt-a", provider: "openai" } as const;
const PATH = "src/session.js";
const LINES = Array.from({ length: 8 }, (_, index) => `export const part${index + 1} = ${index};`);

/** Two high findings on changed lines: a lone model's high finding goes inline by default. */
const FINDINGS: LensFinding[] = [
  {
    file: PATH,
    line: 2,
    endLine: 2,
    severity: "high",
    confidence: "high",
    title: "The session secret is logged in plain text",
    body: "`console.log(secret)` writes the session secret to the logs.",
  },
  {
    file: PATH,
    line: 6,
    endLine: 6,
    severity: "high",
    confidence: "high",
    title: "The token is compared with ==",
    body: "`token == expected` leaks timing; compare in constant time.",
  },
];

interface Counts {
  point: string;
  killed: string;
  board: number;
  consensus: number;
  review: number;
  inline: number;
  recorded: number;
  check: number;
}

/** Kill points run one at a time: each is two app start-ups, which a loaded 2-core machine makes slow. */
const PARALLEL = 1;

/** The stack both suites run on: one model, one lens, and the PR's repository. */
async function startKillStack(): Promise<Stack> {
  const stack = await startStack({
    models: [MODEL],
    review: "  concurrency: 4\n  maxTurns: 4\n  timeoutSeconds: 60",
  });
  stack.openai.script(
    MODEL.id,
    reviewerScript((_model, lens) => (lens === "security" ? FINDINGS : []), PATH),
  );
  stack.github.addRepo({
    owner: "octo-org",
    name: "kill",
    ownerType: "Organization",
    files: { ".github/gadfly.yml": "lenses: [security]\n" },
  });
  return stack;
}

function openKillPullRequest(stack: Stack, title: string): PullRequestSnapshot {
  return stack.github.addPullRequest({
    owner: "octo-org",
    repo: "kill",
    title,
    files: [
      {
        path: PATH,
        // The last line tells the PRs apart (their commits, and so their head SHAs, differ).
        base: `${[...LINES, `// ${title}`].join("\n")}\n`,
        head: `${[...LINES.map((line, index) => (index === 1 ? "console.log(secret);" : index === 5 ? "if (token == expected) ok();" : line)), `// ${title}`].join("\n")}\n`,
      },
    ],
  });
}

function ownComments(stack: Stack, pr: PullRequestSnapshot, marker: string) {
  return stack.github
    .comments(pr)
    .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
}

describe.each(STORE_BACKENDS)(
  "kill-point matrix (%s store): a kill at any publishing step, then a restart, posts each artifact once",
  (_label, open) => {
    let stack: Stack;
    let backend: Backend;
    /** The round's state as the app's store has it; undefined before its tables exist. */
    const roundState = async (dataDir: string, pr: PullRequestSnapshot) => {
      const rows = await backend
        .query<{ state: string }>(
          dataDir,
          "SELECT state FROM rounds WHERE pull_number = $1 AND head_sha = $2",
          pr.number,
          pr.headSha,
        )
        .catch(() => []);
      return rows[0]?.state;
    };

    beforeAll(async () => {
      backend = await open();
      stack = await startKillStack();
    }, 60_000);

    afterAll(async () => {
      await stack?.close();
      await backend?.close();
    });

    /** Opens a PR, lets the app die at `point`, restarts it, waits for the round to complete. */
    const killAndRestart = async (point: KillPoint): Promise<Counts> => {
      const dataDir = join(stack.dir, `data-${backend.name}-${point}`);
      // With PostgreSQL the restarted process is another worker: the killed one's lease must run
      // out before it takes the round over (SQLite's single process expires it at start).
      const env = {
        ...(await backend.env(dataDir)),
        ...(backend.name === "postgres" ? { GADFLY_VISIBILITY_TIMEOUT_SECONDS: "5" } : {}),
      };
      const pr = openKillPullRequest(stack, `Sessions, killed at ${point}`);
      const doomed = await startApp(stack, { ...env, GADFLY_TEST_KILL_POINT: point });
      await deliver(doomed.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
      await waitFor(
        () => doomed.process.exitCode !== null || doomed.process.signalCode !== null,
        60_000,
      );
      const killed = String(doomed.process.signalCode ?? `exit ${doomed.process.exitCode}`);
      const restarted = await startApp(stack, env);
      try {
        await waitFor(async () => (await roundState(dataDir, pr)) === "completed", 60_000);
      } finally {
        await restarted.stop("SIGTERM");
      }
      const reviews = stack.github.reviews(pr);
      const recorded = await backend.query(
        dataDir,
        "SELECT 1 FROM posted_inline WHERE pull_number = $1",
        pr.number,
      );
      return {
        point,
        killed,
        board: ownComments(stack, pr, MARKERS.statusBoard).length,
        consensus: ownComments(stack, pr, MARKERS.consensus).length,
        review: reviews.length,
        inline: reviews.flatMap((review) => review.comments).length,
        recorded: recorded.length,
        check: stack.github.checkRuns(pr.headSha).length,
      };
    };

    it("every kill point: one board, one consensus, one review, one inline comment per finding (recorded), one check", async () => {
      const pending = [...KILL_POINTS];
      const results: Counts[] = [];
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let point = pending.shift(); point !== undefined; point = pending.shift()) {
            results.push(await killAndRestart(point));
          }
        }),
      );
      results.sort(
        (a, b) =>
          KILL_POINTS.indexOf(a.point as KillPoint) - KILL_POINTS.indexOf(b.point as KillPoint),
      );
      console.log(
        `kill-point matrix (${FINDINGS.length} findings, each should be 1 / ${FINDINGS.length}):`,
      );
      console.table(results);
      for (const counts of results) {
        expect(counts).toEqual({
          point: counts.point,
          killed: "SIGKILL",
          board: 1,
          consensus: 1,
          review: 1,
          inline: FINDINGS.length,
          recorded: FINDINGS.length,
          check: 1,
        });
      }
      expect(stack.github.validationErrors).toEqual([]);
    }, 900_000);
  },
);

describe("a push while a round publishes", () => {
  let stack: Stack;
  const own = (pr: PullRequestSnapshot, marker: string) => ownComments(stack, pr, marker);
  const openPullRequest = (title: string) => openKillPullRequest(stack, title);
  const roundState = (dataDir: string, pr: PullRequestSnapshot, sha = pr.headSha) =>
    readAppStore<{ state: string }>(
      dataDir,
      "SELECT state FROM rounds WHERE pull_number = ? AND head_sha = ?",
      pr.number,
      sha,
    )[0]?.state;

  beforeAll(async () => {
    stack = await startKillStack();
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("a push while the round publishes ends the old round cancelled, with nothing more posted", async () => {
    const { github } = stack;
    const dataDir = join(stack.dir, "data-push");
    let app: RunningApp | undefined;
    try {
      app = await startApp(stack, { GADFLY_DATA_DIR: dataDir });
      const pr = openPullRequest("Sessions, pushed while publishing");
      const reviewsPath = `/repos/octo-org/kill/pulls/${pr.number}/reviews`;
      // The review's POST stalls: the push lands while the old round is publishing.
      github.setLatency("POST", reviewsPath, 3_000);
      await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
      await waitFor(
        () => github.requests({ method: "POST", path: reviewsPath }).length === 1,
        60_000,
      );
      const pushed = github.pushCommit(pr, [
        { path: "src/other.js", content: "export const other = 1;\n" },
      ]);
      await deliver(
        app.webhookUrl,
        pullRequestEvent("synchronize", pushed, { before: pr.headSha }),
        WEBHOOK_SECRET,
      );
      github.clearFaults();

      // The old round: its check ends cancelled (naming the newer head), never neutral.
      await waitFor(
        () => github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
        30_000,
      );
      const oldCheck = github.checkRuns(pr.headSha);
      expect(oldCheck).toHaveLength(1);
      expect(oldCheck[0]?.conclusion).toBe("cancelled");
      expect(roundState(dataDir, pr)).toBe("cancelled");
      // Its review (in flight when the push landed) is recorded, but no step after it ran.
      const steps = readAppStore<{ step: string; state: string }>(
        dataDir,
        `SELECT p.step, p.state FROM publish_steps p JOIN rounds r ON r.id = p.round_id
         WHERE r.pull_number = ? AND r.head_sha = ? ORDER BY p.step`,
        pr.number,
        pr.headSha,
      );
      expect(steps.map((row) => row.step)).not.toContain("check");
      const oldCheckPatches = github
        .requests({ method: "PATCH", path: `/repos/octo-org/kill/check-runs/${oldCheck[0]?.id}` })
        .map((request) => (request.body as { conclusion?: string }).conclusion)
        .filter((conclusion) => conclusion !== undefined);
      expect(oldCheckPatches).toEqual(["cancelled"]);

      // The newer round completes on its head.
      await waitFor(() => roundState(dataDir, pr, pushed.headSha) === "completed", 60_000);
      expect(github.checkRuns(pushed.headSha)[0]?.conclusion).toBe("neutral");
      expect(own(pr, MARKERS.consensus)).toHaveLength(1);
      expect(own(pr, MARKERS.statusBoard)).toHaveLength(1);
      expect(github.validationErrors).toEqual([]);
    } finally {
      await app?.stop("SIGTERM");
    }
  }, 180_000);
});
