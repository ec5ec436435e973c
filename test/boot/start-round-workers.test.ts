import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRoundWorkers } from "../../src/boot/start-round-workers.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { RoundRegistry, type StopReason } from "../../src/github/round-registry.js";
import type { RoundJobInput } from "../../src/github/run-round-job.js";
import { MAX_ROUND_ATTEMPTS } from "../../src/run/index.js";
import { InMemoryWorkQueue } from "../../src/run/queue/in-memory-work-queue.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import type { RoundMetricState } from "../../src/server/gadfly-metrics.js";
import { sampleLensReport } from "../builders/lens-report.js";
import { deferred } from "../helpers/deferred.js";
import { eventually } from "../helpers/eventually.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

const _silent = { info() {}, warn() {}, error() {} };

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
  const deps = roundDependencies({ store, dataDir: temporary.directory }, { queue, registry });
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

  it("abandons a round whose job fails on every attempt: failed in the store, its check completed", async () => {
    const round = await queuedRound(1);
    await store.setArtifacts(round.id, { checkRunId: 7 });
    const updates: {
      check_run_id: number;
      status?: string;
      conclusion?: string;
      output?: unknown;
    }[] = [];
    const client = {
      rest: {
        checks: {
          update: async (request: (typeof updates)[number]) => {
            updates.push(request);
            return { data: {} };
          },
        },
      },
    } as unknown as GitHubClient;
    let attempts = 0;
    await startRoundWorkers({
      queue,
      concurrency: 1,
      store,
      registry,
      installationClient: async () => client,
      dependencies: async () => roundDependencies({ store, dataDir: temporary.directory }),
      runJob: async () => {
        attempts++;
        throw new Error("GitHub is down");
      },
    });
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually(
      "the round to be given up",
      async () => (await store.findRound(round.id))?.state === "failed",
    );
    expect(attempts).toBe(MAX_ROUND_ATTEMPTS);
    expect(await store.findRound(round.id)).toMatchObject({
      failure: `gave up after ${MAX_ROUND_ATTEMPTS} attempts`,
    });
    await eventually("the check to be completed", () => updates.length === 1);
    expect(updates[0]).toMatchObject({
      check_run_id: 7,
      status: "completed",
      conclusion: "neutral",
      output: {
        title: "Gadfly could not finish this review",
        summary: expect.stringContaining(`failed: gave up after ${MAX_ROUND_ATTEMPTS} attempts`),
      },
    });
  });
});
