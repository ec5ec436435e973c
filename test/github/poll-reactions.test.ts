import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TriggerDecision } from "../../src/github/can-trigger-review.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { PermissionCache } from "../../src/github/permission-cache.js";
import { pollReactions } from "../../src/github/poll-reactions.js";
import { SeenReactions } from "../../src/github/seen-reactions.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { quietOctokit } from "../fakes/fake-github/quiet-octokit.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { silentLog } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/*
 * A reactions poll against the fake GitHub, counted in requests: one listing of the PR's review
 * comments (with their reaction counts), then a comment's reactions only when its counts
 * outgrew the feedback recorded for its finding.
 */
const REPO = { owner: "octo-org", repo: "api" };
const FILE = "src/server.js";
const REACTIONS_PATH = "/repos/octo-org/api/pulls/comments/*/reactions";
const base = Array.from({ length: 10 }, (_, index) => `export const v${index + 1} = ${index};`);
const head = base.map((line, index) => ([2, 8].includes(index + 1) ? `${line} // +` : line));

let github: FakeGitHub;
let installationId = 0;
let octokit: GitHubClient;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  ({ installationId } = github.addRepo({ owner: "octo-org", name: "api" }));
  github.addCollaborator("maintainer", "maintain", REPO);
  github.addCollaborator("reader", "read", REPO);
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  const probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  octokit = (await probot.auth(installationId)) as GitHubClient;
});
afterAll(() => github.close());
beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
});
afterEach(() => temporary.remove());

/** A PR with our review of two inline comments, remembered as findings "fa" and "fb". */
async function reviewedPullRequest(seenReactions?: SeenReactions) {
  const pr = github.addPullRequest({
    ...REPO,
    title: "Tune the server",
    files: [{ path: FILE, base: `${base.join("\n")}\n`, head: `${head.join("\n")}\n` }],
  });
  const { data: review } = await octokit.rest.pulls.createReview({
    ...REPO,
    pull_number: pr.number,
    commit_id: pr.headSha,
    event: "COMMENT",
    body: "review",
    comments: [
      { path: FILE, line: 2, side: "RIGHT", body: "first finding" },
      { path: FILE, line: 8, side: "RIGHT", body: "second finding" },
    ],
  });
  const { data: comments } = await octokit.rest.pulls.listCommentsForReview({
    ...REPO,
    pull_number: pr.number,
    review_id: review.id,
  });
  const [first, second] = comments;
  if (first === undefined || second === undefined) throw new Error("review without comments");
  await store.savePostedInline(REPO, pr.number, "fa", first.id);
  await store.savePostedInline(REPO, pr.number, "fb", second.id);
  const permissions = new PermissionCache<TriggerDecision>(new FakeClock());
  const poll = () =>
    pollReactions(
      octokit,
      { installationId, repo: REPO, pullNumber: pr.number },
      {
        store,
        botLogin: "gadfly[bot]",
        log: silentLog,
        ...(seenReactions === undefined ? {} : { seenReactions }),
      },
      permissions,
    );
  return { pr, first: first.id, second: second.id, poll };
}

/** `login` reacts on a review comment, as a person does in the web UI. */
async function react(login: string, commentId: number, content: "+1" | "-1") {
  const as = quietOctokit(github.apiUrl, github.createUserToken(login));
  await as.rest.reactions.createForPullRequestReviewComment({
    ...REPO,
    comment_id: commentId,
    content,
  });
}

/** The requests a call makes: reactions lists (by comment id) and review-comment listings. */
async function counted(call: () => Promise<void>) {
  const before = github.requests().length;
  await call();
  const made = github.requests().slice(before);
  return {
    reactionLists: made
      .filter(
        (entry) => entry.method === "GET" && /\/pulls\/comments\/\d+\/reactions$/.test(entry.path),
      )
      .map((entry) => Number(entry.path.split("/")[6])),
    listings: made.filter(
      (entry) =>
        entry.method === "GET" && /^\/repos\/octo-org\/api\/pulls\/\d+\/comments$/.test(entry.path),
    ).length,
    total: made.length,
  };
}

describe("pollReactions", () => {
  it("reads no reactions list when nobody reacted: one listing of the PR's review comments", async () => {
    const { poll } = await reviewedPullRequest();
    expect(await counted(poll)).toEqual({ reactionLists: [], listings: 1, total: 1 });
    expect(github.requests({ method: "GET", path: REACTIONS_PATH })).toEqual([]);
  });

  it("after one 👎 reads exactly that comment's reactions, records it once, then reads none again", async () => {
    const { pr, first, poll } = await reviewedPullRequest();
    await react("maintainer", first, "-1");
    const afterReaction = await counted(poll);
    expect(afterReaction.reactionLists).toEqual([first]);
    expect(afterReaction.listings).toBe(1);
    const feedback = await store.feedback(REPO, pr.number);
    expect(feedback.map(({ fingerprint, kind, actor }) => ({ fingerprint, kind, actor }))).toEqual([
      { fingerprint: "fa", kind: "thumbs_down", actor: "maintainer" },
    ]);
    // Recorded now: the counts match, so the next poll is the listing alone.
    expect(await counted(poll)).toEqual({ reactionLists: [], listings: 1, total: 1 });
    expect(await store.feedback(REPO, pr.number)).toHaveLength(1);
  });

  it("keeps a reader's 👍 out of the feedback (write access counts), reading only that comment", async () => {
    const { pr, second, poll } = await reviewedPullRequest();
    await react("reader", second, "+1");
    const made = await counted(poll);
    expect(made.reactionLists).toEqual([second]);
    expect(await store.feedback(REPO, pr.number)).toEqual([]);
  });

  it("reads a reader's reactions once: every later poll is the one listing, however many polls", async () => {
    const { pr, first, second, poll } = await reviewedPullRequest(new SeenReactions());
    await react("reader", first, "+1");
    await react("reader", second, "+1");
    await react("reader", second, "-1");
    const firstPoll = await counted(poll);
    expect(firstPoll.reactionLists.sort()).toEqual([first, second].sort());
    for (let poll_ = 0; poll_ < 5; poll_++) {
      // At most one GET per poll: the listing; no reactions list is read again.
      expect(await counted(poll)).toEqual({ reactionLists: [], listings: 1, total: 1 });
    }
    expect(await store.feedback(REPO, pr.number)).toEqual([]);
    // A writer's reaction afterwards is still read and recorded.
    await react("maintainer", first, "-1");
    expect((await counted(poll)).reactionLists).toEqual([first]);
    expect(await store.feedback(REPO, pr.number)).toHaveLength(1);
  });

  it("lists review comments with the reactions rollup GitHub's OpenAPI description gives them", async () => {
    const { pr, first } = await reviewedPullRequest();
    await react("maintainer", first, "-1");
    const { data } = await octokit.rest.pulls.listReviewComments({
      ...REPO,
      pull_number: pr.number,
    });
    const require = createRequire(import.meta.url);
    const spec = JSON.parse(
      readFileSync(require.resolve("@octokit/openapi/generated/api.github.com.json"), "utf8"),
    );
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    ajv.addSchema(spec, "github");
    const validate = ajv.compile({ $ref: "github#/components/schemas/reaction-rollup" });
    for (const comment of data) {
      expect(validate(comment.reactions), JSON.stringify(validate.errors)).toBe(true);
    }
    expect(data.map((comment) => [comment.id === first, comment.reactions?.["-1"]])).toEqual([
      [true, 1],
      [false, 0],
    ]);
  });
});
