import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppConfig } from "../../src/config/schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { RoundRegistry, type StopReason } from "../../src/github/round-registry.js";
import type { RoundDependencies } from "../../src/github/run-pull-request-round.js";
import type { RoundJobInput } from "../../src/github/run-round-job.js";
import { InMemoryWorkQueue } from "../../src/run/queue/in-memory-work-queue.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import type { RoundMetricState } from "../../src/server/gadfly-metrics.js";
import { systemClock } from "../../src/time/clock.js";
import { startRoundWorkers } from "../../src/worker/start-round-workers.js";
import { sampleLensReport } from "../builders/lens-report.js";
import { deferred } from "../helpers/deferred.js";
import { eventually } from "../helpers/eventually.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

const silent = { info() {}, warn() {}, error() {} };

let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let queue: InMemoryWorkQueue;
let registry: RoundRegistry;
let rounds: RoundMetricState[];
/** What each job run saw: the input, the client's installation, and why the round stopped. */
let runs: { input: RoundJobInput; installation: unknown; stop: StopReason | null }[];
/** Held by each run before it registers its round (as loading the PR would). */
let loading: Promise<void>;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open({ path: temporary.path }));
  queue = new InMemoryWorkQueue();
  registry = new RoundRegistry();
  rounds = [];
  runs = [];
  loading = Promise.resolve();
});
afterEach(async () => {
  await queue.stop(1000);
  await temporary.remove();
});

/** Workers whose rounds wait until stopped; a cancelled one is ended as cancelled in the store. */
function start() {
  const deps: RoundDependencies = {
    config: AppConfig.parse({
      providers: [{ name: "local", type: "ollama" }],
      models: [{ id: "m", provider: "local" }],
    }),
    env: {},
    store,
    queue,
    limiter: createReviewerLimiter(1),
    registry,
    lenses: [],
    dataDir: temporary.directory,
    clock: systemClock,
    boardIntervalMs: 100,
    botLogin: "gadfly[bot]",
    log: silent,
  };
  return startRoundWorkers({
    queue,
    concurrency: 2,
    store,
    registry,
    installationClient: async (installationId) => ({ installationId }) as unknown as GitHubClient,
    dependencies: async () => deps,
    metrics: { round: (state) => rounds.push(state) },
    runJob: async (octokit, input, given) => {
      const run = {
        input,
        installation: (octokit as unknown as { installationId: number }).installationId,
        stop: null as StopReason | null,
      };
      runs.push(run);
      await loading;
      const done = deferred();
      const { signal, stopReason } = given.registry.register(input.round.id, done.promise);
      if (!signal.aborted) {
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      }
      run.stop = stopReason();
      if (run.stop?.kind === "cancelled") {
        await store.finishRound(input.round.id, { state: "cancelled", failure: run.stop.reason });
      }
      done.resolve();
    },
  });
}

async function queuedRound(pullNumber: number) {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId: 42,
    pullNumber,
    headSha: `sha-${pullNumber}`,
    trigger: { kind: "push", deliveryId: `d-${pullNumber}` },
  });
  return round;
}

describe("startRoundWorkers", () => {
  it("runs a queued round with its installation's client and hands it a cancellation from the queue", async () => {
    await start();
    const round = await queuedRound(1);
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually("the round to register", () => registry.has(round.id));
    expect(runs[0]?.installation).toBe(42);
    expect(runs[0]?.input.resumed).toBe(false);

    await queue.cancel(round.id, "superseded by bbb2220");
    await eventually("the round to end", () => !registry.has(round.id));
    expect(runs[0]?.stop).toEqual({ kind: "cancelled", reason: "superseded by bbb2220" });
    await eventually("the metrics", () => rounds.length === 2);
    expect(rounds).toEqual(["started", "cancelled"]);
  });

  it("stops its rounds without ending them when the queue shuts down", async () => {
    await start();
    const round = await queuedRound(1);
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually("the round to register", () => registry.has(round.id));
    await queue.stop(1000);
    expect(runs[0]?.stop).toEqual({ kind: "shutdown" });
    expect((await store.findRound(round.id))?.state).toBe("queued");
    expect(rounds).toEqual(["started"]);
  });

  it("reaches a round cancelled while its job was still loading the pull request", async () => {
    const gate = deferred();
    loading = gate.promise;
    await start();
    const round = await queuedRound(1);
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually("the job to start", () => runs.length === 1);
    await queue.cancel(round.id, "cancelled by an operator");
    gate.resolve();
    await eventually("the round to end", () => runs[0]?.stop !== null);
    expect(runs[0]?.stop).toEqual({ kind: "cancelled", reason: "cancelled by an operator" });
  });

  it("queues again, at start, the rounds left unfinished, resumed with the lenses they saved", async () => {
    const round = await queuedRound(1);
    await store.markRoundRunning(round.id);
    await store.saveLensReport(round.id, sampleLensReport());
    await queuedRound(2);

    expect(await start()).toBe(2);
    await eventually("both rounds to run", () => runs.length === 2);
    const resumed = runs.find((run) => run.input.round.id === round.id);
    expect(resumed?.input.resumed).toBe(true);
    expect(resumed?.input.finished.map((report) => report.lens)).toEqual(["security"]);
    expect(rounds.sort()).toEqual(["resumed", "started"]);
  });
});
