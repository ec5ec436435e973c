import { join } from "node:path";
import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LensDefinition } from "../../src/agent/load-lenses.js";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { publicCancelReason, publicFailureReason } from "../../src/agent/public-failure-reason.js";
import { lensesFor } from "../../src/config/plan-review.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { runPullRequestRound } from "../../src/github/round/run-pull-request-round.js";
import { ModelError, ModelTimeoutError } from "../../src/llm/errors.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { MARKERS } from "../../src/render/markers.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import type { RunStore, StoredRound } from "../../src/run/store/run-store.js";
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

/** An error as Node's fs gives it: errno, syscall, code and a path in the message. */
function fileSystemError(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), {
    errno: -2,
    code: "ENOENT",
    syscall: "open",
    path,
  });
}

describe("publicFailureReason: typed errors say their public message, anything else its kind", () => {
  it.each([
    [
      "a lens's model error",
      new ModelError("openai: 429 rate limited"),
      "openai: 429 rate limited",
    ],
    ["a time budget", new ModelTimeoutError("timed out after 900 s"), "timed out after 900 s"],
    [
      "an error of ours with a public message",
      Object.assign(new Error("/srv/x failed"), { publicMessage: "the store is unavailable" }),
      "the store is unavailable",
    ],
    [
      "a GitHub API error: status and route, no host, query or token",
      Object.assign(new Error("Server Error: body with /srv/gadfly"), {
        status: 502,
        request: {
          method: "POST",
          url: "https://ghe.internal:8443/api/v3/repos/o/r/issues/1/comments?access_token=ghs_abc",
        },
      }),
      "GitHub API error 502 on POST /repos/o/r/issues/1/comments",
    ],
    [
      "a file system error",
      fileSystemError("/var/lib/gadfly/workspaces/r1/a.ts"),
      "internal error (file system)",
    ],
    [
      "a network error naming the host",
      Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:5432"), {
        code: "ECONNREFUSED",
        syscall: "connect",
      }),
      "network error",
    ],
    [
      "a bug",
      new TypeError("Cannot read properties of undefined (reading '/srv/x')"),
      "internal error (TypeError)",
    ],
    ["a thrown string", "raw /srv/path text", "internal error"],
  ])("%s", (_kind, error, expected) => {
    expect(publicFailureReason(error)).toBe(expected);
  });

  it("redacts a credential even in a typed error's public message", () => {
    expect(publicFailureReason(new ModelError(`bad key ghp_${"x".repeat(36)}`))).toBe(
      "bad key [redacted]",
    );
  });

  it("publicCancelReason keeps our reasons and hides anyone else's message", () => {
    expect(publicCancelReason("superseded by 1a2b3c4")).toBe("superseded by 1a2b3c4");
    expect(publicCancelReason("shutting down")).toBe("shutting down");
    expect(publicCancelReason(new Error("/etc/secret is missing"))).toBe("cancelled");
    expect(publicCancelReason(new ModelTimeoutError("the time budget is exhausted"))).toBe(
      "the time budget is exhausted",
    );
    expect(publicCancelReason(fileSystemError("/var/lib/gadfly/x"))).toBe("cancelled");
    expect(publicCancelReason(undefined)).toBe("cancelled");
  });
});

describe("a round whose lens and whose store fail on a path under the data directory", () => {
  let github: FakeGitHub;
  let probot: Probot;
  let lenses: LensDefinition[];
  let temporary: TemporaryStoreDirectory;
  let store: SqliteRunStore;
  let pr: PullRequestSnapshot;
  let installationId = 0;
  let round: StoredRound;
  let octokit: GitHubClient;
  let logged: { message: string; fields: Record<string, unknown> }[];

  const config = AppConfig.parse({
    providers: [{ name: "local", type: "ollama" }],
    models: [{ id: "m1", provider: "local" }],
    review: { lenses: ["security"], verify: false },
  });

  beforeAll(async () => {
    github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
    const { privateKey, Octokit } = probotCredentials(github.apiUrl);
    probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
    lenses = await loadLenses();
    ({ installationId } = github.addRepo({ owner: "octo-org", name: "api" }));
  });
  afterAll(() => github.close());

  beforeEach(async () => {
    temporary = await temporaryStoreDirectory();
    store = temporary.track(await SqliteRunStore.open(temporary.path));
    logged = [];
    pr = github.addPullRequest({
      owner: "octo-org",
      repo: "api",
      title: "A change",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    octokit = (await probot.auth(installationId)) as GitHubClient;
    ({ round } = await store.startRound({
      repo: { owner: "octo-org", repo: "api" },
      installationId,
      pullNumber: pr.number,
      headSha: pr.headSha,
      trigger: { kind: "push", deliveryId: `d-${pr.number}` },
    }));
  });
  afterEach(() => temporary.remove());

  it("shows short public reasons on the board, the check and the store; the log has the detail", async () => {
    const secretPath = join(temporary.directory, "workspaces", round.id, "private-notes.txt");
    const failingModel: ChatModel = {
      kind: "chat",
      provider: "local",
      modelId: "m1",
      chat: async () => {
        throw fileSystemError(secretPath);
      },
    };
    // The store fails as the lens's report is saved: the round itself fails.
    const failingStore = new Proxy(store, {
      get(target, property, receiver) {
        if (property === "saveLensReport") {
          return async () => {
            throw fileSystemError(`${secretPath}.report`);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as RunStore;
    const record =
      (level: string) =>
      (fields: object, message: string): void => {
        logged.push({ message: `${level}: ${message}`, fields: fields as Record<string, unknown> });
      };
    const deps = roundDependencies(
      { store: failingStore, dataDir: temporary.directory },
      {
        config,
        limiter: createReviewerLimiter(2),
        lenses,
        log: { info: record("info"), warn: record("warn"), error: record("error") },
        createModel: () => failingModel,
      },
    );
    const plan = resolveReviewPlan(config, DEFAULT_REPO_CONFIG);
    await runPullRequestRound(
      octokit,
      {
        ...(await claimedRound(store, round.id)),
        plan,
        lenses: lensesFor(plan, lenses),
        fromFork: false,
      },
      deps,
    );

    const board =
      github.comments(pr).find((comment) => comment.body.startsWith(MARKERS.statusBoard))?.body ??
      "";
    const [check] = github.checkRuns(pr.headSha);
    const stored = await store.findRound(round.id);
    const published = {
      board,
      check: `${check?.output.title}\n${check?.output.summary}`,
      store: stored?.failure ?? "",
    };
    expect(board).toContain("⚠️ The round failed: internal error (file system)");
    expect(published.check).toContain("The review round failed: internal error (file system)");
    expect(stored?.state).toBe("failed");
    expect(stored?.failure).toBe("internal error (file system)");
    for (const [sink, text] of Object.entries(published)) {
      expect(text, sink).not.toContain(temporary.directory);
      expect(text, sink).not.toMatch(/ENOENT|errno|private-notes|no such file/);
    }
    // The detail went to the log instead: the round's error and the lens's, paths and all.
    const roundFailed = logged.find((entry) => entry.message === "error: round failed");
    expect(String((roundFailed?.fields.err as Error | undefined)?.message)).toContain(secretPath);
    const lensFailed = logged.find((entry) => entry.message === "warn: lens failed");
    expect(lensFailed?.fields).toMatchObject({ model: "m1", lens: "security" });
  });
});
