import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GitHubClient } from "../../src/github/github-client.js";
import { resolveFixedThreads } from "../../src/github/resolve-fixed-threads.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import {
  type FakeGitHub,
  type PullRequestSnapshot,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

const repo = { owner: "octo-org", repo: "api" };
const botLogin = "gadfly[bot]";
const base = `${Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;
const head = base.replace("line 5\n", "line five\n").replace("line 25\n", "line twenty-five\n");
const tokenFix = "f00d0000000000aa";
const loopOpen = "f00d0000000000bb";

let github: FakeGitHub;
let octokit: GitHubClient;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let pullRequest: PullRequestSnapshot;
/** The inline comment ids of round 1, by fingerprint. */
let commentIds: Record<string, number>;
/** The head of round 2. */
let round2: PullRequestSnapshot;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  github.addRepo({ owner: repo.owner, name: repo.repo });
  const { Octokit } = probotCredentials(github.apiUrl);
  octokit = new Octokit({ auth: { token: "installation-token" } }) as GitHubClient;
});
afterAll(() => github.close());

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
  pullRequest = github.addPullRequest({ files: [{ path: "src/numbers.txt", base, head }] });
  // Round 1: Gadfly's review, one inline comment per finding, each with its marker.
  const { data } = await octokit.rest.pulls.createReview({
    ...repo,
    pull_number: pullRequest.number,
    commit_id: pullRequest.headSha,
    event: "COMMENT",
    body: "Gadfly review",
    comments: [
      { path: "src/numbers.txt", line: 5, body: `<!-- gadfly-finding:${tokenFix} -->\nToken…` },
      { path: "src/numbers.txt", line: 25, body: `<!-- gadfly-finding:${loopOpen} -->\nLoop…` },
    ],
  });
  const comments = github.reviews(pullRequest).find((review) => review.id === data.id)?.comments;
  commentIds = {
    [tokenFix]: comments?.[0]?.id ?? 0,
    [loopOpen]: comments?.[1]?.id ?? 0,
  };
  for (const [fingerprint, commentId] of Object.entries(commentIds)) {
    await store.savePostedInline(repo, pullRequest.number, fingerprint, commentId);
  }
  round2 = github.pushCommit(pullRequest, [
    { path: "src/numbers.txt", content: head.replace("line five", "line 5") },
  ]);
});
afterEach(() => temporary.remove());

/** Round 2's call for the findings `fixed`; `saving` stands in for the store's record of replies. */
async function resolveFixed(
  fixed: string[],
  saving: Pick<SqliteRunStore, "saveFixedReply"> = store,
) {
  return resolveFixedThreads(
    octokit,
    {
      repo,
      pullNumber: pullRequest.number,
      headSha: round2.headSha,
      botLogin,
      fixed,
      posted: await store.postedInline(repo, pullRequest.number),
    },
    { store: saving },
  );
}

function thread(fingerprint: string) {
  const found = github
    .reviewThreads(pullRequest)
    .find((candidate) => candidate.comments[0]?.id === commentIds[fingerprint]);
  if (found === undefined) throw new Error(`no thread for ${fingerprint}`);
  return found;
}

/** The "Fixed in" reply the store recorded for `fingerprint`'s inline comment. */
async function recordedReplyId(fingerprint: string) {
  const posted = await store.postedInline(repo, pullRequest.number);
  return posted.find((entry) => entry.fingerprint === fingerprint)?.fixedReplyId;
}

const graphqlRequests = () => github.requests({ method: "POST", path: "/graphql" }).length;
const replies = () =>
  github.requests({ method: "POST", path: "/repos/octo-org/api/pulls/*/comments/*/replies" })
    .length;

describe("resolveFixedThreads", () => {
  it("replies under the comment of a finding fixed in round 2 and resolves its thread", async () => {
    const outcome = await resolveFixed([tokenFix]);

    expect(outcome).toEqual([
      {
        fingerprint: tokenFix,
        commentId: commentIds[tokenFix],
        outcome: "resolved",
        replied: true,
      },
    ]);
    const fixed = thread(tokenFix);
    expect(fixed.isResolved).toBe(true);
    expect(fixed.comments.map((comment) => [comment.user.login, comment.body])).toEqual([
      [botLogin, expect.stringContaining(tokenFix)],
      [botLogin, `Fixed in \`${round2.headSha.slice(0, 7)}\`.`],
    ]);
    // The finding still open is not touched.
    expect(thread(loopOpen)).toMatchObject({ isResolved: false });
    expect(thread(loopOpen).comments).toHaveLength(1);
    expect(await recordedReplyId(tokenFix)).toBe(fixed.comments[1]?.id);
    expect(github.validationErrors).toEqual([]);
    expect(github.graphqlErrors).toEqual([]);
  });

  it("leaves a thread a person already resolved alone: no reply, no mutation", async () => {
    github.resolveReviewThread(commentIds[tokenFix] ?? 0, "alice");
    const before = { graphql: graphqlRequests(), replies: replies() };

    const outcome = await resolveFixed([tokenFix]);

    expect(outcome.map((entry) => [entry.outcome, entry.replied])).toEqual([
      ["already-resolved", false],
    ]);
    expect(thread(tokenFix)).toMatchObject({ isResolved: true, resolvedBy: "alice" });
    expect(thread(tokenFix).comments).toHaveLength(1);
    // Only the thread query: no resolve mutation, no reply.
    expect(graphqlRequests() - before.graphql).toBe(1);
    expect(replies() - before.replies).toBe(0);
  });

  it("run twice, replies once", async () => {
    await resolveFixed([tokenFix]);
    const again = await resolveFixed([tokenFix]);

    expect(again.map((entry) => entry.outcome)).toEqual(["already-resolved"]);
    expect(thread(tokenFix).comments.map((comment) => comment.body)).toEqual([
      expect.stringContaining(tokenFix),
      `Fixed in \`${round2.headSha.slice(0, 7)}\`.`,
    ]);
  });

  it("killed between posting the reply and recording it, the next run records that reply and posts none", async () => {
    // The process dies after GitHub took the reply: nothing reaches the store.
    const dying = {
      saveFixedReply: async () => {
        throw new Error("killed before the reply was recorded");
      },
    };
    const first = await resolveFixed([tokenFix], dying);
    expect(first.map((entry) => [entry.outcome, entry.replied])).toEqual([["failed", true]]);
    expect(thread(tokenFix).comments).toHaveLength(2);
    const repliesBefore = replies();

    const resumed = await resolveFixed([tokenFix]);

    expect(resumed.map((entry) => [entry.outcome, entry.replied])).toEqual([["resolved", false]]);
    expect(replies() - repliesBefore).toBe(0);
    const fixed = thread(tokenFix);
    expect(fixed.comments.map((comment) => comment.body)).toEqual([
      expect.stringContaining(tokenFix),
      `Fixed in \`${round2.headSha.slice(0, 7)}\`.`,
    ]);
    expect(fixed.isResolved).toBe(true);
    expect(await recordedReplyId(tokenFix)).toBe(fixed.comments[1]?.id);
    expect(github.validationErrors).toEqual([]);
    expect(github.graphqlErrors).toEqual([]);
  });

  it('does not take a person\'s "Fixed in" reply, or other words of ours, for our reply', async () => {
    const { Octokit } = probotCredentials(github.apiUrl);
    const asAlice = new Octokit({
      auth: { token: github.createUserToken("alice") },
    }) as GitHubClient;
    const reply = (as: GitHubClient, body: string) =>
      as.rest.pulls.createReplyForReviewComment({
        ...repo,
        pull_number: pullRequest.number,
        comment_id: commentIds[tokenFix] ?? 0,
        body,
      });
    await reply(asAlice, `Fixed in \`${round2.headSha.slice(0, 7)}\`.`);
    await reply(octokit, "Fixed in `abc1234`, I think? (a note, not the fixed reply)");
    const repliesBefore = replies();

    const outcome = await resolveFixed([tokenFix]);

    expect(outcome.map((entry) => [entry.outcome, entry.replied])).toEqual([["resolved", true]]);
    expect(replies() - repliesBefore).toBe(1);
  });

  it("reports a refused resolve without throwing, and the next call resolves without replying again", async () => {
    github.graphqlErrorNext("resolveReviewThread");

    const refused = await resolveFixed([tokenFix]);

    expect(refused).toEqual([
      {
        fingerprint: tokenFix,
        commentId: commentIds[tokenFix],
        outcome: "failed",
        replied: true,
        error: expect.stringContaining("Resource not accessible by integration"),
      },
    ]);
    expect(thread(tokenFix).isResolved).toBe(false);

    const retried = await resolveFixed([tokenFix]);
    expect(retried.map((entry) => [entry.outcome, entry.replied])).toEqual([["resolved", false]]);
    expect(thread(tokenFix)).toMatchObject({ isResolved: true });
    expect(thread(tokenFix).comments).toHaveLength(2);
    expect(github.graphqlErrors).toEqual([]);
  });

  it("reports a failed thread query or a 403 on the reply as failed, touching nothing", async () => {
    github.failNext("POST", "/graphql", 502);
    const unreadable = await resolveFixed([tokenFix, loopOpen]);
    expect(unreadable.map((entry) => [entry.fingerprint, entry.outcome, entry.replied])).toEqual([
      [tokenFix, "failed", false],
      [loopOpen, "failed", false],
    ]);
    expect(unreadable[0]?.error).toMatch(/502/);

    github.failNext("POST", "/repos/octo-org/api/pulls/*/comments/*/replies", 403, {
      body: { message: "Resource not accessible by integration", status: "403" },
    });
    const refused = await resolveFixed([tokenFix]);
    expect(refused.map((entry) => [entry.outcome, entry.error])).toEqual([
      ["failed", expect.stringMatching(/403/)],
    ]);
    // Not answered, so not resolved either: a silent resolve would hide why.
    expect(thread(tokenFix)).toMatchObject({ isResolved: false });
    expect(thread(tokenFix).comments).toHaveLength(1);
  });

  it("never touches a comment that is not our bot's", async () => {
    const alice = github.createUserToken("alice");
    const { Octokit } = probotCredentials(github.apiUrl);
    const asAlice = new Octokit({ auth: { token: alice } }) as GitHubClient;
    const { data } = await asAlice.rest.pulls.createReview({
      ...repo,
      pull_number: pullRequest.number,
      commit_id: round2.headSha,
      event: "COMMENT",
      comments: [
        { path: "src/numbers.txt", line: 25, body: `<!-- gadfly-finding:${tokenFix} --> copied` },
      ],
    });
    const aliceComment =
      github.reviews(pullRequest).find((review) => review.id === data.id)?.comments[0]?.id ?? 0;
    // A store that (wrongly) holds alice's comment for our finding.
    await store.savePostedInline(repo, pullRequest.number, tokenFix, aliceComment);

    const outcome = await resolveFixed([tokenFix]);

    expect(outcome.map((entry) => entry.outcome)).toEqual(["not-ours"]);
    const aliceThread = github
      .reviewThreads(pullRequest)
      .find((candidate) => candidate.comments[0]?.id === aliceComment);
    expect(aliceThread).toMatchObject({ isResolved: false });
    expect(aliceThread?.comments).toHaveLength(1);
  });

  it("asks GitHub nothing when no finding we posted was fixed", async () => {
    const before = github.requests().length;
    expect(await resolveFixed([])).toEqual([]);
    expect(await resolveFixed(["0000000000000000"])).toEqual([]);
    expect(github.requests().length).toBe(before);
  });
});
