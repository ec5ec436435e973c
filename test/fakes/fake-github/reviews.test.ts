import type { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGitHub, type PullRequestSnapshot, startFakeGitHub } from "./index.js";
import { quietOctokit } from "./quiet-octokit.js";

let fake: FakeGitHub;
let octokit: Octokit;
let pullRequest: PullRequestSnapshot;
const repository = { owner: "alice", repo: "service" };

// 30 numbered lines; the PR changes lines 5 and 25, so the patch has two hunks:
// new-side lines 2–8 and 22–28.
const base = `${Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;
const head = base.replace("line 5\n", "line five\n").replace("line 25\n", "line twenty-five\n");

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo({ owner: "alice", name: "service" });
  octokit = quietOctokit(fake.apiUrl);
});
afterAll(() => fake.close());
beforeEach(() => {
  pullRequest = fake.addPullRequest({
    files: [
      { path: "src/numbers.txt", base, head },
      { path: "src/image.bin", head: Buffer.from([0, 1, 2]) },
    ],
  });
});

function createReview(
  comments: { path: string; line: number; start_line?: number; side?: "LEFT" | "RIGHT" }[],
  commitId = pullRequest.headSha,
) {
  return octokit.rest.pulls.createReview({
    ...repository,
    pull_number: pullRequest.number,
    commit_id: commitId,
    event: "COMMENT",
    body: "review body",
    comments: comments.map((comment) => ({ ...comment, body: "a finding" })),
  });
}

describe("creating a review", () => {
  it("stores a review whose comments lie inside hunks", async () => {
    const { data } = await createReview([
      { path: "src/numbers.txt", line: 5 },
      { path: "src/numbers.txt", start_line: 22, line: 28 },
      { path: "src/numbers.txt", line: 5, side: "LEFT" },
    ]);
    expect(data).toMatchObject({
      state: "COMMENTED",
      commit_id: pullRequest.headSha,
      user: { login: "gadfly[bot]", type: "Bot" },
    });
    const [review] = fake.reviews(pullRequest);
    expect(
      review?.comments.map((comment) => [
        comment.line,
        comment.startLine,
        comment.side,
        comment.position,
      ]),
    ).toEqual([
      [5, null, "RIGHT", 5],
      [28, 22, "RIGHT", 17],
      [5, null, "LEFT", 4],
    ]);
    expect(review?.comments[0]?.diffHunk.split("\n").at(-1)).toBe("+line five");

    const listed = await octokit.rest.pulls.listReviewComments({
      ...repository,
      pull_number: pullRequest.number,
    });
    expect(listed.data.map((comment) => comment.line)).toEqual([5, 28, 5]);
    const ofReview = await octokit.rest.pulls.listCommentsForReview({
      ...repository,
      pull_number: pullRequest.number,
      review_id: data.id,
    });
    expect(ofReview.data).toHaveLength(3);
    expect(fake.validationErrors).toEqual([]);
  });

  it.each([
    [
      "a line outside every hunk",
      [{ path: "src/numbers.txt", line: 15 }],
      "line must be part of the diff",
    ],
    [
      "a range spanning two hunks",
      [{ path: "src/numbers.txt", start_line: 6, line: 24 }],
      "same hunk",
    ],
    [
      "a start line equal to the line",
      [{ path: "src/numbers.txt", start_line: 5, line: 5 }],
      "precede",
    ],
    ["a file outside the PR", [{ path: "README.md", line: 1 }], "Path could not be resolved"],
    ["a binary file", [{ path: "src/image.bin", line: 1 }], "diff hunk can't be blank"],
  ])("rejects %s with 422 and stores nothing", async (_, comments, message) => {
    const failure = await createReview([{ path: "src/numbers.txt", line: 5 }, ...comments]).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      status: 422,
      response: {
        data: { message: "Unprocessable Entity", errors: [expect.stringContaining(message)] },
      },
    });
    expect(
      (failure as { response: { data: { documentation_url: string } } }).response.data
        .documentation_url,
    ).toMatch(/^https:/);
    expect(fake.reviews(pullRequest)).toEqual([]);
  });

  it("rejects an unknown commit_id and accepts an earlier head", async () => {
    await expect(createReview([], "0".repeat(40))).rejects.toMatchObject({ status: 422 });
    const earlier = pullRequest.headSha;
    fake.pushCommit(pullRequest, [{ path: "src/numbers.txt", content: `${head}line 31\n` }]);
    // Line 31 exists only in the new head; line 5 is in the earlier head's diff.
    await expect(
      createReview([{ path: "src/numbers.txt", line: 31 }], earlier),
    ).rejects.toMatchObject({ status: 422 });
    await createReview([{ path: "src/numbers.txt", line: 5 }], earlier);
    expect(fake.reviews(pullRequest).map((review) => review.commitId)).toEqual([earlier]);
  });

  it("rejects a body that breaks GitHub's OpenAPI schema and records it", async () => {
    const before = fake.validationErrors.length;
    // A plain string route: Octokit's types would refuse the bogus event at compile time.
    const route: string = "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews";
    const failure = await octokit
      .request(route, {
        ...repository,
        pull_number: pullRequest.number,
        event: "BOGUS",
        body: "x",
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 422 });
    const recorded = fake.validationErrors.slice(before);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      method: "POST",
      operation: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      errors: [expect.objectContaining({ instancePath: "/event", keyword: "enum" })],
    });
    expect(fake.reviews(pullRequest)).toEqual([]);
  });

  it("rejects a body over 65,536 characters", async () => {
    await expect(
      octokit.rest.pulls.createReview({
        ...repository,
        pull_number: pullRequest.number,
        event: "COMMENT",
        body: "x".repeat(65_537),
      }),
    ).rejects.toMatchObject({ status: 422, response: { data: { message: "Validation Failed" } } });
    await octokit.rest.pulls.createReview({
      ...repository,
      pull_number: pullRequest.number,
      event: "COMMENT",
      body: "x".repeat(65_536),
    });
    expect(fake.reviews(pullRequest)).toHaveLength(1);
  });
});
