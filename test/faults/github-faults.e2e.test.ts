import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { appLogs } from "../e2e/app-logs.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "../e2e/harness.js";
import { type ReviewRouter, routeReviews } from "../e2e/route-reviews.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import { FaultOutcomes } from "./fault-outcomes.js";
import { Gate } from "./gate.js";
import { type PublishedArtifacts, publishedArtifacts } from "./published-artifacts.js";
import { unhandledErrors } from "./unhandled-errors.js";

/*
 * GitHub failing under a round: one repository per fault (so a fault's path
 * pattern cannot hit another fault's requests), all rounds at once in one app
 * process. Models answer at once; a gate holds them where a fault must land
 * mid-round.
 */

const OWNER = "octo-org";
const FILE = "src/session.js";
const FAULTS = ["board-500", "review-422", "comment-403", "pr-404", "force-push"] as const;
type Fault = (typeof FAULTS)[number];

const leak: LensFinding = {
  file: FILE,
  line: 2,
  endLine: 2,
  severity: "high",
  confidence: "high",
  title: "The session secret is logged in plain text",
  body: "`console.log(secret)` writes the session secret to the logs.",
};

describe("GitHub faults", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;
  const outcomes = new FaultOutcomes("GitHub faults");
  const gates = new Map(FAULTS.map((fault) => [fault, new Gate()]));
  const pulls = new Map<Fault, PullRequestSnapshot>();

  const gate = (fault: Fault): Gate => {
    const found = gates.get(fault);
    if (found === undefined) throw new Error(`no gate for ${fault}`);
    return found;
  };
  const pull = (fault: Fault): PullRequestSnapshot => {
    const pr = pulls.get(fault);
    if (pr === undefined) throw new Error(`no pull request for ${fault}`);
    return pr;
  };
  const published = (fault: Fault, shas?: string[]): PublishedArtifacts =>
    publishedArtifacts(stack.github, pull(fault), shas);
  const boardPosted = (fault: Fault) =>
    stack.github
      .requests({ method: "POST", path: `/repos/${OWNER}/${fault}/issues/*/comments` })
      .some((request) => request.status === 201);
  const completed = (fault: Fault, sha = pull(fault).headSha) =>
    stack.github.checkRuns(sha).some((check) => check.status === "completed");
  const roundLogs = (fault: Fault) =>
    appLogs(app.output()).filter((line) => line.repo === `${OWNER}/${fault}`);

  /** Nothing crashed, nothing broke GitHub's schema. */
  const healthy = () => {
    expect(unhandledErrors(app.output())).toEqual([]);
    expect(app.process.exitCode).toBeNull();
    expect(stack.github.validationErrors).toEqual([]);
  };

  /*
   * Drivers of the faults that must land mid-round: started together in
   * beforeAll (the rounds run at once), awaited by their tests.
   */
  const drivers = new Map<Fault, Promise<void>>();
  /** The head pushed while the first round was publishing. */
  let forcePushed: Promise<PullRequestSnapshot>;

  /** After the board exists, the consensus comment's creation hits the secondary rate limit too. */
  const limitConsensusCreation = async (): Promise<void> => {
    await waitFor(() => boardPosted("comment-403"), 45_000);
    stack.github.secondaryRateLimitNext("POST", `/repos/${OWNER}/comment-403/issues/*/comments`, 1);
    gate("comment-403").open();
  };

  /** While the reviewers work, the pull request disappears: everything under it answers 404. */
  const deletePullRequest = async (): Promise<void> => {
    const pr = pull("pr-404");
    await waitFor(() => boardPosted("pr-404") && router.total("[pr-404]") >= 2, 45_000);
    const gone = new RegExp(
      `^/repos/${OWNER}/pr-404/(pulls/${pr.number}|issues/${pr.number}|issues/comments/\\d+)(/|$)`,
    );
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      stack.github.failNext(method, gone, 404, { times: 1000 });
    }
    gate("pr-404").open();
  };

  /** Pushes a new head while the first round's consensus comment is being created (slowly). */
  const forcePushWhilePublishing = async (): Promise<PullRequestSnapshot> => {
    const { github } = stack;
    const first = pull("force-push");
    const comments = `/repos/${OWNER}/force-push/issues/${first.number}/comments`;
    await waitFor(() => boardPosted("force-push"), 45_000);
    github.setLatency("POST", comments, 6_000);
    gate("force-push").open();
    await waitFor(
      () => github.requests({ method: "POST", path: comments }).some((post) => post.status === 0),
      45_000,
    );
    const second = github.pushCommit(first, [
      { path: FILE, content: "export const secret = rotate();\n" },
    ]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", second, { before: first.headSha }),
      WEBHOOK_SECRET,
    );
    return second;
  };

  beforeAll(async () => {
    stack = await startStack({ review: "  concurrency: 16\n  maxTurns: 3\n  timeoutSeconds: 30" });
    const { github } = stack;
    router = routeReviews(
      stack,
      Object.fromEntries(
        FAULTS.map((fault) => [
          `[${fault}]`,
          {
            findings: () => (fault === "review-422" ? [leak] : []),
            intercept: async () => {
              await gate(fault).opened;
              return undefined;
            },
          },
        ]),
      ),
    );
    for (const fault of FAULTS) {
      github.addRepo({
        owner: OWNER,
        name: fault,
        ownerType: "Organization",
        files: { ".github/gadfly.yml": 'models: [gpt-a, "glm-5.2:cloud"]\nlenses: [security]\n' },
      });
    }
    app = await startApp(stack);

    // Faults in place before the round starts.
    github.failNext("PATCH", `/repos/${OWNER}/board-500/issues/comments/*`, 500, { times: 4 });
    github.failNext("POST", `/repos/${OWNER}/review-422/pulls/*/reviews`, 422);
    github.secondaryRateLimitNext("POST", `/repos/${OWNER}/comment-403/issues/*/comments`, 1);
    for (const fault of ["board-500", "review-422"] as const) gate(fault).open();

    for (const fault of FAULTS) {
      const pr = github.addPullRequest({
        owner: OWNER,
        repo: fault,
        title: `Log the session [${fault}]`,
        files: [
          {
            path: FILE,
            base: "export const secret = load();\n",
            head: "export const secret = load();\nconsole.log(secret);\n",
          },
        ],
      });
      pulls.set(fault, pr);
      await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    }
    drivers.set("comment-403", limitConsensusCreation());
    drivers.set("pr-404", deletePullRequest());
    forcePushed = forcePushWhilePublishing();
    // Awaited by their tests; a failure here must not surface as an unhandled rejection first.
    for (const driver of [...drivers.values(), forcePushed]) driver.catch(() => undefined);
  }, 60_000);

  afterAll(async () => {
    if (outcomes.rows.some((row) => !row.held)) {
      console.log(`the app's output:\n${app?.output().split("\n").slice(-80).join("\n")}`);
    }
    await app?.stop();
    await stack?.close();
    outcomes.print(5);
  });

  it("500 on status-board edits: the board still ends in its final state", async () => {
    await outcomes.check("GitHub 500 on the status-board edit (4 in a row)", async () => {
      await waitFor(() => completed("board-500"), 45_000);
      await waitFor(
        () => (published("board-500").boards[0]?.body ?? "").includes("2/2 reviewers finished"),
        45_000,
      );
      const artifacts = published("board-500");
      const edits = stack.github.requests({
        method: "PATCH",
        path: `/repos/${OWNER}/board-500/issues/comments/*`,
      });
      const failed = edits.filter((edit) => edit.status === 500);
      expect(failed).toHaveLength(4);
      // The edit that failed was written again, and the last edit is the final state.
      expect(edits.at(-1)?.status).toBe(200);
      expect(artifacts.boards).toHaveLength(1);
      expect(artifacts.createdBoards).toBe(1);
      expect(artifacts.boards[0]?.body).toContain("Every changed file was reviewed.");
      expect(
        roundLogs("board-500").some((line) => line.msg === "status board edit failed; will retry"),
      ).toBe(true);
      expect(artifacts.consensus).toHaveLength(1);
      expect(artifacts.checks).toHaveLength(1);
      expect(artifacts.checks[0]?.conclusion).toBe("neutral");
      healthy();
      return `${failed.length} edits answered 500, then rewritten: board final ("2/2 reviewers finished"), one board`;
    });
  });

  it("422 on the review: one body-only review listing the findings", async () => {
    await outcomes.check("GitHub 422 on the review", async () => {
      await waitFor(() => completed("review-422"), 45_000);
      const artifacts = published("review-422");
      expect(artifacts.reviewPosts).toBe(2);
      expect(artifacts.reviews).toHaveLength(1);
      const [review] = artifacts.reviews;
      expect(review?.comments).toEqual([]);
      expect(review?.body).toContain(leak.title);
      expect(review?.commitId).toBe(pull("review-422").headSha);
      expect(artifacts.consensus).toHaveLength(1);
      expect(artifacts.consensus[0]?.body).toContain(leak.title);
      expect(artifacts.checks).toHaveLength(1);
      expect(artifacts.checks[0]?.output.title).toBe("Significant issues");
      healthy();
      return `fell back to one body-only review naming the finding · check "${artifacts.checks[0]?.output.title}"`;
    });
  });

  it("403 secondary rate limit on comment creation: retried, one comment each", async () => {
    await outcomes.check(
      "GitHub 403 secondary rate limit (Retry-After: 1) on comment creation",
      async () => {
        const { github } = stack;
        const pr = pull("comment-403");
        await drivers.get("comment-403");
        await waitFor(() => completed("comment-403"), 45_000);
        await waitFor(() => published("comment-403").consensus.length > 0);
        const artifacts = published("comment-403");
        const limited = github
          .requests({
            method: "POST",
            path: `/repos/${OWNER}/comment-403/issues/${pr.number}/comments`,
          })
          .filter((request) => request.status === 403);
        expect(limited).toHaveLength(2);
        expect(artifacts.boards).toHaveLength(1);
        expect(artifacts.consensus).toHaveLength(1);
        expect(artifacts.createdConsensus).toBe(1);
        expect(artifacts.checks).toHaveLength(1);
        expect(artifacts.checks[0]?.output.title).toBe("No material issues found");
        healthy();
        return `board and consensus creation each limited once, retried: one board, one consensus · check "${artifacts.checks[0]?.output.title}"`;
      },
    );
  });

  it("404 for the pull request mid-round: the round ends failed, honestly", async () => {
    await outcomes.check("GitHub 404 for the PR mid-round (deleted)", async () => {
      await drivers.get("pr-404");
      await waitFor(() => completed("pr-404"), 45_000);
      const artifacts = published("pr-404");
      expect(artifacts.checks).toHaveLength(1);
      const [check] = artifacts.checks;
      expect(check?.conclusion).toBe("neutral");
      expect(check?.output.title).toBe("Gadfly could not finish this review");
      expect(check?.output.summary).toMatch(/404/);
      expect(artifacts.consensus).toEqual([]);
      expect(artifacts.reviews).toEqual([]);
      expect(artifacts.boards).toHaveLength(1);
      expect(artifacts.createdBoards).toBe(1);
      expect(roundLogs("pr-404").some((line) => line.msg === "round failed")).toBe(true);
      healthy();
      return `round failed · check "${check?.output.title}": ${check?.output.summary?.split("\n", 1)[0]}`;
    });
  });

  it("a force-push while the round publishes: one board, one consensus, the new head wins", async () => {
    await outcomes.check("force-push mid-round (while publishing)", async () => {
      const second = await forcePushed;
      const first = pull("force-push");
      await waitFor(() => completed("force-push", second.headSha), 45_000);
      await waitFor(() => completed("force-push", first.headSha), 20_000);
      await waitFor(() =>
        published("force-push").consensus.some((comment) => comment.body.includes(second.headSha)),
      );
      const artifacts = published("force-push", [first.headSha, second.headSha]);
      expect(artifacts.boards).toHaveLength(1);
      expect(artifacts.createdBoards).toBe(1);
      expect(artifacts.consensus).toHaveLength(1);
      expect(artifacts.createdConsensus).toBe(1);
      const [old, fresh] = [first.headSha, second.headSha].map((sha) =>
        stack.github.checkRuns(sha),
      );
      expect(old).toHaveLength(1);
      expect(fresh).toHaveLength(1);
      expect(fresh?.[0]?.conclusion).toBe("neutral");
      expect(["neutral", "cancelled"]).toContain(old?.[0]?.conclusion);
      for (const sha of [first.headSha, second.headSha]) {
        expect(
          artifacts.reviews.filter((review) => review.commitId === sha).length,
        ).toBeLessThanOrEqual(1);
      }
      // The board ends as the new round left it.
      await waitFor(() => {
        const board = published("force-push").boards[0]?.body ?? "";
        return (
          board.includes(`Round 2 · head \`${second.headSha.slice(0, 7)}\``) &&
          board.includes("2/2 reviewers finished")
        );
      });
      healthy();
      return `old round ${old?.[0]?.conclusion} ("${old?.[0]?.output.title}"), new round neutral · one board, one consensus for ${second.headSha.slice(0, 7)}`;
    });
  });

  // The process being killed mid-round (SIGKILL, then a restart) is not a GitHub fault and has no
  // row here: test/e2e/restarts.e2e.test.ts kills the app mid-round and while publishing, and
  // asserts the restart finishes each round with one of everything.
});
