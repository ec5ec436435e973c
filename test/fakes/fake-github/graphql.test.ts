import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGitHub, type PullRequestSnapshot, startFakeGitHub } from "./index.js";
import { quietOctokit } from "./quiet-octokit.js";

const quietLog = { debug() {}, info() {}, warn() {}, error() {} };
let fake: FakeGitHub;
let octokit: Octokit;
let pullRequest: PullRequestSnapshot;
const repository = { owner: "alice", repo: "service" };

const base = `${Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;
const head = base.replace("line 5\n", "line five\n").replace("line 25\n", "line twenty-five\n");

const threadsQuery = `
  query($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        reviewThreads(first: 1, after: $after) {
          nodes {
            id
            isResolved
            comments(first: 1) { nodes { databaseId author { login } } }
          }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }`;

const resolveMutation = `
  mutation($threadId: ID!) {
    resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
  }`;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo({ owner: "alice", name: "service" });
  octokit = quietOctokit(fake.apiUrl);
});
afterAll(() => fake.close());
beforeEach(() => {
  pullRequest = fake.addPullRequest({ files: [{ path: "src/numbers.txt", base, head }] });
});

async function reviewWithTwoComments(): Promise<number[]> {
  const { data } = await octokit.rest.pulls.createReview({
    ...repository,
    pull_number: pullRequest.number,
    commit_id: pullRequest.headSha,
    event: "COMMENT",
    body: "review",
    comments: [
      { path: "src/numbers.txt", line: 5, body: "first" },
      { path: "src/numbers.txt", line: 25, body: "second" },
    ],
  });
  return (fake.reviews(pullRequest).find((review) => review.id === data.id)?.comments ?? []).map(
    (comment) => comment.id,
  );
}

describe("review comment replies", () => {
  it("joins the thread of the top-level comment, and refuses a reply to a reply", async () => {
    const [first] = await reviewWithTwoComments();
    const { data, status } = await octokit.rest.pulls.createReplyForReviewComment({
      ...repository,
      pull_number: pullRequest.number,
      comment_id: first ?? 0,
      body: "Fixed in `abc1234`.",
    });
    expect(status).toBe(201);
    expect(data).toMatchObject({ in_reply_to_id: first, body: "Fixed in `abc1234`.", line: 5 });
    const threads = fake.reviewThreads(pullRequest);
    expect(threads.map((thread) => thread.comments.map((comment) => comment.body))).toEqual([
      ["first", "Fixed in `abc1234`."],
      ["second"],
    ]);
    await expect(
      octokit.rest.pulls.createReplyForReviewComment({
        ...repository,
        pull_number: pullRequest.number,
        comment_id: data.id,
        body: "again",
      }),
    ).rejects.toMatchObject({ status: 422 });
    expect(fake.validationErrors).toEqual([]);
  });
});

describe("GraphQL", () => {
  it("pages review threads and resolves one, at /api/graphql as Octokit derives it from /api/v3", async () => {
    const [first, second] = await reviewWithTwoComments();
    const variables = { owner: "alice", name: "service", number: pullRequest.number };
    type Page = {
      repository: {
        pullRequest: {
          reviewThreads: {
            nodes: {
              id: string;
              isResolved: boolean;
              comments: { nodes: { databaseId: number; author: { login: string } }[] };
            }[];
            pageInfo: { hasNextPage: boolean; endCursor: string | null };
          };
        };
      };
    };
    const page1 = await octokit.graphql<Page>(threadsQuery, variables);
    const threads1 = page1.repository.pullRequest.reviewThreads;
    expect(threads1.nodes).toEqual([
      {
        id: expect.stringMatching(/^PRRT_/),
        isResolved: false,
        comments: { nodes: [{ databaseId: first, author: { login: "gadfly" } }] },
      },
    ]);
    expect(threads1.pageInfo.hasNextPage).toBe(true);
    const page2 = await octokit.graphql<Page>(threadsQuery, {
      ...variables,
      after: threads1.pageInfo.endCursor,
    });
    const threads2 = page2.repository.pullRequest.reviewThreads;
    expect(threads2.nodes.map((node) => node.comments.nodes[0]?.databaseId)).toEqual([second]);
    expect(threads2.pageInfo.hasNextPage).toBe(false);

    const threadId = threads2.nodes[0]?.id ?? "";
    const resolved = await octokit.graphql<{
      resolveReviewThread: { thread: { id: string; isResolved: boolean } };
    }>(resolveMutation, { threadId });
    expect(resolved.resolveReviewThread.thread).toEqual({ id: threadId, isResolved: true });
    expect(fake.reviewThreads(pullRequest).map((thread) => thread.isResolved)).toEqual([
      false,
      true,
    ]);
    expect(fake.requests({ method: "POST", path: "/graphql" })).toHaveLength(3);
    expect(fake.requests({ method: "POST", path: "/graphql" })[0]?.enterprisePrefix).toBe(true);
    expect(fake.graphqlErrors).toEqual([]);
  });

  it("also answers at /graphql, and shows a thread a person resolved", async () => {
    const [first] = await reviewWithTwoComments();
    fake.resolveReviewThread(first ?? 0, "bob");
    // A baseUrl without /api/v3 (github.com's layout): Octokit posts to /graphql.
    const answer = await quietOctokit(fake.url).graphql<{
      repository: {
        pullRequest: {
          reviewThreads: { nodes: { isResolved: boolean; resolvedBy: { login: string } | null }[] };
        };
      };
    }>(
      `query { repository(owner: "alice", name: "service") { pullRequest(number: ${pullRequest.number}) {
        reviewThreads(first: 10) { nodes { isResolved resolvedBy { login } } } } } }`,
    );
    expect(answer.repository.pullRequest.reviewThreads.nodes).toEqual([
      { isResolved: true, resolvedBy: { login: "bob" } },
      { isResolved: false, resolvedBy: null },
    ]);
    expect(fake.requests({ method: "POST", path: "/graphql" }).at(-1)?.enterprisePrefix).toBe(
      false,
    );
    expect(fake.reviewThreads(pullRequest)[0]?.resolvedBy).toBe("bob");
  });

  it("answers an unknown field like GitHub (200, errors, no data) and records it", async () => {
    const before = fake.graphqlErrors.length;
    const response = await octokit.request("POST /graphql", {
      query: `query { repository(owner: "alice", name: "service") { pullRequest(number: 1) { reviewThreads(first: 1) { nodes { isFixed } } } } }`,
    });
    expect(response.status).toBe(200);
    expect(response.data).toEqual({
      errors: [
        expect.objectContaining({
          message: 'Cannot query field "isFixed" on type "PullRequestReviewThread".',
        }),
      ],
    });
    await expect(octokit.graphql("query { repository(owner: 1) { id } }")).rejects.toThrow(
      /Expected value of type "String!"|argument "name"/,
    );
    expect(fake.graphqlErrors.slice(before).map((failure) => failure.kind)).toEqual([
      "invalid",
      "invalid",
    ]);
  });

  it("records a connection without `first`, a missing variable and a field it does not serve", async () => {
    const before = fake.graphqlErrors.length;
    await expect(
      octokit.graphql(
        `query { repository(owner: "alice", name: "service") { pullRequest(number: ${pullRequest.number}) { reviewThreads { totalCount } } } }`,
      ),
    ).rejects.toThrow(/You must provide a `first` or `last` value/);
    await expect(octokit.graphql(resolveMutation, {})).rejects.toThrow(/threadId/);
    await expect(
      octokit.graphql(`query { repository(owner: "alice", name: "service") { stargazerCount } }`),
    ).rejects.toThrow(/does not serve Repository.stargazerCount/);
    expect(fake.graphqlErrors.slice(before).map((failure) => failure.kind)).toEqual([
      "invalid",
      "invalid",
      "unsupported",
    ]);
  });

  it("says NOT_FOUND for a repository, pull request or thread it cannot resolve, without recording it", async () => {
    const before = fake.graphqlErrors.length;
    await expect(
      octokit.graphql(`query { repository(owner: "alice", name: "nothing") { id } }`),
    ).rejects.toMatchObject({
      errors: [expect.objectContaining({ type: "NOT_FOUND", path: ["repository"] })],
    });
    await expect(
      octokit.graphql(resolveMutation, { threadId: "PRRT_nonsense" }),
    ).rejects.toMatchObject({ errors: [expect.objectContaining({ type: "NOT_FOUND" })] });
    expect(fake.graphqlErrors.length).toBe(before);
  });

  it("refuses an anonymous request with 401, and takes scripted faults", async () => {
    const anonymous = new Octokit({ baseUrl: fake.apiUrl, log: quietLog });
    await expect(anonymous.graphql("query { viewer { login } }")).rejects.toMatchObject({
      status: 401,
    });
    fake.failNext("POST", "/graphql", 200, {
      body: {
        errors: [{ type: "FORBIDDEN", message: "Resource not accessible by integration" }],
      },
    });
    await expect(octokit.graphql(resolveMutation, { threadId: "x" })).rejects.toThrow(
      /Resource not accessible by integration/,
    );
  });

  it("answers a scripted error for the next operation selecting a root field, as GitHub refuses one", async () => {
    const [first] = await reviewWithTwoComments();
    fake.graphqlErrorNext("resolveReviewThread");
    const threadId = fake.reviewThreads(pullRequest)[0]?.id ?? "";
    // A query is not the mutation: it is answered.
    await octokit.graphql(`query { repository(owner: "alice", name: "service") { id } }`);
    const refused = await octokit.request("POST /graphql", {
      query: resolveMutation,
      variables: { threadId },
    });
    expect(refused.data).toEqual({
      data: { resolveReviewThread: null },
      errors: [
        {
          type: "FORBIDDEN",
          path: ["resolveReviewThread"],
          message: "Resource not accessible by integration",
        },
      ],
    });
    expect(fake.reviewThreads(pullRequest)[0]).toMatchObject({
      isResolved: false,
      comments: [{ id: first }],
    });
    await octokit.graphql(resolveMutation, { threadId });
    expect(fake.reviewThreads(pullRequest)[0]?.isResolved).toBe(true);
  });
});
