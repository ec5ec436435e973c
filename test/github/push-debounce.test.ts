import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import { AppConfig } from "../../src/config/schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import type { RoundDependencies } from "../../src/github/run-pull-request-round.js";
import { type RoundRequest, type StartOutcome, startRound } from "../../src/github/start-round.js";
import { MARKERS } from "../../src/render/markers.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import {
  type FakeGitHub,
  type PullRequestSnapshot,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { RecordingQueue } from "../helpers/recording-queue.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/* A push's round waits out `review.debounceSeconds` on the queue; the receiver's side of it. */

const START = Date.parse("2026-12-01T00:00:00Z");
const loaded = { config: RepoConfig.parse({}), issues: null };

let github: FakeGitHub;
let probot: Probot;
let installationId = 0;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let queue: RecordingQueue;
let clock: FakeClock;
let deps: RoundDependencies;
let pr: PullRequestSnapshot;
let octokit: GitHubClient;

const request = (headSha: string, overrides: Partial<RoundRequest> = {}): RoundRequest => ({
  repo: { owner: "octo-org", repo: "api" },
  installationId,
  pullNumber: pr.number,
  headSha,
  draft: false,
  trigger: { kind: "push", deliveryId: `d-${headSha}` },
  ...overrides,
});
const roundId = (outcome: StartOutcome) => (outcome.kind === "skipped" ? "" : outcome.roundId);
const boards = () =>
  github.comments(pr).filter((comment) => comment.body.startsWith(MARKERS.statusBoard));
const boardEdits = () =>
  github.requests({ method: "PATCH", path: "/repos/*/*/issues/comments/*" }).length;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  ({ installationId } = github.addRepo({ owner: "octo-org", name: "api" }));
});
afterAll(() => github.close());

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open({ path: temporary.path }));
  queue = new RecordingQueue();
  clock = new FakeClock(START);
  deps = roundDependencies(
    { store, dataDir: temporary.directory },
    {
      queue,
      clock,
      lenses: await loadLenses(),
      config: AppConfig.parse({
        providers: [{ name: "local", type: "ollama" }],
        models: [
          { id: "alpha", provider: "local" },
          { id: "beta", provider: "local" },
        ],
        review: { lenses: ["security", "correctness"], debounceSeconds: 30 },
      }),
    },
  );
  pr = github.addPullRequest({ files: [{ path: "a.js", base: "a\n", head: "b\n" }] });
  octokit = (await probot.auth(installationId)) as GitHubClient;
});
afterEach(async () => {
  await temporary.remove();
});

describe("a push with a quiet period", () => {
  it("queues its round 30 s out and says so on the board at once, with no check yet", async () => {
    const outcome = await startRound(octokit, request("aaa1111"), deps, loaded);
    expect(queue.delays).toEqual([{ roundId: roundId(outcome), delayMs: 30_000 }]);
    const [board] = boards();
    expect(boards()).toHaveLength(1);
    expect(board?.body).toContain(
      "⏳ Waiting for pushes to settle: the review starts at 2026-12-01 00:00:30Z",
    );
    expect(board?.body).toContain("head `aaa1111`");
    expect(board?.body).toContain("0/2 reviewers finished");
    const round = await store.findRound(roundId(outcome));
    expect(round?.state).toBe("queued");
    // The worker that runs the round later edits this comment, not a second one.
    expect(round?.artifacts.statusCommentId).toBe(board?.id);
    expect(github.checkRuns("aaa1111")).toEqual([]);
  });

  it("folds a burst into the last push: each push cancels the waiting round before it", async () => {
    const first = await startRound(octokit, request("aaa1111"), deps, loaded);
    clock.advance(5_000);
    const second = await startRound(octokit, request("bbb2222"), deps, loaded);
    clock.advance(5_000);
    const last = await startRound(octokit, request("ccc3333"), deps, loaded);
    expect(queue.cancelled).toEqual([
      { roundId: roundId(first), reason: "superseded by bbb2222" },
      { roundId: roundId(second), reason: "superseded by ccc3333" },
    ]);
    for (const folded of [first, second]) {
      expect((await store.findRound(roundId(folded)))?.state).toBe("cancelled");
    }
    // Each push waits its own full quiet period from when it came.
    expect(queue.delays.map((entry) => entry.delayMs)).toEqual([30_000, 30_000, 30_000]);
    expect(boards()).toHaveLength(1);
    expect(boards()[0]?.body).toContain("head `ccc3333`");
    expect(boards()[0]?.body).toContain("the review starts at 2026-12-01 00:00:40Z");
    expect((await store.findRound(roundId(last)))?.state).toBe("queued");
  });

  it("starts at once when `@gadfly review` comes during the quiet period, without a second board", async () => {
    const push = await startRound(octokit, request("aaa1111"), deps, loaded);
    const edits = boardEdits();
    const comment = await startRound(
      octokit,
      request("aaa1111", { trigger: { kind: "comment", deliveryId: "d-c", actor: "alice" } }),
      deps,
      loaded,
    );
    expect(comment).toEqual({ kind: "joined", roundId: roundId(push) });
    // Enqueued again with no delay: the queue brings the waiting job's start forward.
    expect(queue.delays.at(-1)).toEqual({ roundId: roundId(push), delayMs: 0 });
    expect(boardEdits()).toBe(edits);
    expect(boards()).toHaveLength(1);
  });

  it("posts the board again on a redelivery when GitHub refused it, the round queued once", async () => {
    github.failNext("POST", "/repos/*/*/issues/*/comments", 502);
    await expect(startRound(octokit, request("aaa1111"), deps, loaded)).rejects.toThrow();
    expect(boards()).toEqual([]);
    const again = await startRound(octokit, request("aaa1111"), deps, loaded);
    expect(again.kind).toBe("joined");
    expect(boards()).toHaveLength(1);
    expect(queue.enqueued).toHaveLength(1);
  });

  it("does not wait for a comment or a re-run on a new head", async () => {
    await startRound(
      octokit,
      request("ddd4444", { trigger: { kind: "comment", deliveryId: "d-c", actor: "alice" } }),
      deps,
      loaded,
    );
    await startRound(
      octokit,
      request("eee5555", { trigger: { kind: "rerequest", deliveryId: "d-r", actor: "bob" } }),
      deps,
      loaded,
    );
    expect(queue.delays.map((entry) => entry.delayMs)).toEqual([0, 0]);
    expect(boards()).toEqual([]);
  });
});
