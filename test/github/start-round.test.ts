import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import type { RoundDependencies } from "../../src/github/round-dependencies.js";
import { type RoundRequest, startRound } from "../../src/github/start-round.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { RecordingQueue } from "../helpers/recording-queue.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

const _silent = { info() {}, warn() {}, error() {} };
/**
 * Every test passes the repo config in; GitHub is asked only for the pull request, which this
 * answers as being at `pull.headSha` (changed by the tests to push), each read recorded.
 */
const pull = { headSha: "aaa111", state: "open", draft: false, reads: 0 };
const offline = {
  rest: {
    pulls: {
      get: async () => {
        pull.reads += 1;
        return { data: { state: pull.state, draft: pull.draft, head: { sha: pull.headSha } } };
      },
    },
  },
} as unknown as GitHubClient;
const loaded = (text: Partial<RepoConfig> = {}) => ({
  config: RepoConfig.parse(text),
  issues: null,
});

let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let queue: RecordingQueue;
let deps: RoundDependencies;

const request = (headSha: string, overrides: Partial<RoundRequest> = {}): RoundRequest => ({
  repo: { owner: "octo-org", repo: "api" },
  installationId: 42,
  pullNumber: 7,
  headSha,
  trigger: { kind: "push", deliveryId: `d-${headSha}` },
  ...overrides,
});

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
  queue = new RecordingQueue();
  deps = roundDependencies({ store, dataDir: temporary.directory }, { queue });
  Object.assign(pull, { headSha: "aaa111", state: "open", draft: false, reads: 0 });
});
afterEach(async () => {
  await temporary.remove();
});

describe("startRound", () => {
  it("records the round and queues it for a worker instead of running it here", async () => {
    const outcome = await startRound(offline, request("aaa111"), deps, loaded());
    expect(outcome.kind).toBe("started");
    const round = await store.findRound(outcome.kind === "started" ? outcome.roundId : "");
    expect(round?.state).toBe("queued");
    expect(queue.enqueued).toEqual([{ roundId: round?.id, installationId: 42 }]);
    expect(deps.registry.size).toBe(0);
  });

  it("joins the round queued for the same head, and queues it again (a no-op unless its job was lost)", async () => {
    const first = await startRound(offline, request("aaa111"), deps, loaded());
    const second = await startRound(
      offline,
      request("aaa111", { trigger: { kind: "comment", deliveryId: "d-2", actor: "alice" } }),
      deps,
      loaded(),
    );
    expect(second).toEqual({
      kind: "joined",
      roundId: first.kind === "started" ? first.roundId : "",
    });
    expect(queue.enqueued).toHaveLength(1);
  });

  it("cancels the round a newer head supersedes, wherever it runs, with a publishable reason", async () => {
    const old = await startRound(offline, request("aaa111"), deps, loaded());
    const newer = "bbb2220123456789";
    pull.headSha = newer;
    await startRound(offline, request(newer), deps, loaded());
    const oldId = old.kind === "started" ? old.roundId : "";
    // The holder, wherever it is, is told to read the store, which says why.
    expect(queue.hinted).toEqual([oldId]);
    expect(await store.findRound(oldId)).toMatchObject({
      state: "cancelled",
      supersededBy: newer,
      failure: "superseded by bbb2220",
    });
    expect(queue.enqueued).toHaveLength(2);
  });

  it("starts nothing for a late delivery of an older head, and leaves the newer head's round alone", async () => {
    pull.headSha = "bbb222";
    const newer = await startRound(offline, request("bbb222"), deps, loaded());
    // The push of aaa111 was delivered after bbb222's (GitHub does not order deliveries).
    const late = await startRound(offline, request("aaa111"), deps, loaded());
    expect(late).toEqual({
      kind: "skipped",
      reason: "late delivery for aaa111: the pull request is at bbb222",
    });
    const newerId = newer.kind === "started" ? newer.roundId : "";
    expect((await store.findRound(newerId))?.state).toBe("queued");
    expect(queue.hinted).toEqual([]);
    expect(queue.enqueued.map((job) => job.roundId)).toEqual([newerId]);
  });

  it("decides two racing deliveries one at a time under the pull request's lock: the older head never wins", async () => {
    // The older delivery reads the PR first and is slow to go on; the push lands meanwhile and
    // its delivery arrives. Without the lock, the older one would supersede the newer round.
    let releaseOlder: () => void = () => undefined;
    const olderRead = new Promise<void>((resolve) => {
      releaseOlder = resolve;
    });
    let reads = 0;
    const racing = {
      rest: {
        pulls: {
          get: async () => {
            reads += 1;
            const head = pull.headSha;
            if (reads === 1) await olderRead;
            return { data: { state: "open", draft: false, head: { sha: head } } };
          },
        },
      },
    } as unknown as GitHubClient;
    const older = startRound(racing, request("aaa111"), deps, loaded());
    await new Promise((resolve) => setImmediate(resolve));
    pull.headSha = "bbb222";
    const newer = startRound(racing, request("bbb222"), deps, loaded());
    await new Promise((resolve) => setImmediate(resolve));
    // The newer delivery waits for the lock: it has not even read the PR yet.
    expect(reads).toBe(1);
    releaseOlder();
    const [first, second] = await Promise.all([older, newer]);
    expect(first.kind).toBe("started");
    expect(second.kind).toBe("started");
    const oldRound = await store.findRound(first.kind === "started" ? first.roundId : "");
    const newRound = await store.findRound(second.kind === "started" ? second.roundId : "");
    expect(oldRound).toMatchObject({ state: "cancelled", supersededBy: "bbb222" });
    expect(newRound?.state).toBe("queued");
  });

  it("queues nothing when the repository turned pushes off, or when shutting down", async () => {
    expect(await startRound(offline, request("aaa111"), deps, loaded({ onPush: "off" }))).toEqual({
      kind: "skipped",
      reason: "onPush is off for this repository",
    });
    deps.registry.close();
    expect(await startRound(offline, request("ccc333"), deps, loaded())).toEqual({
      kind: "skipped",
      reason: "shutting down",
    });
    expect(queue.enqueued).toEqual([]);
  });
});
