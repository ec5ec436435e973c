import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import type { RoundDependencies } from "../../src/github/run-pull-request-round.js";
import { type RoundRequest, startRound } from "../../src/github/start-round.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { RecordingQueue } from "../helpers/recording-queue.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

const _silent = { info() {}, warn() {}, error() {} };
/** Every test passes the repo config in, so the round needs nothing from GitHub. */
const offline = {} as GitHubClient;
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
  draft: false,
  trigger: { kind: "push", deliveryId: `d-${headSha}` },
  ...overrides,
});

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open({ path: temporary.path }));
  queue = new RecordingQueue();
  deps = roundDependencies({ store, dataDir: temporary.directory }, { queue });
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
    await startRound(offline, request(newer), deps, loaded());
    const oldId = old.kind === "started" ? old.roundId : "";
    expect(queue.cancelled).toEqual([{ roundId: oldId, reason: "superseded by bbb2220" }]);
    expect((await store.findRound(oldId))?.supersededBy).toBe(newer);
    expect(queue.enqueued).toHaveLength(2);
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
