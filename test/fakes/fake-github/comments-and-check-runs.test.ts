import type { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, type PullRequestSnapshot, startFakeGitHub } from "./index.js";
import { quietOctokit } from "./quiet-octokit.js";

let fake: FakeGitHub;
let octokit: Octokit;
let pullRequest: PullRequestSnapshot;
const repository = { owner: "alice", repo: "service" };

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo({ owner: "alice", name: "service" });
  pullRequest = fake.addPullRequest({
    files: [{ path: "src/a.ts", base: "one\ntwo\n", head: "one\nthree\n" }],
  });
  octokit = quietOctokit(fake.apiUrl);
});
afterAll(() => fake.close());

describe("issue comments", () => {
  it("creates, pages, edits and deletes the bot's own comments", async () => {
    const created = await octokit.rest.issues.createComment({
      ...repository,
      issue_number: pullRequest.number,
      body: "<!-- gadfly-status-board -->\nstarting",
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      user: { login: "gadfly[bot]", type: "Bot" },
      html_url: expect.stringContaining(
        `/pull/${pullRequest.number}#issuecomment-${created.data.id}`,
      ),
    });
    for (let index = 0; index < 4; index++) {
      await octokit.rest.issues.createComment({
        ...repository,
        issue_number: pullRequest.number,
        body: `note ${index}`,
      });
    }
    const all = await octokit.paginate(octokit.rest.issues.listComments, {
      ...repository,
      issue_number: pullRequest.number,
      per_page: 2,
    });
    expect(all.map((comment) => comment.body)).toEqual([
      "<!-- gadfly-status-board -->\nstarting",
      "note 0",
      "note 1",
      "note 2",
      "note 3",
    ]);

    await octokit.rest.issues.updateComment({
      ...repository,
      comment_id: created.data.id,
      body: "done",
    });
    expect(fake.comments(pullRequest)[0]?.body).toBe("done");
    await octokit.rest.issues.deleteComment({ ...repository, comment_id: created.data.id });
    expect(fake.comments(pullRequest).map((comment) => comment.body)).not.toContain("done");
  });

  it("refuses with 403 to edit or delete a comment someone else wrote", async () => {
    const planted = fake.addComment(pullRequest, {
      body: "<!-- gadfly-consensus --> fake",
      user: "mallory",
    });
    await expect(
      octokit.rest.issues.updateComment({
        ...repository,
        comment_id: planted.id,
        body: "overwritten",
      }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      octokit.rest.issues.deleteComment({ ...repository, comment_id: planted.id }),
    ).rejects.toMatchObject({
      status: 403,
    });
    expect(fake.comments(pullRequest).find((comment) => comment.id === planted.id)?.body).toBe(
      "<!-- gadfly-consensus --> fake",
    );
  });

  it("lets a user token act as that user", async () => {
    const token = fake.createUserToken("bob");
    const asBob = quietOctokit(fake.apiUrl, token);
    const { data } = await asBob.rest.issues.createComment({
      ...repository,
      issue_number: pullRequest.number,
      body: "hi",
    });
    expect(data.user?.login).toBe("bob");
    await expect(
      octokit.rest.issues.updateComment({
        ...repository,
        comment_id: data.id,
        body: "edited by the bot",
      }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("rejects a comment body over 65,536 characters", async () => {
    const count = fake.comments(pullRequest).length;
    await expect(
      octokit.rest.issues.createComment({
        ...repository,
        issue_number: pullRequest.number,
        body: "x".repeat(65_537),
      }),
    ).rejects.toMatchObject({ status: 422 });
    expect(fake.comments(pullRequest)).toHaveLength(count);
  });

  it("records reactions once per user and content", async () => {
    const trigger = fake.addComment(pullRequest, { body: "@gadfly review", user: "alice" });
    const first = await octokit.rest.reactions.createForIssueComment({
      ...repository,
      comment_id: trigger.id,
      content: "eyes",
    });
    const again = await octokit.rest.reactions.createForIssueComment({
      ...repository,
      comment_id: trigger.id,
      content: "eyes",
    });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(fake.reactions(trigger.id)).toMatchObject([
      { content: "eyes", user: { login: "gadfly[bot]" } },
    ]);
  });
});

describe("check runs", () => {
  it("records every update and accumulates annotations", async () => {
    const created = await octokit.rest.checks.create({
      ...repository,
      name: "Gadfly",
      head_sha: pullRequest.headSha,
      status: "in_progress",
      output: { title: "Reviewing", summary: "4 reviewers" },
    });
    const annotation = (line: number) => ({
      path: "src/a.ts",
      start_line: line,
      end_line: line,
      annotation_level: "warning" as const,
      message: `finding ${line}`,
    });
    await octokit.rest.checks.update({
      ...repository,
      check_run_id: created.data.id,
      status: "completed",
      conclusion: "neutral",
      output: {
        title: "Minor issues",
        summary: "table",
        annotations: [annotation(1), annotation(2)],
      },
    });
    await octokit.rest.checks.update({
      ...repository,
      check_run_id: created.data.id,
      output: { title: "Minor issues", summary: "table", annotations: [annotation(2)] },
    });
    const [checkRun] = fake.checkRuns(pullRequest.headSha);
    expect(checkRun).toMatchObject({ name: "Gadfly", status: "completed", conclusion: "neutral" });
    expect(
      checkRun?.updates.map((update) => [update.method, update.status, update.annotations.length]),
    ).toEqual([
      ["POST", "in_progress", 0],
      ["PATCH", "completed", 2],
      ["PATCH", "completed", 1],
    ]);
    expect(checkRun?.annotations).toHaveLength(3);

    const listed = await octokit.rest.checks.listForRef({
      ...repository,
      ref: pullRequest.headSha,
    });
    expect(listed.data.total_count).toBe(1);
    expect(listed.data.check_runs[0]).toMatchObject({
      id: created.data.id,
      output: { title: "Minor issues", annotations_count: 3 },
      pull_requests: [expect.objectContaining({ number: pullRequest.number })],
    });
    expect(fake.validationErrors).toEqual([]);
  });

  it("refuses more than 50 annotations in one request", async () => {
    const created = await octokit.rest.checks.create({
      ...repository,
      name: "Gadfly",
      head_sha: pullRequest.headSha,
    });
    const annotations = Array.from({ length: 51 }, (_, index) => ({
      path: "src/a.ts",
      start_line: index + 1,
      end_line: index + 1,
      annotation_level: "notice" as const,
      message: "m",
    }));
    await expect(
      octokit.rest.checks.update({
        ...repository,
        check_run_id: created.data.id,
        output: { title: "t", summary: "s", annotations },
      }),
    ).rejects.toMatchObject({ status: 422 });
    expect(
      fake.checkRuns(pullRequest.headSha).find((run) => run.id === created.data.id)?.updates,
    ).toHaveLength(1);
    expect(fake.validationErrors.at(-1)?.operation).toBe(
      "/repos/{owner}/{repo}/check-runs/{check_run_id}",
    );
  });

  it("refuses a check run for an unknown commit", async () => {
    await expect(
      octokit.rest.checks.create({ ...repository, name: "Gadfly", head_sha: "f".repeat(40) }),
    ).rejects.toMatchObject({ status: 422 });
  });
});
