import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { AppConfig, type ModelConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { runRoundJob } from "../../src/github/round/run-round-job.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { FORK_SKIP_REASON } from "../../src/run/fork-rule.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import type { IsolationLevel } from "../../src/sandbox/index.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { claimedRound } from "../helpers/claimed-round.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/*
 * Whoever runs a round (the worker that took the job, or one resuming it after a restart)
 * learns that its pull request comes from a fork from GitHub itself: nothing in the stored
 * round or the delivery has to carry it, so no restart can lose it.
 */

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

const config = AppConfig.parse({
  providers: [
    { name: "local", type: "ollama" },
    { name: "claude-code", type: "command", command: ["claude", "-p"] },
  ],
  models: [
    { id: "chat", provider: "local" },
    { id: "claude-code/opus", provider: "claude-code", model: "opus" },
  ],
  review: { lenses: ["security"], verify: false },
  // The models built are counted: no summary call among them.
  summary: false,
});

/** Runs a round left unfinished by a restart: a fresh store handle, the job resumed. */
type Head = "same-repository" | "fork" | "deleted-fork";

async function resumeRound(
  head: Head,
  agentIsolation: IsolationLevel | undefined,
  ownFactory = true,
) {
  const headRepository = {
    "same-repository": undefined,
    fork: { owner: "mallory", name: "api" },
    "deleted-fork": null,
  }[head];
  const pr = github.addPullRequest({
    ...REPO,
    ...(headRepository === undefined ? {} : { headRepository }),
    files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
  });
  const clock = new FakeClock(Date.now());
  const first = await SqliteRunStore.open(temporary.path, clock);
  const { round } = await first.startRound({
    repo: REPO,
    installationId,
    pullNumber: pr.number,
    headSha: pr.headSha,
    trigger: { kind: "push", deliveryId: `d-${pr.number}` },
  });
  await first.claimRound(round.id, { owner: "restarted-process", leaseMs: 60_000 });
  await first.close();

  const store = temporary.track(await SqliteRunStore.open(temporary.path, clock));
  const built: string[] = [];
  const createModel = (model: ModelConfig): ChatModel => {
    built.push(model.id);
    return {
      kind: "chat",
      provider: model.provider,
      modelId: model.id,
      chat: async () => ({
        text: renderLensAnswer("No material issues found", []),
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    };
  };
  const deps = roundDependencies(
    { store, dataDir: temporary.directory },
    {
      config,
      limiter: createReviewerLimiter(2),
      lenses: await loadLenses(),
      clock,
      boardIntervalMs: 100,
      ...(ownFactory ? { createModel } : {}),
      ...(agentIsolation === undefined ? {} : { agentIsolation }),
    },
  );
  // The process that held the round is gone: this one takes it over.
  await store.expireLeases("this-process");
  await runRoundJob(
    octokit,
    await claimedRound(store, round.id, { clock, owner: "this-process" }),
    deps,
  );
  const outcomes = (await store.lensReports(round.id)).map(
    (report) =>
      `${report.model}:${report.outcome}${report.failure === null ? "" : ` (${report.failure})`}`,
  );
  const { data: pull } = await octokit.rest.pulls.get({ ...REPO, pull_number: pr.number });
  return {
    built,
    outcomes,
    state: (await store.findRound(round.id))?.state,
    headRepo: pull.head.repo,
  };
}

describe("a resumed round of a fork's pull request", () => {
  it("skips the agent CLI below bubblewrap (absent level reads as none) and completes", async () => {
    for (const level of [undefined, "none", "user"] as const) {
      const { built, outcomes, state } = await resumeRound("fork", level);
      expect(built).toEqual(["chat"]);
      expect(outcomes).toEqual(["chat:done", `claude-code/opus:skipped (${FORK_SKIP_REASON})`]);
      expect(state).toBe("completed");
    }
  });

  it("runs the agent CLI under bubblewrap", async () => {
    const { built, outcomes } = await resumeRound("fork", "bwrap");
    expect(built.sort()).toEqual(["chat", "claude-code/opus"]);
    expect(outcomes).toEqual(["chat:done", "claude-code/opus:done"]);
  });

  it("skips the agent CLI when models are built without the detected isolation, whatever level is claimed", async () => {
    // No factory: the provider's own adapter runs agents unisolated, so bwrap must not be trusted.
    const { outcomes } = await resumeRound("fork", "bwrap", false);
    expect(outcomes).toContain(`claude-code/opus:skipped (${FORK_SKIP_REASON})`);
  });

  it("runs the agent CLI on a same-repository pull request at any level", async () => {
    const { built } = await resumeRound("same-repository", "none");
    expect(built.sort()).toEqual(["chat", "claude-code/opus"]);
  });

  it("treats a PR whose fork was deleted (no head repository) as a fork", async () => {
    const { built, outcomes, headRepo } = await resumeRound("deleted-fork", "none");
    expect(headRepo).toBeNull();
    expect(built).toEqual(["chat"]);
    expect(outcomes).toContain(`claude-code/opus:skipped (${FORK_SKIP_REASON})`);
  });
});
