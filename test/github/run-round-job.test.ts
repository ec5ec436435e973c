import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { AppConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { giveUpRound } from "../../src/github/round/give-up-round.js";
import { runRoundJob } from "../../src/github/round/run-round-job.js";
import type { RoundDependencies } from "../../src/github/round-dependencies.js";
import type { ChatModel, ChatRequest } from "../../src/llm/language-model.js";
import { MARKERS } from "../../src/render/markers.js";
import { gaveUpReason, MAX_ROUND_ATTEMPTS } from "../../src/run/index.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import type { ClaimedRound } from "../../src/run/round-worker.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import {
  type FakeGitHub,
  type PullRequestSnapshot,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { claimedRound } from "../helpers/claimed-round.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { claimRound } from "../run/store/helpers/claim-round.js";

/* The worker's side of a round before it runs: rounds whose pull request moved on, or that keep failing, end here. */

let github: FakeGitHub;
let probot: Probot;
let installationId = 0;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let octokit: GitHubClient;
let pr: PullRequestSnapshot;
let deps: RoundDependencies;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  ({ installationId } = github.addRepo({
    owner: "octo-org",
    name: "api",
    ownerType: "Organization",
  }));
  octokit = (await probot.auth(installationId)) as GitHubClient;
});
afterAll(() => github.close());

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
  pr = github.addPullRequest({
    owner: "octo-org",
    repo: "api",
    files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
  });
  deps = roundDependencies({ store, dataDir: temporary.directory });
});
afterEach(async () => {
  await temporary.remove();
});

/** A round of the PR whose check was started, claimed after `crashes` holders crashed with it. */
async function interruptedRound(crashes: number): Promise<ClaimedRound> {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId,
    pullNumber: pr.number,
    headSha: pr.headSha,
    trigger: { kind: "push", deliveryId: `d-${pr.number}` },
  });
  await claimRound(store, round.id, "first-holder");
  for (let crash = 0; crash < crashes; crash++) {
    // The holder dies; the next process ends its lease and takes the round over.
    await store.expireLeases(`holder-${crash}`);
    await claimRound(store, round.id, `holder-${crash}`);
  }
  await store.expireLeases("this-worker");
  const { data } = await octokit.rest.checks.create({
    owner: "octo-org",
    repo: "api",
    name: "Gadfly",
    head_sha: pr.headSha,
    status: "in_progress",
  });
  await store.setArtifacts(round.id, { checkRunId: data.id });
  return claimedRound(store, round.id, { owner: "this-worker" });
}

describe("runRoundJob", () => {
  it("ends as cancelled a round whose pull request was closed meanwhile, and completes its check", async () => {
    const claimed = await interruptedRound(1);
    github.updatePullRequest(pr, { state: "closed" });
    await runRoundJob(octokit, claimed, deps);
    const stored = await store.findRound(claimed.round.id);
    expect(stored?.state).toBe("cancelled");
    expect(stored?.supersededBy).toBeNull();
    const [check] = github.checkRuns(pr.headSha);
    expect([check?.conclusion, check?.output.title]).toEqual(["cancelled", "Pull request closed"]);
  });

  it("ends as superseded a round whose pull request has a newer head, before calling any model", async () => {
    const claimed = await interruptedRound(1);
    const pushed = github.pushCommit(pr, [{ path: "src/a.js", content: "c\n" }]);
    await runRoundJob(octokit, claimed, deps);
    const stored = await store.findRound(claimed.round.id);
    expect(stored?.state).toBe("cancelled");
    expect(stored?.supersededBy).toBe(pushed.headSha);
    expect(github.checkRuns(pr.headSha)[0]?.output.title).toBe(
      `Superseded by ${pushed.headSha.slice(0, 7)}`,
    );
  });
});

describe("giveUpRound", () => {
  it("gives up a round that spent its attempts: its check, its board and the store say why, no PR read", async () => {
    const claimed = await interruptedRound(MAX_ROUND_ATTEMPTS - 1);
    expect(claimed.round.attempts).toBe(MAX_ROUND_ATTEMPTS);
    const pullReads = () => github.requests({ method: "GET", path: "/repos/*/*/pulls/*" }).length;
    const readsBefore = pullReads();
    await giveUpRound(octokit, claimed, gaveUpReason(claimed.round.attempts), deps);
    const stored = await store.findRound(claimed.round.id);
    expect(stored?.state).toBe("failed");
    expect(stored?.failure).toBe(`gave up after ${MAX_ROUND_ATTEMPTS} attempts`);
    const [check] = github.checkRuns(pr.headSha);
    expect([check?.conclusion, check?.output.title]).toEqual([
      "neutral",
      "Gadfly could not finish this review",
    ]);
    const board = github
      .comments(pr)
      .find((comment) => comment.body.startsWith(MARKERS.statusBoard));
    expect(board?.body).toContain(`gave up after ${MAX_ROUND_ATTEMPTS} attempts`);
    expect(pullReads()).toBe(readsBefore);
  });
});

describe("runRoundJob's requests", () => {
  /** Dependencies of a round that one chat model reviews through one lens, its prompts kept. */
  async function reviewingDeps(prompts: string[] = []): Promise<RoundDependencies> {
    const model: ChatModel = {
      kind: "chat",
      provider: "local",
      modelId: "chat",
      chat: async (request: ChatRequest) => {
        prompts.push(request.messages.map((message) => String(message.content)).join("\n"));
        return {
          text: renderLensAnswer("No material issues found", []),
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    return roundDependencies(
      { store, dataDir: temporary.directory },
      {
        config: AppConfig.parse({
          providers: [{ name: "local", type: "ollama" }],
          models: [{ id: "chat", provider: "local" }],
          review: { lenses: ["security"], verify: false },
        }),
        limiter: createReviewerLimiter(1),
        lenses: await loadLenses(),
        boardIntervalMs: 100,
        createModel: () => model,
      },
    );
  }

  /** Runs a round of `pull` to completion (a review comment's round: `@gadfly review`). */
  async function reviewRound(pull: PullRequestSnapshot, n: number, reviewing: RoundDependencies) {
    const { round } = await store.startRound({
      repo: { owner: "octo-org", repo: "api" },
      installationId,
      pullNumber: pull.number,
      headSha: pull.headSha,
      trigger: { kind: "comment", deliveryId: `d-${pull.number}-${n}`, actor: "maintainer" },
    });
    const before = github.requests().length;
    await runRoundJob(octokit, await claimedRound(store, round.id), reviewing);
    const done = await store.findRound(round.id);
    expect(done?.state).toBe("completed");
    return { round: done, requests: github.requests().slice(before) };
  }

  it("reads the pull request once: the snapshot takes its title, description and SHAs from the job's read", async () => {
    const titled = github.addPullRequest({
      owner: "octo-org",
      repo: "api",
      title: "Parameterise the user query",
      body: "Closes the injection in findUser.",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    const prompts: string[] = [];
    const { requests } = await reviewRound(titled, 1, await reviewingDeps(prompts));
    const pullReads = requests.filter(
      (request) =>
        request.method === "GET" && request.path === `/repos/octo-org/api/pulls/${titled.number}`,
    );
    expect(pullReads).toHaveLength(1);
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts[0]).toContain("Parameterise the user query");
    expect(prompts[0]).toContain("Closes the injection in findUser.");
  });

  it("edits the board and consensus an earlier round wrote by their ids, without listing the PR's comments to find them", async () => {
    const pull = github.addPullRequest({
      owner: "octo-org",
      repo: "api",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    const listings = (requests: { method: string; path: string }[]) =>
      requests.filter(
        (request) =>
          request.method === "GET" &&
          request.path === `/repos/octo-org/api/issues/${pull.number}/comments`,
      ).length;
    const reviewing = await reviewingDeps();
    const first = await reviewRound(pull, 1, reviewing);
    const second = await reviewRound(pull, 2, reviewing);

    // The first round finds its sticky comments by listing; the second edits them by id and
    // lists once, for stale per-model comments only.
    expect(listings(first.requests)).toBe(3);
    expect(listings(second.requests)).toBe(1);
    expect(second.round?.artifacts.statusCommentId).toBe(first.round?.artifacts.statusCommentId);
    expect(second.round?.artifacts.consensusCommentId).toBe(
      first.round?.artifacts.consensusCommentId,
    );
    // Still one board and one consensus comment on the PR.
    expect(github.comments(pull)).toHaveLength(2);
  });

  it("posts the board again when a maintainer deleted it between rounds", async () => {
    const pull = github.addPullRequest({
      owner: "octo-org",
      repo: "api",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    const reviewing = await reviewingDeps();
    const first = await reviewRound(pull, 1, reviewing);
    const deleted = first.round?.artifacts.statusCommentId ?? 0;
    await octokit.rest.issues.deleteComment({
      owner: "octo-org",
      repo: "api",
      comment_id: deleted,
    });

    const second = await reviewRound(pull, 2, reviewing);

    const board = second.round?.artifacts.statusCommentId;
    expect(board).toBeDefined();
    expect(board).not.toBe(deleted);
    expect(github.comments(pull).map((comment) => comment.id)).toContain(board);
    expect(github.comments(pull)).toHaveLength(2);
    expect(github.validationErrors).toEqual([]);
  });
});
