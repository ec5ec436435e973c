import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import { AppConfig } from "../../src/config/schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import type { RoundDependencies } from "../../src/github/round-dependencies.js";
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

/* A push's round waits out `review.debounceSeconds` in the store; the receiver's side of it. */

/** A push to the PR: its new head, as GitHub now reports it. */
const push = (content: string) => github.pushCommit(pr, [{ path: "a.js", content }]).headSha;

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

const request = (headSha: string | null, overrides: Partial<RoundRequest> = {}): RoundRequest => ({
  repo: { owner: "octo-org", repo: "api" },
  installationId,
  pullNumber: pr.number,
  headSha,
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
  store = temporary.track(await SqliteRunStore.open(temporary.path));
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
    const outcome = await startRound(octokit, request(pr.headSha), deps, loaded);
    expect(queue.delays).toEqual([{ roundId: roundId(outcome), delayMs: 30_000 }]);
    const [board] = boards();
    expect(boards()).toHaveLength(1);
    expect(board?.body).toContain(
      "⏳ Waiting for pushes to settle: the review starts at 2026-12-01 00:00:30Z",
    );
    expect(board?.body).toContain(`head \`${pr.headSha.slice(0, 7)}\``);
    expect(board?.body).toContain("0/2 reviewers finished");
    const round = await store.findRound(roundId(outcome));
    expect(round?.state).toBe("queued");
    // The worker that runs the round later edits this comment, not a second one.
    expect(round?.artifacts.statusCommentId).toBe(board?.id);
    expect(github.checkRuns(pr.headSha)).toEqual([]);
  });

  it("folds a burst into the last push: each push cancels the waiting round before it", async () => {
    const first = await startRound(octokit, request(pr.headSha), deps, loaded);
    clock.advance(5_000);
    const bbb = push("c\n");
    const second = await startRound(octokit, request(bbb), deps, loaded);
    clock.advance(5_000);
    const ccc = push("d\n");
    const last = await startRound(octokit, request(ccc), deps, loaded);
    expect(queue.hinted).toEqual([roundId(first), roundId(second)]);
    for (const folded of [first, second]) {
      expect((await store.findRound(roundId(folded)))?.state).toBe("cancelled");
    }
    // Each push waits its own full quiet period from when it came.
    expect(queue.delays.map((entry) => entry.delayMs)).toEqual([30_000, 30_000, 30_000]);
    expect(boards()).toHaveLength(1);
    expect(boards()[0]?.body).toContain(`head \`${ccc.slice(0, 7)}\``);
    expect(boards()[0]?.body).toContain("the review starts at 2026-12-01 00:00:40Z");
    expect((await store.findRound(roundId(last)))?.state).toBe("queued");
  });

  it("starts at once when `@gadfly review` comes during the quiet period, without a second board", async () => {
    const pushed = await startRound(octokit, request(pr.headSha), deps, loaded);
    const edits = boardEdits();
    const comment = await startRound(
      octokit,
      request(null, { trigger: { kind: "comment", deliveryId: "d-c", actor: "alice" } }),
      deps,
      loaded,
    );
    expect(comment).toEqual({ kind: "joined", roundId: roundId(pushed) });
    // Due now in the store, and woken again with no delay.
    expect(queue.delays.at(-1)).toEqual({ roundId: roundId(pushed), delayMs: 0 });
    expect((await store.findRound(roundId(pushed)))?.notBefore?.getTime()).toBeLessThanOrEqual(
      Date.now(),
    );
    expect(boardEdits()).toBe(edits);
    expect(boards()).toHaveLength(1);
  });

  it("posts the board again on a redelivery when GitHub refused it, the round queued once", async () => {
    // 502 without creating, three times: the board is looked for after each, never found.
    github.failNext("POST", "/repos/*/*/issues/*/comments", 502, { times: 3 });
    await expect(startRound(octokit, request(pr.headSha), deps, loaded)).rejects.toThrow();
    expect(boards()).toEqual([]);
    const again = await startRound(octokit, request(pr.headSha), deps, loaded);
    expect(again.kind).toBe("joined");
    expect(boards()).toHaveLength(1);
    expect(queue.enqueued).toHaveLength(1);
  });

  it("adopts the board GitHub created before answering 502, instead of posting a second one", async () => {
    github.failAfterDoingNext("POST", "/repos/*/*/issues/*/comments", 502);
    const posts = () =>
      github.requests({ method: "POST", path: `/repos/*/*/issues/${pr.number}/comments` });
    const outcome = await startRound(octokit, request(pr.headSha), deps, loaded);
    expect(outcome.kind).toBe("started");
    expect(boards()).toHaveLength(1);
    expect(posts().map((post) => post.status)).toEqual([502]);
    expect((await store.findRound(roundId(outcome)))?.artifacts.statusCommentId).toBe(
      boards()[0]?.id,
    );
  });

  it("does not wait for a comment or a re-run on a new head", async () => {
    await startRound(
      octokit,
      request(null, { trigger: { kind: "comment", deliveryId: "d-c", actor: "alice" } }),
      deps,
      loaded,
    );
    const eee = push("e\n");
    await startRound(
      octokit,
      request(eee, { trigger: { kind: "rerequest", deliveryId: "d-r", actor: "bob" } }),
      deps,
      loaded,
    );
    expect(queue.delays.map((entry) => entry.delayMs)).toEqual([0, 0]);
    expect(boards()).toEqual([]);
  });
});
