import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LensDefinition } from "../../src/agent/load-lenses.js";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { lensesFor } from "../../src/config/plan-review.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { runPullRequestRound } from "../../src/github/round/run-pull-request-round.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { MARKERS } from "../../src/render/markers.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { RoundRegistry } from "../../src/run/round-registry.js";
import type { ClaimedRound } from "../../src/run/round-worker.js";
import type { StoredRound } from "../../src/run/store/run-store.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import {
  type FakeGitHub,
  type PullRequestSnapshot,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { claimedRound } from "../helpers/claimed-round.js";
import { deferred } from "../helpers/deferred.js";
import { eventually } from "../helpers/eventually.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/*
 * How a round that is stopped from outside (a cancellation from the queue, a
 * lost job, a shutdown before it began) ends on GitHub and in the store.
 */

const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;
const NEWER = "bbb2220123456789abcdef0123456789abcdef01";

let github: FakeGitHub;
let probot: Probot;
let lenses: LensDefinition[];
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let registry: RoundRegistry;
let pr: PullRequestSnapshot;
let installationId = 0;
let round: StoredRound;
let octokit: GitHubClient;
let warnings: string[];
/** The model's call, held until the test releases it (or the round's signal aborts it). */
let arrived: ReturnType<typeof deferred>;
let release: ReturnType<typeof deferred>;

const config = AppConfig.parse({
  providers: [{ name: "local", type: "ollama" }],
  models: [{ id: "m1", provider: "local" }],
  review: { lenses: ["security"], verify: false, debounceSeconds: 0 },
});

function heldModel(): ChatModel {
  return {
    kind: "chat",
    provider: "local",
    modelId: "m1",
    chat: (request) =>
      new Promise((resolve, reject) => {
        arrived.resolve(undefined);
        request.signal?.addEventListener("abort", () => reject(request.signal?.reason), {
          once: true,
        });
        void release.promise.then(() =>
          resolve({
            text: renderLensAnswer("No material issues found", [], "Reviewed."),
            toolCalls: [],
            finishReason: "stop",
            usage: { inputTokens: 1, outputTokens: 1 },
          }),
        );
      }),
  };
}

/** The lease the round under test runs with: claimed when the test begins. */
let claimed: ClaimedRound;

function run(appConfig: AppConfig = config): Promise<void> {
  const deps = roundDependencies(
    { store, dataDir: temporary.directory },
    {
      config: appConfig,
      limiter: createReviewerLimiter(2),
      registry,
      lenses,
      log: { info() {}, warn: (_fields, message) => warnings.push(message), error() {} },
      createModel: () => heldModel(),
    },
  );
  const plan = resolveReviewPlan(config, DEFAULT_REPO_CONFIG);
  return runPullRequestRound(
    octokit,
    { ...claimed, plan, lenses: lensesFor(plan, lenses), fromFork: false },
    deps,
  );
}

const own = (marker: string) =>
  github
    .comments(pr)
    .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  lenses = await loadLenses();
  ({ installationId } = github.addRepo({
    owner: "octo-org",
    name: "api",
    ownerType: "Organization",
  }));
});
afterAll(() => github.close());

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
  registry = new RoundRegistry();
  warnings = [];
  arrived = deferred();
  release = deferred();
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
  claimed = await claimedRound(store, round.id);
  registry.add(claimed.lease, new Promise(() => undefined));
});
afterEach(async () => {
  release.resolve(undefined);
  claimed.lease.end();
  await temporary.remove();
});

/** A newer push of the same pull request, as its receiver records it. */
const supersede = () =>
  store.startRound({
    repo: round.repo,
    installationId,
    pullNumber: round.pullNumber,
    headSha: NEWER,
    trigger: { kind: "push", deliveryId: "d-newer" },
  });

describe("runPullRequestRound stopped from outside", () => {
  it("stops writing, and publishes nothing, once another worker took the round over", async () => {
    const running = run();
    await arrived.promise;
    const edits = () => github.requests({ method: "PATCH", path: "/repos/*/*/issues/comments/*" });
    const boardEdits = () => edits().length;
    await eventually(
      "the board to show the lens running, with no edit in flight",
      () =>
        (own(BOARD)[0]?.body ?? "").includes("running") &&
        edits().every((request) => request.status !== 0),
    );
    // Another worker takes the round over (this one's lease ran out, as if it had frozen).
    await store.expireLeases("other-worker");
    expect(
      (await store.claimRound(round.id, { owner: "other-worker", leaseMs: 60_000 })).kind,
    ).toBe("claimed");
    const editsBefore = boardEdits();
    release.resolve(undefined);
    await running;

    expect(own(CONSENSUS)).toEqual([]);
    expect(github.reviews(pr)).toEqual([]);
    expect(github.checkRuns(pr.headSha).map((check) => check.status)).toEqual(["in_progress"]);
    expect(boardEdits()).toBe(editsBefore);
    expect(own(BOARD)[0]?.body).not.toContain("1/1 reviewers finished");
    expect((await store.findRound(round.id))?.state).toBe("running");
    expect(warnings.filter((warning) => warning.startsWith("round taken over"))).toHaveLength(1);
  });

  it("ends a round a newer push superseded as cancelled, naming the newer head: board, check and store", async () => {
    const running = run();
    await arrived.promise;
    await supersede();
    // The receiver's hint: the holder reads the store now rather than at its next renewal.
    registry.hint(round.id);
    await running;

    const [check] = github.checkRuns(pr.headSha);
    expect(check?.conclusion).toBe("cancelled");
    expect(check?.output.title).toBe("Superseded by bbb2220");
    const stored = await store.findRound(round.id);
    expect(stored).toMatchObject({
      state: "cancelled",
      supersededBy: NEWER,
      failure: "superseded by bbb2220",
    });
    expect(own(BOARD)[0]?.body).toContain("Superseded by a newer push");
  });

  it("leaves the board to the newer push's waiting round when pushes are debounced", async () => {
    const debounced = AppConfig.parse({
      providers: [{ name: "local", type: "ollama" }],
      models: [{ id: "m1", provider: "local" }],
      review: { lenses: ["security"], verify: false, debounceSeconds: 30 },
    });
    const running = run(debounced);
    await arrived.promise;
    await eventually("the board shows the round running", () =>
      (own(BOARD)[0]?.body ?? "").includes("running"),
    );
    const writes = () =>
      github.requests({ method: "PATCH", path: "/repos/*/*/issues/comments/*" }).length;
    const before = writes();
    await supersede();
    registry.hint(round.id);
    await running;

    // The check still ends cancelled; the board, already the newer round's, is not touched.
    expect(github.checkRuns(pr.headSha)[0]?.output.title).toBe("Superseded by bbb2220");
    expect(writes()).toBe(before);
    expect(own(BOARD)[0]?.body).not.toContain("Superseded by a newer push");
  });

  it("writes nothing, and leaves the round for its worker to hand back, when a shutdown stopped it before it began", async () => {
    claimed.lease.stop({ kind: "shutdown" });
    await run();
    expect(github.checkRuns(pr.headSha)).toEqual([]);
    expect(own(BOARD)).toEqual([]);
    const stored = await store.findRound(round.id);
    expect(stored).toMatchObject({ state: "running", attempts: 0 });
  });
});
