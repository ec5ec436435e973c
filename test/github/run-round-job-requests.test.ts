import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { AppConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { runRoundJob } from "../../src/github/run-round-job.js";
import type { ChatModel, ChatRequest } from "../../src/llm/language-model.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/* What a round asks GitHub once: the job's read of the pull request serves the snapshot too. */

const REPO = { owner: "octo-org", repo: "api" };
let github: FakeGitHub;
let octokit: GitHubClient;
let installationId = 0;
let temporary: TemporaryStoreDirectory;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  const probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  ({ installationId } = github.addRepo({ ...REPO, name: REPO.repo, ownerType: "Organization" }));
  octokit = (await probot.auth(installationId)) as GitHubClient;
});
afterAll(() => github.close());
beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
});
afterEach(async () => {
  await temporary.remove();
});

describe("runRoundJob's requests", () => {
  it("reads the pull request once: the snapshot takes its title, description and SHAs from the job's read", async () => {
    const pr = github.addPullRequest({
      ...REPO,
      title: "Parameterise the user query",
      body: "Closes the injection in findUser.",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    const store = temporary.track(await SqliteRunStore.open({ path: temporary.path }));
    const { round } = await store.startRound({
      repo: REPO,
      installationId,
      pullNumber: pr.number,
      headSha: pr.headSha,
      trigger: { kind: "push", deliveryId: `d-${pr.number}` },
    });
    const prompts: string[] = [];
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
    const deps = roundDependencies(
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
    const before = github.requests().length;
    await runRoundJob(octokit, { round, finished: [], resumed: false }, deps);
    expect((await store.findRound(round.id))?.state).toBe("completed");
    const pullReads = github
      .requests()
      .slice(before)
      .filter(
        (request) =>
          request.method === "GET" && request.path === `/repos/octo-org/api/pulls/${pr.number}`,
      );
    expect(pullReads).toHaveLength(1);
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts[0]).toContain("Parameterise the user query");
    expect(prompts[0]).toContain("Closes the injection in findUser.");
  });
});
